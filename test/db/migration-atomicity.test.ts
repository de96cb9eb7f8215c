/**
 * Migrations are all or nothing on both databases: the pending migrations and their records
 * run in one transaction, so one that fails half way (or a process killed in the middle)
 * leaves the schema as it was, and the next start migrates it. They also run without the time
 * limits of a request's statements, which could cancel a long rewrite half way.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest, onMigrationConnection } from '../../src/db/migrate.js';
import {
  createTestDatabase,
  describeEachDialect,
  dialectEnabled,
  type TestDatabase,
} from '../helpers/databases.js';

await describeEachDialect('migration atomicity', (dialect) => {
  const opened: { database: TestDatabase; db: Db }[] = [];
  afterEach(async () => {
    for (const { database, db } of opened.splice(0)) {
      await db.close();
      await database.destroy();
    }
  });

  async function emptyDatabase(): Promise<{ db: Db }> {
    const database = await createTestDatabase(dialect);
    const db = connect(database.url, { poolSize: 1 });
    opened.push({ database, db });
    return { db };
  }

  async function tables(db: Db): Promise<string[]> {
    const tables = await db.kysely.introspection.getTables();
    return tables.map((table) => table.name).sort();
  }

  it('leaves nothing behind when the first migration fails half way, and migrates once mended', async () => {
    const { db } = await emptyDatabase();
    // The first migration creates `settings`, then fails on the table that is in its way.
    await sql`create table operations_teams (x integer)`.execute(db.kysely);
    await expect(migrateToLatest(db)).rejects.toThrow(/operations_teams/);
    expect(await tables(db)).toEqual(['operations_teams']);
    const recorded = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(
      db.kysely,
    );
    expect(Number(recorded.rows[0]?.n)).toBe(0);

    await sql`drop table operations_teams`.execute(db.kysely);
    const applied = await migrateToLatest(db);
    expect(applied[0]).toBe('applied 20261122_0001_initial');
    expect(await tables(db)).toContain('settings');
    expect(await migrateToLatest(db)).toEqual([]);
  });
});

describe.skipIf(!(await dialectEnabled('postgres')))('migration time limits [postgres]', () => {
  it('migrates without a statement time limit, even one the database sets', async () => {
    const database = await createTestDatabase('postgres');
    const name = new URL(database.url).pathname.slice(1);
    const admin = connect(database.url, { poolSize: 1 });
    await sql`alter database ${sql.id(name)} set statement_timeout = '1s'`.execute(admin.kysely);
    await admin.close();
    const db = connect(database.url, { poolSize: 1 });
    try {
      const limit = async (on: Db) =>
        (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(on.kysely))
          .rows[0]?.statement_timeout;
      expect(await limit(db)).toBe('15s');
      expect(await onMigrationConnection(db, database.url, limit)).toBe('0');
    } finally {
      await db.close();
      await database.destroy();
    }
  });
});
