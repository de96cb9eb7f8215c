/**
 * Migration 0004 replaces, on PostgreSQL, the foreign keys to organisations, suppliers and
 * operations teams by triggers (SQLite keeps its foreign keys). Either way the database must
 * still refuse to delete or renumber a row that others refer to, and allow it for one that no
 * row refers to; on PostgreSQL, `down` must bring the foreign keys back or change nothing.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const MIGRATION = '20261123_0004_references_to_shared_rows';

const FOREIGN_KEYS = [
  'accounts_operations_team_id_fkey',
  'accounts_supplier_id_fkey',
  'import_process_versions_organisation_id_fkey',
  'import_processes_supplier_id_fkey',
];

await describeEachDialect('references to organisations, suppliers and teams', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  /**
   * Organisation 1, supplier 1 and team 1 are referred to: a staged version, a process and an
   * account point at them. Organisation 2 (granted supplier 2), supplier 2 and team 2 are not.
   */
  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, MIGRATION));
    await sql`insert into organisations (id, name, key_id, key_hash, created_at)
      values (1, 'one', 'k1', 'h', 1), (2, 'two', 'k2', 'h', 1)`.execute(db.kysely);
    await sql`insert into import_suppliers (id, code, status, created_at)
      values (1, 'S1', 'Ongoing', 1), (2, 'S2', 'Ongoing', 1)`.execute(db.kysely);
    await sql`insert into organisation_suppliers (organisation_id, supplier_id)
      values (2, 2)`.execute(db.kysely);
    await sql`insert into operations_teams (id, name, created_at)
      values (1, 'T1', 1), (2, 'T2', 1)`.execute(db.kysely);
    await sql`insert into import_processes
        (id, supplier_id, external_account_number, state, version, first_staged_at, last_staged_at)
      values (1, 1, 'E-1', 'completed', 1, 1, 1)`.execute(db.kysely);
    await sql`insert into import_process_versions
        (process_id, version, data, organisation_id, staged_at)
      values (1, 1, '{}', 1, 1)`.execute(db.kysely);
    await sql`insert into accounts
        (number, supplier_id, external_account_number, import_process_id, operations_team_id,
         account_type, billing_address, communication_preference, language_preference,
         unknown_occupier, details, created_at)
      values ('A-1', 1, 'E-1', 1, 1, 'DOMESTIC', '{}', 'EMAIL', 'en', 0, '{}', 1)`.execute(
      db.kysely,
    );
  });

  afterEach(() => destroy());

  /** Expects the statement to fail as a foreign-key violation of the dialect. */
  async function expectRefused(statement: Promise<unknown>): Promise<void> {
    const error = await statement.then(
      () => undefined,
      (caught: unknown) => caught as { code?: string },
    );
    expect(error?.code).toBe(dialect === 'sqlite' ? 'SQLITE_CONSTRAINT_FOREIGNKEY' : '23503');
  }

  const count = async (table: string) =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely))
        .rows[0]?.n,
    );

  it('refuses to delete or renumber an organisation, supplier or team that rows refer to', async () => {
    await expectRefused(sql`delete from organisations where id = 1`.execute(db.kysely));
    await expectRefused(sql`delete from import_suppliers where id = 1`.execute(db.kysely));
    await expectRefused(sql`delete from operations_teams where id = 1`.execute(db.kysely));
    await expectRefused(sql`update organisations set id = 11 where id = 1`.execute(db.kysely));
    await expectRefused(sql`update import_suppliers set id = 11 where id = 1`.execute(db.kysely));
    await expectRefused(sql`update operations_teams set id = 11 where id = 1`.execute(db.kysely));
    expect(await count('organisations')).toBe(2);
    expect(await count('import_suppliers')).toBe(2);
    expect(await count('operations_teams')).toBe(2);
  });

  it('deletes and renumbers those no row refers to, and changes the others freely', async () => {
    await sql`update organisations set enabled = 0, key_version = 2 where id = 1`.execute(
      db.kysely,
    );
    await sql`update import_suppliers set status = 'Paused' where id = 1`.execute(db.kysely);
    await sql`update operations_teams set name = 'Renamed' where id = 1`.execute(db.kysely);
    await sql`update operations_teams set id = 12 where id = 2`.execute(db.kysely);
    await sql`delete from operations_teams where id = 12`.execute(db.kysely);
    // The grant of organisation 2 to supplier 2 goes with either of them (ON DELETE CASCADE).
    await sql`delete from organisations where id = 2`.execute(db.kysely);
    await sql`delete from import_suppliers where id = 2`.execute(db.kysely);
    expect(await count('organisations')).toBe(1);
    expect(await count('import_suppliers')).toBe(1);
    expect(await count('operations_teams')).toBe(1);
    expect(await count('organisation_suppliers')).toBe(0);
  });

  if (dialect === 'postgres') {
    const foreignKeys = async () =>
      (
        await sql<{ name: string }>`select conname as name from pg_constraint
          where contype = 'f' and conname in (${sql.join(FOREIGN_KEYS)}) order by conname`.execute(
          db.kysely,
        )
      ).rows.map((row) => row.name);

    const triggers = async () =>
      (
        await sql<{ name: string }>`select tgname as name from pg_trigger
          where tgname like '%_still_referenced' order by tgname`.execute(db.kysely)
      ).rows.map((row) => row.name);

    const TRIGGERS = [
      'import_suppliers_still_referenced',
      'import_suppliers_truncate_still_referenced',
      'operations_teams_still_referenced',
      'operations_teams_truncate_still_referenced',
      'organisations_still_referenced',
      'organisations_truncate_still_referenced',
    ];

    it('refuses to empty a table that rows refer to with TRUNCATE', async () => {
      // No foreign key points at operations_teams any more: only the trigger stands in the way.
      await expectRefused(sql`truncate operations_teams`.execute(db.kysely));
      expect(await count('operations_teams')).toBe(2);
      await sql`delete from accounts`.execute(db.kysely);
      await sql`truncate operations_teams`.execute(db.kysely);
      expect(await count('operations_teams')).toBe(0);
    });

    it('holds those references with triggers instead of foreign keys; down restores the keys', async () => {
      expect(await foreignKeys()).toEqual([]);
      expect(await triggers()).toEqual(TRIGGERS);
      expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
      expect(await foreignKeys()).toEqual(FOREIGN_KEYS);
      expect(await triggers()).toEqual([]);
      // The foreign keys refuse what the triggers did.
      await expectRefused(sql`delete from organisations where id = 1`.execute(db.kysely));
      expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
      expect(await foreignKeys()).toEqual([]);
    });

    it('refuses to go down, changing nothing, while a reference points at no row', async () => {
      // Without the foreign key, only the service's own checks keep such a row out.
      await sql`insert into import_process_versions
          (process_id, version, data, organisation_id, staged_at)
        values (1, 2, '{}', 999, 1)`.execute(db.kysely);
      await expect(migrateDown(db)).rejects.toThrow(/organisation_id_fkey/);
      expect(await foreignKeys()).toEqual([]);
      expect(await triggers()).toEqual(TRIGGERS);
    });
  }
});
