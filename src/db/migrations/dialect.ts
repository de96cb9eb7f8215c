import { PostgresAdapter, type Kysely } from 'kysely';

/** Migrations branch on the engine only for the id column type: SQLite and PostgreSQL spell auto-increment differently. */
export function isPostgres(db: Kysely<unknown>): boolean {
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
