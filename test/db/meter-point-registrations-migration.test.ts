/**
 * Migration 0013 gives the meter points of the accounts created before it the status a creation
 * gives them now (PRE_REGISTRATION when their supplier sends registration flows, else ON_SUPPLY),
 * since the account's creation; its down drops both tables.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261201_0012_account_transactions';
const MIGRATION = '20261201_0013_meter_point_registrations';

await describeEachDialect('migration 0013: meter point registrations', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  async function insertSupplier(id: number, code: string, settings: object): Promise<void> {
    await sql`insert into import_suppliers
      (id, code, status, document_root, customer_emails, phone_region, created_at, rule_settings)
      values (${id}, ${code}, 'Ongoing', '/', 0, 'GB', 1, ${JSON.stringify(settings)})`.execute(
      db.kysely,
    );
  }

  /** A created account of the supplier with this document, created at `createdAt`. */
  async function insertAccount(
    supplierId: number,
    external: string,
    document: object,
    createdAt: number,
  ): Promise<number> {
    const { rows: processes } = await sql<{ id: number }>`insert into import_processes
      (supplier_id, external_account_number, state, version, first_staged_at, last_staged_at)
      values (${supplierId}, ${external}, 'completed', 1, 1, 1) returning id`.execute(db.kysely);
    const { rows } = await sql<{ id: number }>`insert into accounts
      (number, supplier_id, external_account_number, import_process_id, operations_team_id,
        document, created_at)
      values (${`A-${external}`}, ${supplierId}, ${external}, ${processes[0]?.id}, 1,
        ${JSON.stringify(document)}, ${createdAt}) returning id`.execute(db.kysely);
    return Number(rows[0]?.id);
  }

  const point = (identifier: string, supplyType: string) => ({
    identifier,
    supply_type: supplyType,
  });

  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await insertSupplier(1, 'SENDS', { send_registration_flows: true });
    await insertSupplier(2, 'PLAIN', {});
    await sql`insert into operations_teams (id, name, created_at) values (1, 'Team', 1)`.execute(
      db.kysely,
    );
  });

  afterEach(() => destroy());

  it('gives the meter points of existing accounts their starting status', async () => {
    const sends = await insertAccount(
      1,
      'OLD-1',
      {
        supply_addresses: [
          { meter_points: [point('1200023305967', 'ELECTRICITY'), point('3240865509', 'GAS')] },
          // Listed twice (which the rules refuse now): one row.
          { meter_points: [point('7654321', 'GAS'), point('7654321', 'GAS')] },
        ],
      },
      1_700_000_000_000,
    );
    const plain = await insertAccount(
      2,
      'OLD-2',
      { supply_addresses: [{ meter_points: [point('1200023305967', 'ELECTRICITY')] }] },
      1_700_000_500_000,
    );
    await insertAccount(2, 'OLD-3', { customers: [] }, 1);
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);

    const rows = await db.kysely
      .selectFrom('meter_point_registrations')
      .select(['account_id', 'mpxn', 'supply_type', 'status', 'detail', 'updated_at'])
      .orderBy('id')
      .execute();
    expect(
      rows.map((r) => ({
        ...r,
        account_id: Number(r.account_id),
        updated_at: Number(r.updated_at),
      })),
    ).toEqual([
      {
        account_id: sends,
        mpxn: '1200023305967',
        supply_type: 'ELECTRICITY',
        status: 'PRE_REGISTRATION',
        detail: null,
        updated_at: 1_700_000_000_000,
      },
      {
        account_id: sends,
        mpxn: '3240865509',
        supply_type: 'GAS',
        status: 'PRE_REGISTRATION',
        detail: null,
        updated_at: 1_700_000_000_000,
      },
      {
        account_id: sends,
        mpxn: '7654321',
        supply_type: 'GAS',
        status: 'PRE_REGISTRATION',
        detail: null,
        updated_at: 1_700_000_000_000,
      },
      {
        account_id: plain,
        mpxn: '1200023305967',
        supply_type: 'ELECTRICITY',
        status: 'ON_SUPPLY',
        detail: null,
        updated_at: 1_700_000_500_000,
      },
    ]);
    expect(await db.kysely.selectFrom('registration_outbox').selectAll().execute()).toEqual([]);
    // One row per account and meter point.
    await expect(
      sql`insert into meter_point_registrations
        (account_id, mpxn, supply_type, status, updated_at)
        values (${plain}, '1200023305967', 'ELECTRICITY', 'ON_SUPPLY', 1)`.execute(db.kysely),
    ).rejects.toThrow();

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('meter_point_registrations');
    expect(tables).not.toContain('registration_outbox');
    expect(tables).toContain('accounts');
  });
});
