/**
 * On PostgreSQL, compiled queries run as named prepared statements. The pool has one
 * connection, so pg_prepared_statements (which lists the statements of the connection asking)
 * shows what the compiled queries before it prepared.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledInsert, compiledQuery, type Params } from '../../src/db/compiled.js';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { statementName } from '../../src/db/statements.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, dialectEnabled, type TestDatabase } from '../helpers/databases.js';

const teamsFrom = compiledQuery((db, { since }: Params<{ since: number }>) =>
  db
    .selectFrom('operations_teams')
    .select(['name', 'created_at'])
    .where('created_at', '>=', since)
    .orderBy('name'),
);

const teamNamed = compiledQuery((db, { name }: Params<{ name: string }>) =>
  db.selectFrom('operations_teams').selectAll().where('name', '=', name),
);

const teamInsert = compiledInsert('operations_teams', ['name', 'created_at'], ['name']);

interface PreparedStatement {
  name: string;
  statement: string;
  executions: number;
}

describe.skipIf(!(await dialectEnabled('postgres')))('named prepared statements [postgres]', () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    db = connect(database.url, { poolSize: 1 });
    await migrateToLatest(db);
    await db.kysely
      .insertInto('operations_teams')
      .values(['a', 'b', 'c'].map((name, i) => ({ name, created_at: i })))
      .execute();
  });
  afterAll(async () => {
    await db.close();
    await database.destroy();
  });

  /** The connection's prepared statements on `table`. */
  async function prepared(table: string): Promise<PreparedStatement[]> {
    const { rows } = await sql<PreparedStatement>`
      select name, statement, (generic_plans + custom_plans)::int as executions
      from pg_prepared_statements
      where statement like ${`%"${table}"%`}
      order by prepare_time, name`.execute(db.kysely);
    return rows;
  }

  it('prepares a compiled query once under its name, with unchanged results', async () => {
    const teams = [
      { name: 'a', created_at: 0 },
      { name: 'b', created_at: 1 },
      { name: 'c', created_at: 2 },
    ];
    for (const since of [0, 1, 2]) {
      expect((await teamsFrom(db.kysely, { since })).rows).toEqual(teams.slice(since));
    }
    const inTransaction = await db.kysely
      .transaction()
      .execute((trx) => teamsFrom(trx, { since: 1 }));
    expect(inTransaction.rows).toEqual(teams.slice(1));
    // SQL of no compiled query runs unnamed, as before.
    await db.kysely.selectFrom('operations_teams').select('id').where('name', '=', 'a').execute();
    const statements = await prepared('operations_teams');
    // One statement, parsed once and executed four times.
    expect(statements).toEqual([
      {
        name: expect.stringMatching(/^q_[0-9a-f]{40}$/),
        statement:
          'select "name", "created_at" from "operations_teams" where "created_at" >= $1 order by "name"',
        executions: 4,
      },
    ]);
    expect(statementName(statements[0]!.statement)).toBe(statements[0]!.name);
  });

  it('prepares an insert once for each number of rows', async () => {
    const one = await teamInsert(db.kysely, [{ name: 'i-1', created_at: 10 }]);
    await teamInsert(db.kysely, [{ name: 'i-2', created_at: 10 }]);
    const two = await teamInsert(db.kysely, [
      { name: 'i-3', created_at: 10 },
      { name: 'i-4', created_at: 10 },
    ]);
    expect([one.rows, two.rows]).toEqual([[{ name: 'i-1' }], [{ name: 'i-3' }, { name: 'i-4' }]]);
    const inserts = (await prepared('operations_teams')).filter((s) =>
      s.statement.startsWith('insert'),
    );
    expect(inserts.map((s) => s.executions)).toEqual([2, 1]);
  });

  it('keeps no statement for an insert of many rows, and still inserts them', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ name: `many-${i}`, created_at: 20 }));
    const before = await prepared('operations_teams');
    const inserted = await teamInsert(db.kysely, rows);
    expect(inserted.rows).toEqual(rows.map(({ name }) => ({ name })));
    expect(await prepared('operations_teams')).toEqual(before);
  });

  it('prepares a statement again when a schema change alters its result columns', async () => {
    expect((await teamNamed(db.kysely, { name: 'a' })).rows).toEqual([
      { id: expect.any(Number), name: 'a', created_at: 0 },
    ]);
    await sql`alter table operations_teams add column colour text`.execute(db.kysely);
    // Outside a transaction the refused statement runs again, prepared anew, at once.
    expect((await teamNamed(db.kysely, { name: 'a' })).rows).toEqual([
      { id: expect.any(Number), name: 'a', created_at: 0, colour: null },
    ]);
    await sql`alter table operations_teams add column size int`.execute(db.kysely);
    // Inside one the transaction has failed; the next use prepares anew.
    await expect(
      db.kysely.transaction().execute((trx) => teamNamed(trx, { name: 'a' })),
    ).rejects.toMatchObject({ code: '0A000' });
    expect((await teamNamed(db.kysely, { name: 'a' })).rows).toEqual([
      { id: expect.any(Number), name: 'a', created_at: 0, colour: null, size: null },
    ]);
  });

  it('prepares a statement again after a value failed to serialize', async () => {
    expect((await teamNamed(db.kysely, { name: 'b' })).rows).toHaveLength(1);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(teamNamed(db.kysely, { name: circular as never })).rejects.toThrow(/circular/);
    expect((await teamNamed(db.kysely, { name: 'b' })).rows).toHaveLength(1);
  });
});
