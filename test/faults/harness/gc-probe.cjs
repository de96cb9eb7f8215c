/* global process, require, setInterval */
/**
 * Preloaded into the service under test (NODE_OPTIONS="--expose-gc --require <this file>"):
 * every GC_PROBE_MS (5 s) it forces a full collection and writes the live heap of the main
 * thread to stderr, so a load test can tell a leak from V8's heap sizing. Test instrumentation
 * only; worker threads (which run preloads too) stay silent.
 */
'use strict';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload
const { isMainThread } = require('node:worker_threads');

const every = Number(process.env.GC_PROBE_MS || 5000);
if (isMainThread && typeof globalThis.gc === 'function') {
  setInterval(() => {
    globalThis.gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.stderr.write(`GC_PROBE ${JSON.stringify({ at: Date.now(), heapUsed, rss })}\n`);
  }, every).unref();
}
