/**
 * The storage strategy: everything that differs between SQLite and PostgreSQL, behind one
 * interface chosen once, when the database is opened (connect.ts). Code outside `src/db/`
 * never asks which engine it runs on (test/db/dialect-seam.test.ts): it calls the strategy, and
 * where a statement must be written differently it gives one variant per dialect (pick).
 */
import type { Db, Work } from './database.js';

export type { PerDialect, Storage, UniqueConstraint, Work } from './database.js';

/** One atomic write on the database (Storage.atomicWrite). */
export function atomicWrite<T>(db: Db, work: Work<T>): Promise<T> {
  return db.storage.atomicWrite(db.kysely, work);
}
