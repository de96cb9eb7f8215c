/**
 * Runs SQLite's WAL checkpoints on a worker thread. A checkpoint copies committed pages from
 * the WAL into the database file and fsyncs it; done on the connection that commits (SQLite's
 * default), that I/O stalls the event loop every thousand pages. Moved here it overlaps with
 * request handling. Durability is unchanged: a commit is as durable as the synchronous mode
 * makes it the moment it is written to the WAL, whoever checkpoints later.
 *
 * Copying pages is not enough to keep the WAL short: under a steady stream of commits the
 * checkpoint never catches up with the last one, so the WAL is never started over, and it
 * grows until the connection's fallback checkpoint (connect.ts) stalls a commit for tens of
 * milliseconds to finish the job. So once the WAL holds RESTART_FRAMES frames, the worker
 * also restarts it: a RESTART checkpoint holds off writers while it copies the few frames its
 * PASSIVE pass left, which the service's group commit waits for without blocking its event
 * loop (group-commit.ts).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const INTERVAL_MS = 50;
const RESTART_FRAMES = 4096;

// Evaluated as CommonJS in the worker, so it needs no file of its own in src/ or dist/.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    // Once every frame is copied, the next commit starts the WAL over by itself.
    if (log >= workerData.restartFrames && checkpointed < log) {
      db.pragma('wal_checkpoint(RESTART)');
    }
  } catch {
    // A busy database is checkpointed on the next tick.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(path: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, driver, intervalMs: INTERVAL_MS, restartFrames: RESTART_FRAMES },
  });
  worker.unref();
  // A failed checkpointer is not fatal: the connection's own autocheckpoint is the fallback.
  worker.on('error', () => undefined);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  return {
    // A worker that already ended (it failed) is not waited for: it would never exit again.
    stop: () => {
      if (!exited) {
        worker.ref();
        worker.postMessage('stop');
      }
      return exit;
    },
  };
}
