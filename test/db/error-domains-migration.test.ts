/**
 * Migration 0018 writes a schedule's error domain in capitals: the workers' old values are
 * brought to the new set (a skip mark or a supplier no longer Ongoing to SCHEDULING), a schedule
 * without an error is left alone, and `down` gives back the old values.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261204_0017_schedules_keyed_by_process';
const MIGRATION = '20261205_0018_error_domains_in_capitals';

/** Each schedule's error as migration 0017's workers wrote it: process id, code, domain. */
const OLD: [number, string | null, string | null][] = [
  [1, 'tariff_code_not_found', 'validation'],
  [2, 'account_import_process_skipped', 'creation'],
  [3, 'import_supplier_migration_not_ongoing', 'creation'],
  [4, 'account_import_process_already_imported', 'creation'],
  [5, 'schedule_window_closed', 'schedule'],
  [6, 'internal_error', 'internal'],
  [7, null, null],
];

await describeEachDialect('migration 0018: error domains in capitals', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    for (const [processId, code, domain] of OLD) {
      await sql`insert into creation_schedules (process_id, supplier_id, external_account_number,
          status, is_dry_run, window_start, window_end, error_code, error_domain, created_at,
          modified_at)
        values (${processId}, 7, ${`A-${processId}`}, ${code === null ? 'PENDING' : 'ERRORED'},
          0, 100, 200, ${code}, ${domain}, 90, 95)`.execute(db.kysely);
    }
  });

  afterEach(() => destroy());

  const domains = async () =>
    (
      await sql<{ error_domain: string | null }>`select error_domain from creation_schedules
        order by process_id`.execute(db.kysely)
    ).rows.map((row) => row.error_domain);

  it('brings every domain to the new set, and down gives back the old ones', async () => {
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    expect(await domains()).toEqual([
      'VALIDATION',
      'SCHEDULING',
      'SCHEDULING',
      'CREATION',
      'SCHEDULING',
      'INTERNAL',
      null,
    ]);

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await domains()).toEqual(OLD.map(([, , domain]) => domain));
  });
});
