/**
 * Which database failures mean "try again later" (503) rather than a bug (500), on errors the
 * real drivers raise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/availability.js';
import { POSTGRES_ADMIN_URL, createTestDatabase, dialectEnabled } from '../helpers/databases.js';

/** The error `work` throws; fails the test when it throws none. */
async function thrown(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('database availability [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'availability-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a.db');
  const first = new Database(file);
  first.pragma('journal_mode = WAL');
  first.exec('create table t (x integer)');
  const second = new Database(file);
  second.pragma('busy_timeout = 0');
  afterAll(() => {
    first.close();
    second.close();
  });

  it('takes a locked database for unavailable', async () => {
    first.exec('begin immediate');
    try {
      const error = await thrown(() => second.exec('insert into t values (1)'));
      expect(error).toMatchObject({ code: 'SQLITE_BUSY' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      first.exec('rollback');
    }
  });

  it('takes an extended busy code (a stale read before a write) for unavailable too', async () => {
    first.exec('begin');
    try {
      first.prepare('select * from t').all();
      second.exec('insert into t values (2)');
      const error = await thrown(() => first.exec('insert into t values (3)'));
      expect(error).toMatchObject({ code: 'SQLITE_BUSY_SNAPSHOT' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      first.exec('rollback');
    }
  });

  it('takes a bad statement for a bug', async () => {
    const bug = await thrown(() => first.exec('select * from no_such_table'));
    expect(bug).toMatchObject({ code: 'SQLITE_ERROR' });
    expect(isDatabaseUnavailable(bug)).toBe(false);
  });
});

describe.skipIf(!(await dialectEnabled('postgres')))('database availability [postgres]', () => {
  it('takes a refused connection and a cancelled statement for unavailable, a bad one for a bug', async () => {
    const refused = await thrown(async () => {
      const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
      await client.connect();
    });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query("set statement_timeout = '10ms'");
      const cancelled = await thrown(() => client.query('select pg_sleep(1)'));
      expect(cancelled).toMatchObject({ code: '57014' });
      expect(isDatabaseUnavailable(cancelled)).toBe(true);
      const bug = await thrown(() => client.query('select * from no_such_table'));
      expect(bug).toMatchObject({ code: '42P01' });
      expect(isDatabaseUnavailable(bug)).toBe(false);
    } finally {
      await client.end();
    }
  });

  it('takes a database closed to connections (maintenance) for unavailable', async () => {
    const database = await createTestDatabase('postgres');
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    const name = new URL(database.url).pathname.slice(1);
    try {
      await admin.query(`alter database "${name}" allow_connections false`);
      const closed = await thrown(async () => {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
      });
      expect(closed).toMatchObject({ code: '55000' });
      expect(isDatabaseUnavailable(closed)).toBe(true);
    } finally {
      await admin.query(`alter database "${name}" allow_connections true`);
      await admin.end();
      await database.destroy();
    }
  });
});
