/**
 * The storage strategy: everything that differs between SQLite and PostgreSQL, behind one
 * interface chosen once, when the database is opened (connect.ts). Code outside `src/db/`
 * never asks which engine it runs on (test/db/dialect-seam.test.ts): it calls the strategy, and
 * where a statement must be written differently it gives one variant per dialect (pick).
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, Db, Dialect } from './database.js';

/** A write's work, given the executor its statements must use. */
export type Work<T> = (executor: Kysely<Database>) => Promise<T>;

/** One value for each dialect: a statement, a query's strategy, a function. */
export type PerDialect<T> = Readonly<Record<Dialect, T>>;

/** A unique constraint, as each engine names it in a violation. */
export interface UniqueConstraint {
  /** PostgreSQL's name of it. */
  name: string;
  table: string;
  /** Its columns, in the constraint's order (SQLite names them). */
  columns: readonly string[];
}

export interface Storage {
  /**
   * One atomic write: on SQLite in the group commit of this turn of the event loop
   * (group-commit.ts), on PostgreSQL in a transaction of its own (pooled connections commit
   * side by side).
   */
  atomicWrite<T>(db: Kysely<Database>, work: Work<T>): Promise<T>;

  /**
   * A write of one statement, atomic by itself: on SQLite it still joins the turn's group
   * commit, like every write on the request path; on PostgreSQL it runs as it is.
   */
  statementWrite<T>(db: Kysely<Database>, work: Work<T>): Promise<T>;

  /**
   * An atomic write that no other write holding the same lock runs beside, so that it may
   * count what those writes change: SQLite's write lock serialises every write already; on
   * PostgreSQL a transaction-scoped advisory lock on `lock` does.
   */
  exclusiveWrite<T>(db: Kysely<Database>, lock: number, work: Work<T>): Promise<T>;

  /**
   * The query, reading rows that the atomic write it runs in depends on, so that no write
   * changes them before it ends: FOR SHARE on PostgreSQL; on SQLite the write lock, taken
   * when the write began, already holds every other writer off.
   */
  sharingRows<TB extends keyof Database, O>(
    query: SelectQueryBuilder<Database, TB, O>,
  ): SelectQueryBuilder<Database, TB, O>;

  /** Whether `error` is a violation of the unique constraint. */
  isUniqueViolation(error: unknown, constraint: UniqueConstraint): boolean;

  /** Whether `error` means the database cannot be reached now (503), not a bug. */
  isUnavailable(error: unknown): boolean;

  /** The variant for this dialect. */
  pick<T>(variants: PerDialect<T>): T;
}

/** One atomic write on the database (Storage.atomicWrite). */
export function atomicWrite<T>(db: Db, work: Work<T>): Promise<T> {
  return db.storage.atomicWrite(db.kysely, work);
}
