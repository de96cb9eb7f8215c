/**
 * Migration 0003 moves the latest staged payload out of import_processes: it must lose no
 * payload on the way up, refuse (changing nothing) when a payload exists only in the process
 * row, and put each process's current payload back on the way down.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261123_0002_lz4_staged_data';
const MIGRATION = '20261123_0003_staged_data_in_versions';

await describeEachDialect('migration 0003: staged data only in version rows', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  /** A database one step before 0003, holding an organisation and a supplier. */
  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await sql`insert into organisations (id, name, key_id, key_hash, created_at)
      values (1, 'org', 'key', 'hash', 1)`.execute(db.kysely);
    await sql`insert into import_suppliers (id, code, status, created_at)
      values (1, 'S', 'Ongoing', 1)`.execute(db.kysely);
  });

  afterEach(() => destroy());

  async function insertProcess(id: number, version: number, data: string): Promise<void> {
    await sql`insert into import_processes
        (id, supplier_id, external_account_number, state, data, version, first_staged_at, last_staged_at)
      values (${id}, 1, ${`E-${id}`}, 'pending', ${data}, ${version}, 1, 1)`.execute(db.kysely);
  }

  async function insertVersion(processId: number, version: number, data: string): Promise<void> {
    await sql`insert into import_process_versions
        (process_id, version, data, organisation_id, staged_at)
      values (${processId}, ${version}, ${data}, 1, 1)`.execute(db.kysely);
  }

  async function processColumns(): Promise<string[]> {
    const tables = await db.kysely.introspection.getTables();
    const processes = tables.find((table) => table.name === 'import_processes');
    return (processes?.columns ?? []).map((column) => column.name);
  }

  const processData = async () =>
    (
      await sql<{ id: number; data: string }>`
        select id, data from import_processes order by id`.execute(db.kysely)
    ).rows.map((row) => ({ id: Number(row.id), data: row.data }));

  const versionData = async () =>
    (
      await sql<{ process_id: number; version: number; data: string }>`
        select process_id, version, data from import_process_versions
        order by process_id, version`.execute(db.kysely)
    ).rows.map((row) => `${Number(row.process_id)}/${Number(row.version)}: ${row.data}`);

  it('drops the process copy, keeps every version, and restores the current one on down', async () => {
    await insertProcess(1, 2, '{"n":2}');
    await insertVersion(1, 1, '{"n":1}');
    await insertVersion(1, 2, '{"n":2}');
    await insertProcess(2, 1, '{"m":1}');
    await insertVersion(2, 1, '{"m":1}');
    const versions = await versionData();

    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    expect(await processColumns()).not.toContain('data');
    expect(await versionData()).toEqual(versions);

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await processData()).toEqual([
      { id: 1, data: '{"n":2}' },
      { id: 2, data: '{"m":1}' },
    ]);
    expect(await versionData()).toEqual(versions);
  });

  it('reverts all or nothing: a process without its version row leaves the column dropped', async () => {
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    await sql`insert into import_processes
        (id, supplier_id, external_account_number, state, version, first_staged_at, last_staged_at)
      values (7, 1, 'E-7', 'pending', 1, 1, 1)`.execute(db.kysely);

    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(migrateDown(db)).rejects.toThrow(/null/i);
      expect(await processColumns()).not.toContain('data');
    }
  });

  it('refuses, changing nothing, when a process has no row for its current version', async () => {
    await insertProcess(1, 2, '{"only":"here"}');
    await insertVersion(1, 1, '{"old":1}');

    await expect(migrateTo(db, MIGRATION)).rejects.toThrow(
      /import process 1 has no version row for its current version/,
    );
    expect(await processColumns()).toContain('data');
    expect(await processData()).toEqual([{ id: 1, data: '{"only":"here"}' }]);
  });
});
