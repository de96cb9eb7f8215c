/** The storage strategy of a query builder, for code that holds an executor rather than a Db. */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { postgresStorage } from './postgres-storage.js';
import { sqliteStorage } from './sqlite-storage.js';
import type { Storage } from './storage.js';

/** The strategy the database (or transaction) `db` was opened with (connect.ts). */
export function storageOf(db: Kysely<Database>): Storage {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresStorage : sqliteStorage;
}
