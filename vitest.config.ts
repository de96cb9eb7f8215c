import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql ships CommonJS (`main`) beside ES modules (`module`). Node loads the CommonJS
    // copy for the service and for mercurius alike; the tests must load the same copy, or the
    // service's graphql values would be foreign to mercurius' (`instanceof` fails across them).
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Threads start the worker's current source, bundled once per run (see the setup file).
    globalSetup: ['test/helpers/validation-worker-bundle.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
