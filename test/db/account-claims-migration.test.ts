/**
 * Migration 0010 keeps the values each created account holds alone (account_claims), carried
 * over from the accounts already there: where two of them share a value, the older keeps it.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261129_0009_supplier_rule_settings';
const MIGRATION = '20261130_0010_account_claims';

await describeEachDialect('migration 0010: account claims', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  /** A created account of supplier 1 with this document. */
  async function insertAccount(external: string, document: object): Promise<number> {
    const { rows: processes } = await sql<{ id: number }>`insert into import_processes
      (supplier_id, external_account_number, state, version, first_staged_at, last_staged_at)
      values (1, ${external}, 'completed', 1, 1, 1) returning id`.execute(db.kysely);
    const { rows } = await sql<{ id: number }>`insert into accounts
      (number, supplier_id, external_account_number, import_process_id, operations_team_id,
        document, created_at)
      values (${`A-${external}`}, 1, ${external}, ${processes[0]?.id}, 1,
        ${JSON.stringify(document)}, 1) returning id`.execute(db.kysely);
    return Number(rows[0]?.id);
  }

  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await sql`insert into import_suppliers
      (id, code, status, document_root, customer_emails, phone_region, created_at)
      values (1, 'OLD', 'Ongoing', '/', 0, 'GB', 1)`.execute(db.kysely);
    await sql`insert into operations_teams (id, name, created_at) values (1, 'Team', 1)`.execute(
      db.kysely,
    );
  });

  afterEach(() => destroy());

  it('carries the claims of existing accounts over, the older keeping a shared one', async () => {
    const older = await insertAccount('OLD-1', {
      references: [{ namespace: 'legacy-crm', value: 'SHARED' }],
      debts: [{ cais_reference: 'CAIS-1' }, { cais_reference: 'CAIS-1' }],
    });
    const newer = await insertAccount('OLD-2', {
      references: [
        { namespace: 'legacy-crm', value: 'SHARED' },
        { namespace: 'legacy-crm', value: 'OWN' },
      ],
      debt: { cais_reference: 'CAIS-2' },
    });
    await insertAccount('OLD-3', {});
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);

    const claims = await db.kysely
      .selectFrom('account_claims')
      .select(['account_id', 'kind', 'namespace', 'value'])
      .orderBy('id')
      .execute();
    expect(claims.map((c) => ({ ...c, account_id: Number(c.account_id) }))).toEqual([
      { account_id: older, kind: 'reference', namespace: 'legacy-crm', value: 'SHARED' },
      { account_id: older, kind: 'cais', namespace: '', value: 'CAIS-1' },
      { account_id: newer, kind: 'reference', namespace: 'legacy-crm', value: 'OWN' },
      { account_id: newer, kind: 'cais', namespace: '', value: 'CAIS-2' },
    ]);
    // The key refuses a value taken.
    await expect(
      sql`insert into account_claims (account_id, kind, namespace, value)
        values (${newer}, 'reference', 'legacy-crm', 'SHARED')`.execute(db.kysely),
    ).rejects.toThrow();

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('account_claims');
    expect(tables).toContain('accounts');
  });
});
