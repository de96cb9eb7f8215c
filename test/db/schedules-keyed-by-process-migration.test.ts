/**
 * Migration 0017 keys each schedule by its account's process: the schedules already there are
 * kept, value for value, a second schedule of one process is refused, and the lookup index by
 * account is gone. `down` gives back the separate id and the index, keeping the schedules.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261203_0016_validation_stamps';
const MIGRATION = '20261204_0017_schedules_keyed_by_process';

/** A schedule row of migration 0015's table, its id left to the database. */
const schedule = (processId: number, external: string, status: string) => sql`
  insert into creation_schedules (process_id, supplier_id, external_account_number, status,
    is_dry_run, window_start, window_end, team_id, claim_id, lease_until, attempts, error_code,
    error_detail, error_domain, service_account_number, created_at, modified_at)
  values (${processId}, 7, ${external}, ${status}, 0, 100, 200, 3, ${status === 'IN_PROGRESS' ? 'claim-1' : null},
    ${status === 'IN_PROGRESS' ? 150 : null}, 1, null, null, null, null, 90, 95)`;

await describeEachDialect('migration 0017: schedules keyed by process', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await schedule(41, 'A-1', 'PENDING').execute(db.kysely);
    await schedule(42, 'A-2', 'IN_PROGRESS').execute(db.kysely);
  });

  afterEach(() => destroy());

  const rows = async () =>
    (
      await sql<Record<string, unknown>>`select process_id, supplier_id, external_account_number,
        status, is_dry_run, window_start, window_end, team_id, claim_id, lease_until, attempts,
        service_account_number, created_at, modified_at
        from creation_schedules order by process_id`.execute(db.kysely)
    ).rows.map((row) =>
      // PostgreSQL returns bigint columns as strings.
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
        ]),
      ),
    );
  const shape = async () => {
    const tables = await db.kysely.introspection.getTables();
    const columns = tables.find((t) => t.name === 'creation_schedules')?.columns ?? [];
    const indexes =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = 'creation_schedules' and sql is not null`.execute(
            db.kysely,
          )
        : await sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = 'creation_schedules'`.execute(db.kysely);
    return {
      columns: columns.map((c) => c.name),
      indexes: indexes.rows.map((r) => r.name).sort(),
    };
  };

  it('keeps every schedule, keyed by its process, and down gives back the id', async () => {
    const before = await rows();
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);

    expect(await rows()).toEqual(before);
    const keyed = await shape();
    expect(keyed.columns).not.toContain('id');
    expect(keyed.indexes).toEqual(
      dialect === 'sqlite'
        ? ['creation_schedules_due']
        : ['creation_schedules_due', 'creation_schedules_pkey'],
    );
    // One schedule per process: the key refuses a second.
    await expect(schedule(41, 'A-1', 'PENDING').execute(db.kysely)).rejects.toThrow();

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await rows()).toEqual(before);
    const reverted = await shape();
    expect(reverted.columns).toContain('id');
    expect(reverted.indexes).toEqual(
      expect.arrayContaining(['creation_schedules_by_account', 'creation_schedules_due']),
    );
    await expect(schedule(41, 'A-1', 'PENDING').execute(db.kysely)).rejects.toThrow();

    // And up again on the reverted schema.
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    expect(await rows()).toEqual(before);
  });
});
