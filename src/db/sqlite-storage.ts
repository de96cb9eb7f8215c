/** SQLite's storage strategy (storage.ts): one connection, writes grouped into shared commits. */
import { isSqliteUnavailable } from './availability.js';
import { groupCommit } from './group-commit.js';
import type { Storage, UniqueConstraint } from './storage.js';

/** better-sqlite3's message names the violated columns, table-qualified, and nothing else. */
function isUniqueViolation(error: unknown, { table, columns }: UniqueConstraint): boolean {
  const { message } = (error ?? {}) as { message?: unknown };
  const failed = `UNIQUE constraint failed: ${columns.map((c) => `${table}.${c}`).join(', ')}`;
  return message === failed;
}

export const sqliteStorage: Storage = {
  atomicWrite: groupCommit,
  statementWrite: groupCommit,
  // Every write holds SQLite's one write lock, so the lock key adds nothing.
  exclusiveWrite: (db, _lock, work) => groupCommit(db, work),
  sharingRows: (query) => query,
  isUniqueViolation,
  isUnavailable: isSqliteUnavailable,
  pick: (variants) => variants.sqlite,
};
