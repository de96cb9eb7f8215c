/**
 * A PostgreSQL connection the server ends (an administrator's pg_terminate_backend, a server
 * shutting down) answers its query with an error of PostgreSQL's own, then closes. It must not
 * go back into the pool: the next request would be handed a connection already gone, and fail
 * too. (PostgreSQL only: SQLite has no connection to lose.)
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { createTestDatabase, dialectEnabled, type TestDatabase } from '../helpers/databases.js';

describe.skipIf(!(await dialectEnabled('postgres')))('a terminated connection [postgres]', () => {
  let database: TestDatabase;
  let db: Db;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = connect(database.url, { poolSize: 1 });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.close();
    await database.destroy();
  });

  const backend = async () =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db.kysely)).rows[0]?.pid;

  it('is discarded once its query is refused for it, and the next query gets a new one', async () => {
    const pid = await backend();
    const sleeping = sql`select pg_sleep(30)`.execute(db.kysely);
    // The sleep has started on the pool's one connection when the server lists it as active.
    await expect
      .poll(
        async () =>
          (await admin.query('select state from pg_stat_activity where pid = $1', [pid])).rows[0]
            ?.state,
      )
      .toBe('active');
    // Awaited once the backend is terminated, but heard from now: the refusal may come first.
    const refused = expect(sleeping).rejects.toMatchObject({ code: '57P01' });
    await admin.query('select pg_terminate_backend($1)', [pid]);
    await refused;
    // At once, before the closed socket is noticed: the pool's one connection must be a new one.
    const next = await backend();
    expect(next).toEqual(expect.any(Number));
    expect(next).not.toBe(pid);
  });
});
