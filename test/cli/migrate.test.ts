import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { LOCK_WAITS_QUERY, until } from '../helpers/until.js';
import { json, runCli } from './run-cli.js';

/** The session lock Kysely's migrator takes on PostgreSQL (kysely's postgres-adapter.js). */
/** Every migration, oldest first, as `migrate` applies them. */
const MIGRATIONS = [
  '20261122_0001_initial',
  '20261123_0002_lz4_staged_data',
  '20261123_0003_staged_data_in_versions',
  '20261123_0004_references_to_shared_rows',
  '20261124_0005_covering_list_indexes',
  '20261124_0006_byte_order_keys',
  '20261127_0007_accounts_as_documents',
  '20261128_0008_reference_entries',
  '20261129_0009_supplier_rule_settings',
  '20261130_0010_account_claims',
  '20261201_0011_account_additions',
  '20261201_0012_account_transactions',
  '20261201_0013_meter_point_registrations',
  '20261202_0014_account_events',
  '20261202_0015_creation_schedules',
  '20261203_0016_validation_stamps',
  '20261204_0017_schedules_keyed_by_process',
  '20261205_0018_error_domains_in_capitals',
];

const KYSELY_MIGRATION_LOCK = '3853314791062309107';

await describeEachDialect('cli: migrate', (dialect) => {
  let database: TestDatabase;
  const cli = (...args: string[]) => runCli({ DATABASE_URL: database.url }, ...args);
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(() => database.destroy());

  async function tables(): Promise<string[]> {
    const db = connect(database.url);
    try {
      const found = await db.kysely.introspection.getTables();
      return found.map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
    } finally {
      await db.close();
    }
  }

  /** The compression method of each staged-data column: 'l' lz4, '' the server default. */
  async function stagedDataCompression(): Promise<string[]> {
    const db = connect(database.url);
    try {
      const { rows } = await sql<{ method: string }>`
        select attcompression::text as method from pg_attribute
        where attname = 'data' and not attisdropped
          and attrelid in ('import_processes'::regclass, 'import_process_versions'::regclass)
        order by attrelid`.execute(db.kysely);
      return rows.map((row) => row.method);
    } finally {
      await db.close();
    }
  }

  async function appliedMigrations(): Promise<string[]> {
    const db = connect(database.url);
    try {
      const { rows } = await sql<{
        name: string;
      }>`select name from kysely_migration order by name`.execute(db.kysely);
      return rows.map((row) => row.name);
    } finally {
      await db.close();
    }
  }

  it('applies every migration to a fresh database', async () => {
    const result = await cli('migrate');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(MIGRATIONS.map((name) => `applied ${name}\n`).join(''));
    expect(await tables()).toContain('import_suppliers');
    // PostgreSQL compresses staged data with lz4 (SQLite does not compress); only the version
    // rows hold it.
    if (dialect === 'postgres') expect(await stagedDataCompression()).toEqual(['l']);
  });

  it('reports that an up-to-date schema has nothing to apply', async () => {
    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('migrate')).stdout).toBe('database schema is up to date\n');
    expect(json((await cli('migrate', '--json')).stdout)).toEqual({ applied: [] });
  });

  it('names a migration from a newer version instead of calling the schema corrupted', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const db = connect(database.url);
    try {
      await sql`insert into kysely_migration (name, timestamp)
        values ('20991231_9999_future', '2099-12-31T00:00:00.000Z')`.execute(db.kysely);
    } finally {
      await db.close();
    }
    for (const command of [['migrate'], ['team', 'list']]) {
      const { code, stderr } = await cli(...command);
      expect(code).toBe(2);
      expect(stderr).toBe(
        'error: the database has migration 20991231_9999_future, which this version of ' +
          'account-import does not know: another version (a newer one, most likely) migrated ' +
          'it; run that version\n',
      );
    }
  });

  it('reverts the newest migration with --down', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const result = await cli('migrate', '--down', '--json');
    expect(result.code).toBe(0);
    const newestFirst = MIGRATIONS.slice(2).reverse();
    expect(json(result.stdout)).toEqual({ reverted: [newestFirst[0]] });
    for (const name of newestFirst.slice(1)) {
      expect(json((await cli('migrate', '--down', '--json')).stdout)).toEqual({ reverted: [name] });
    }
    if (dialect === 'postgres') expect(await stagedDataCompression()).toEqual(['l', 'l']);
    expect(json((await cli('migrate', '--down', '--json')).stdout)).toEqual({
      reverted: ['20261123_0002_lz4_staged_data'],
    });
    if (dialect === 'postgres') expect(await stagedDataCompression()).toEqual(['', '']);
    expect(await tables()).toContain('import_suppliers');
    expect(json((await cli('migrate', '--down', '--drop-all-data', '--json')).stdout)).toEqual({
      reverted: ['20261122_0001_initial'],
    });
    expect(await tables()).not.toContain('import_suppliers');
    expect((await cli('migrate', '--down')).stdout).toBe('nothing to revert\n');
  });

  it('reverts the first migration, which drops every table, only with --drop-all-data', async () => {
    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('team', 'add', 'Kept')).code).toBe(0);
    // Down to the first migration, however many follow it.
    while ((await appliedMigrations()).length > 1) {
      expect((await cli('migrate', '--down')).code).toBe(0);
    }
    expect(await appliedMigrations()).toEqual(['20261122_0001_initial']);
    const refused = await cli('migrate', '--down');
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'error: reverting 20261122_0001_initial drops every table and all the data in them ' +
        '(organisations, keys, suppliers, teams, skip marks, staged data and accounts); add ' +
        '--drop-all-data to do so\n',
    });
    expect(json((await cli('migrate', '--down', '--json')).stderr)).toMatchObject({
      error: expect.stringContaining('--drop-all-data') as unknown,
    });
    const db = connect(database.url);
    try {
      const teams = await db.kysely.selectFrom('operations_teams').select('name').execute();
      expect(teams).toEqual([{ name: 'Kept' }]);
    } finally {
      await db.close();
    }
    const misplaced = await cli('migrate', '--drop-all-data');
    expect(misplaced).toMatchObject({
      code: 1,
      stderr: 'error: --drop-all-data goes with --down\n',
    });
    expect(await tables()).toContain('operations_teams');
  });

  it('never reverts the first migration for two --down run at once', async () => {
    expect((await cli('migrate')).code).toBe(0);
    while ((await appliedMigrations()).length > 2) {
      expect((await cli('migrate', '--down')).code).toBe(0);
    }
    // One migration above the first. On PostgreSQL both commands are held at the migrator's
    // lock until both wait there, so both would have found the second migration newest had
    // they looked before taking it: one reverts it, the other must then refuse the first.
    // On SQLite the two race for the file's write lock.
    const holder =
      dialect === 'postgres' ? new pg.Client({ connectionString: database.url }) : undefined;
    await holder?.connect();
    try {
      await holder?.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
      const running = Promise.all([cli('migrate', '--down'), cli('migrate', '--down')]);
      if (holder) {
        await until(async () => (await holder.query(LOCK_WAITS_QUERY)).rows[0].n === 2);
        await holder.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
      }
      const results = await running;
      expect(results.map((result) => result.stdout).filter(Boolean)).toEqual([
        'reverted 20261123_0002_lz4_staged_data\n',
      ]);
      // The other was refused, or (SQLite) found the file locked by the first.
      const other = results.find((result) => result.stdout === '');
      expect(other?.code === 1 ? other.stderr : `${other?.code} ${other?.stderr}`).toMatch(
        dialect === 'postgres' ? /--drop-all-data/ : /--drop-all-data|^2 .*database is locked/,
      );
    } finally {
      await holder?.end();
    }
    expect(await appliedMigrations()).toEqual(['20261122_0001_initial']);
    expect(await tables()).toContain('import_suppliers');
  });

  it('lets operator commands migrate a fresh database by themselves', async () => {
    const result = await cli('team', 'list', '--json');
    expect(result).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(await tables()).toContain('operations_teams');
  });
});
