/** PostgreSQL's storage strategy (storage.ts): pooled connections, a transaction per write. */
import { sql } from 'kysely';
import { isPostgresUnavailable } from './availability.js';
import { transaction } from './direct-execution.js';
import type { Storage, UniqueConstraint } from './storage.js';

/** SQLSTATE unique_violation; pg reports the constraint's name. */
function isUniqueViolation(error: unknown, { name }: UniqueConstraint): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === name;
}

export const postgresStorage: Storage = {
  atomicWrite: transaction,
  statementWrite: (db, work) => work(db),
  exclusiveWrite: (db, lock, work) =>
    transaction(db, async (trx) => {
      await sql`select pg_advisory_xact_lock(${lock})`.execute(trx);
      return work(trx);
    }),
  sharingRows: (query) => query.forShare(),
  isUniqueViolation,
  isUnavailable: isPostgresUnavailable,
  pick: (variants) => variants.postgres,
};
