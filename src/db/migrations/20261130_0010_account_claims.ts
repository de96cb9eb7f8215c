/**
 * The values each created account claims within its import supplier's book
 * (src/account/claims.ts): its account references (kind `reference`, with their namespace) and
 * its debts' CAIS references (kind `cais`, namespace ''). The unique key on (supplier_id, kind,
 * namespace, value) is what lets two concurrent creations not both take a value: the account's
 * own write inserts its claims, and the second one fails as a whole.
 *
 * `up` carries over the claims of the accounts already created, read from their documents in
 * batches of 500; should two of them hold the same value (nothing refused it before), the
 * older account keeps it.
 */
import { sql, type Kysely } from 'kysely';
import { idType } from './dialect.js';

/** Accounts are carried over this many at a time. */
const BATCH = 500;

interface Claim {
  kind: string;
  namespace: string;
  value: string;
}

type Json = Record<string, unknown>;

const objects = (list: unknown): Json[] =>
  Array.isArray(list) ? list.filter((item): item is Json => typeof item === 'object') : [];

/** The claims of a stored document, as src/account/claims.ts read them when this was written. */
function claimsOf(document: Json): Claim[] {
  const claims: Claim[] = [];
  for (const { namespace, value } of objects(document.references)) {
    if (typeof namespace === 'string' && typeof value === 'string') {
      claims.push({ kind: 'reference', namespace, value });
    }
  }
  const debts = [...objects([document.debt]), ...objects(document.debts)];
  for (const { cais_reference: value } of debts) {
    if (typeof value === 'string' && value !== '')
      claims.push({ kind: 'cais', namespace: '', value });
  }
  return claims;
}

async function carryOverClaims(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; supplier_id: number; document: string }>`select
      id, supplier_id, document from accounts where id > ${after} order by id limit ${BATCH}`.execute(
      db,
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      for (const { kind, namespace, value } of claimsOf(JSON.parse(row.document) as Json)) {
        await sql`insert into account_claims (account_id, supplier_id, kind, namespace, value)
          values (${row.id}, ${row.supplier_id}, ${kind}, ${namespace}, ${value})
          on conflict (supplier_id, kind, namespace, value) do nothing`.execute(db);
      }
    }
    after = Number(rows.at(-1)?.id);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_claims')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    // The account's supplier, copied: no key to import_suppliers, whose row a creation never locks.
    .addColumn('supplier_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('account_claims_key', ['supplier_id', 'kind', 'namespace', 'value'])
    .execute();
  await carryOverClaims(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_claims').execute();
}
