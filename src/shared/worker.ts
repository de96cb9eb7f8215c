/**
 * Starts a worker thread from a module beside its caller. Built, the module is JavaScript in
 * dist/; run from source (the tests), it is TypeScript, which Node 20 cannot load by itself: the
 * worker then registers scripts/typescript-loader.mjs first, so that the tests run the source
 * they are testing rather than the last build.
 */
import { Worker } from 'node:worker_threads';

const TYPESCRIPT_LOADER = new URL('../../scripts/typescript-loader.mjs', import.meta.url);

/** The worker module `name` (without extension) next to `callerUrl`, as built or as source. */
export function workerModule(name: string, callerUrl: string): URL {
  return new URL(`./${name}.${callerUrl.endsWith('.ts') ? 'ts' : 'js'}`, callerUrl);
}

export function startWorker(script: URL): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script);
  const bootstrap = `require('node:module').register(${JSON.stringify(TYPESCRIPT_LOADER.href)});
import(${JSON.stringify(script.href)});`;
  return new Worker(bootstrap, { eval: true });
}
