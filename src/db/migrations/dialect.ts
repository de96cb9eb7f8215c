import { PostgresAdapter, type Kysely } from 'kysely';

/** Migrations branch on the engine only for the id column type: SQLite and PostgreSQL spell auto-increment differently. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function idType(db: Kysely<unknown>): 'bigserial' | 'integer' {
  return isPostgres(db) ? 'bigserial' : 'integer';
}
