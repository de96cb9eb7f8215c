/**
 * Group commit for SQLite. Each commit writes every page it changed to the WAL, and a stage
 * changes about ten (two rows of a few kB and their index leaves), so committing stages one by
 * one writes about 38 kB of WAL each, and the WAL checkpoints that follow stall the connection.
 * Writes started in the same turn of the event loop instead share one transaction: each runs
 * in its own savepoint, in turn, and every one is answered only after the transaction's single
 * COMMIT. Consecutive stages touch the same index leaves, so a batch writes a fraction of the
 * pages. Atomicity and durability per write are unchanged: a write that fails is rolled back to
 * its savepoint alone, and none is reported done before its COMMIT returned.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { compiledQuery } from './compiled.js';
import type { Database } from './database.js';
import { whileHolding } from './direct-execution.js';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-limits.js';

const statement = (text: string) =>
  compiledQuery((db) => ({ compile: () => sql.raw(text).compile(db) }));

// IMMEDIATE takes the write lock at once: a batch may read before it writes (a refused stage),
// and a read-then-write transaction fails rather than waits if another connection wrote between.
const begin = statement('begin immediate');
const failWhenLocked = statement('pragma busy_timeout = 0');
const waitWhenLocked = statement(`pragma busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
const LOCK_RETRY_MS = 1;
const commit = statement('commit');
const rollback = statement('rollback');
const savepoint = statement('savepoint grouped');
const release = statement('release grouped');
const rollbackToSavepoint = statement('rollback to grouped');

interface Batch {
  /** The connection the batch holds, once its transaction has begun. */
  connection: Promise<Kysely<Database>>;
  /** The last write queued; the next one starts when it has ended. */
  tail: Promise<unknown>;
  /** Settles when the batch's transaction committed, or failed to. */
  committed: Promise<void>;
  /**
   * Set when a write could not be rolled back to its savepoint (SQLite had ended the
   * transaction, say): the batch then fails as a whole.
   */
  broken?: unknown;
}

const open = new WeakMap<Kysely<Database>, Batch>();

/**
 * Runs `work` in the write batch of this turn of the event loop (see above). `work` must only
 * use the executor it is given, and only for the statements of this one write.
 */
export async function groupCommit<T>(
  db: Kysely<Database>,
  work: (executor: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const batch = open.get(db) ?? startBatch(db);
  const done = batch.tail.then(async () => inSavepoint(batch, await batch.connection, work));
  batch.tail = done.catch(() => undefined);
  const result = await done;
  await batch.committed;
  return result;
}

async function inSavepoint<T>(
  batch: Batch,
  executor: Kysely<Database>,
  work: (executor: Kysely<Database>) => Promise<T>,
): Promise<T> {
  // Outside a transaction a savepoint would begin one of its own, committed by its release.
  if (batch.broken !== undefined) throw batch.broken;
  await savepoint(executor);
  try {
    const result = await work(executor);
    await release(executor);
    return result;
  } catch (error) {
    try {
      await rollbackToSavepoint(executor);
      await release(executor);
    } catch (rollbackError) {
      batch.broken = rollbackError;
    }
    throw error;
  }
}

/**
 * Takes the write lock. A batch holds it until the event loop's next turn, so while another
 * connection (another instance) holds it, this one waits between tries rather than in SQLite's
 * busy handler, which would block the event loop that the holder may be sharing.
 */
async function beginImmediate(executor: Kysely<Database>): Promise<void> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  await failWhenLocked(executor);
  try {
    for (;;) {
      try {
        await begin(executor);
        return;
      } catch (error) {
        const { code } = error as { code?: unknown };
        const busy = typeof code === 'string' && code.startsWith('SQLITE_BUSY');
        if (!busy || Date.now() >= deadline) throw error;
        await sleep(LOCK_RETRY_MS);
      }
    }
  } finally {
    await waitWhenLocked(executor);
  }
}

function startBatch(db: Kysely<Database>): Batch {
  let opened!: (connection: Kysely<Database>) => void;
  let failed!: (error: unknown) => void;
  const connection = new Promise<Kysely<Database>>((resolve, reject) => {
    opened = resolve;
    failed = reject;
  });
  let closed!: () => void;
  const closing = new Promise<void>((resolve) => (closed = resolve));
  const batch: Batch = { connection, tail: connection, committed: Promise.resolve() };
  batch.committed = db.connection().execute((held) =>
    whileHolding(db, held, async (executor) => {
      try {
        await beginImmediate(executor);
      } catch (error) {
        // Nothing to undo unless BEGIN succeeded and restoring the busy timeout failed.
        await rollback(executor).catch(() => undefined);
        throw error;
      }
      opened(executor);
      await closing;
      // Every write queued before the batch closed has ended (each in its savepoint).
      await batch.tail;
      try {
        // A write that could not be undone must not be committed with the others.
        if (batch.broken !== undefined) throw batch.broken;
        await commit(executor);
      } catch (error) {
        await rollback(executor).catch(() => undefined);
        throw error;
      }
    }),
  );
  batch.committed.catch(failed);
  open.set(db, batch);
  setImmediate(() => {
    open.delete(db);
    closed();
  });
  return batch;
}
