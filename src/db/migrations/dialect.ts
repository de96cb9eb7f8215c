import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether the query builder speaks to PostgreSQL, for SQL the two engines spell differently. */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function idType(db: Kysely<unknown>): 'bigserial' | 'integer' {
  return isPostgres(db) ? 'bigserial' : 'integer';
}

/**
 * Runs `work` in one transaction. The migrator already opens one on PostgreSQL; on SQLite it
 * does not, so a step that fails half way would otherwise leave the schema half changed.
 */
export async function atomically(
  db: Kysely<unknown>,
  work: (db: Kysely<unknown>) => Promise<void>,
): Promise<void> {
  if (isPostgres(db) || db.isTransaction) return work(db);
  await db.transaction().execute(work);
}
