import { defineConfig } from 'vitest/config';

/**
 * The slow fault tests (`npm run test:faults`): real service processes killed, stopped and
 * loaded. One file at a time, so that the timing figures (latency, memory) are the service's
 * own and not those of another suite sharing the two cores.
 */
export default defineConfig({
  resolve: {
    // As in vitest.config.ts: tests that build the app in process (worker-kill.faults.ts) must
    // load the CommonJS graphql the service loads.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/faults/**/*.faults.ts'],
    // Threads start the worker's current source, bundled once per run (see the setup file).
    globalSetup: ['test/helpers/validation-worker-bundle.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
