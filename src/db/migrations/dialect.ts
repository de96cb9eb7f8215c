import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether the query builder speaks to PostgreSQL, for SQL the two engines spell differently. */
export function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function idType(db: Kysely<unknown>): 'bigserial' | 'integer' {
  return isPostgres(db) ? 'bigserial' : 'integer';
}
