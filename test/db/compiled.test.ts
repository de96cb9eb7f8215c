import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  compiledArrayQuery,
  compiledInsert,
  compiledQuery,
  transaction,
} from '../../src/db/compiled.js';
import type { Database, Db } from '../../src/db/database.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { gate } from '../helpers/gate.js';

const teamsNamed = compiledQuery(2, (db, first: string, second: string) =>
  db
    .selectFrom('operations_teams')
    .select('name')
    .where((eb) => eb.or([eb('name', '=', first), eb('name', '=', second), eb('name', '=', first)]))
    .where('created_at', '>=', 0)
    .orderBy('name'),
);

const teamsAsArrays = compiledArrayQuery<[number], [string, number]>(1, (db, upTo) =>
  db
    .selectFrom('operations_teams')
    .select(['name', 'created_at'])
    .where('created_at', '<=', upTo)
    .orderBy('created_at')
    .orderBy('name'),
);

const teamInsert = compiledInsert('operations_teams', ['name', 'created_at'], ['id', 'name']);

await describeEachDialect('compiled queries', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
    await db.kysely
      .insertInto('operations_teams')
      .values(['a', 'b', 'c'].map((name) => ({ name, created_at: 1 })))
      .execute();
  });
  afterAll(() => destroy());

  it("runs with each call's arguments, also inside a transaction, keeping constants", async () => {
    expect((await teamsNamed(db.kysely, 'a', 'c')).rows).toEqual([{ name: 'a' }, { name: 'c' }]);
    expect((await teamsNamed(db.kysely, 'b', 'x')).rows).toEqual([{ name: 'b' }]);
    const inTransaction = await db.kysely
      .transaction()
      .execute(async (trx) => (await teamsNamed(trx, 'c', 'b')).rows);
    expect(inTransaction).toEqual([{ name: 'b' }, { name: 'c' }]);
  });

  it('returns the rows of an array query as arrays, in and out of a transaction', async () => {
    const expected = [
      ['a', 1],
      ['b', 1],
      ['c', 1],
    ];
    expect((await teamsAsArrays(db.kysely, 1)).rows).toEqual(expected);
    const inTransaction = await transaction(db.kysely, async (trx) => {
      await teamInsert(trx, [{ name: 'array-0', created_at: 0 }]);
      return (await teamsAsArrays(trx, 1)).rows;
    });
    expect(inTransaction).toEqual([['array-0', 0], ...expected]);
  });

  it('refuses to compile one SQL text for both row shapes', async () => {
    const build = (kysely: Kysely<Database>, name: string) =>
      kysely
        .selectFrom('operations_teams')
        .select('id')
        .where('name', '=', name)
        .where('id', '<', -7);
    await compiledQuery(1, build)(db.kysely, 'a');
    await expect(compiledArrayQuery(1, build)(db.kysely, 'a')).rejects.toThrow(/both row shapes/);
  });

  it('refuses a builder that does not use every argument as a value', async () => {
    const unused = compiledQuery(2, (kysely, name: string, _ignored: string) =>
      kysely.selectFrom('operations_teams').select('name').where('name', '=', name),
    );
    await expect(unused(db.kysely, 'a', 'b')).rejects.toThrow(/not used as a query parameter/);
  });

  it('inserts any number of rows with their own values, reusing each shape', async () => {
    const names = async () =>
      (await db.kysely.selectFrom('operations_teams').select(['name', 'created_at']).execute())
        .filter((row) => row.name.startsWith('i-'))
        .sort((x, y) => x.name.localeCompare(y.name));
    const three = await teamInsert(db.kysely, [
      { name: 'i-1', created_at: 10 },
      { name: 'i-2', created_at: 20 },
      { name: 'i-3', created_at: 30 },
    ]);
    expect(three.rows.map((row) => row.name)).toEqual(['i-1', 'i-2', 'i-3']);
    const one = await teamInsert(db.kysely, [{ name: 'i-4', created_at: 40 }]);
    expect(one.rows).toEqual([{ id: expect.any(Number), name: 'i-4' }]);
    // The three-row shape again, with other values and inside a transaction.
    await db.kysely.transaction().execute(async (trx) =>
      teamInsert(trx, [
        { name: 'i-5', created_at: 50 },
        { name: 'i-6', created_at: 60 },
        { name: 'i-7', created_at: 70 },
      ]),
    );
    expect(await names()).toEqual(
      [10, 20, 30, 40, 50, 60, 70].map((created_at, i) => ({ name: `i-${i + 1}`, created_at })),
    );
  });
});

await describeEachDialect('compiled queries beside a transaction', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  it('run inside their own transaction, and neither see nor join one open elsewhere', async () => {
    const inside = gate();
    const released = gate();
    const rolledBack = transaction(db.kysely, async (trx) => {
      await teamInsert(trx, [{ name: 'uncommitted', created_at: 1 }]);
      expect((await teamsNamed(trx, 'uncommitted', 'x')).rows).toEqual([{ name: 'uncommitted' }]);
      inside.open();
      await released.opened;
      throw new Error('roll back');
    });
    await inside.opened;
    // Issued while the transaction is open; on SQLite they share its connection.
    const inserted = teamInsert(db.kysely, [{ name: 'beside', created_at: 2 }]);
    const seen = teamsNamed(db.kysely, 'uncommitted', 'beside');
    released.open();
    await expect(rolledBack).rejects.toThrow('roll back');
    expect((await inserted).rows).toEqual([{ id: expect.any(Number), name: 'beside' }]);
    expect((await seen).rows.map((row) => row.name)).not.toContain('uncommitted');
    // The insert was not rolled back with the transaction.
    expect((await teamsNamed(db.kysely, 'uncommitted', 'beside')).rows).toEqual([
      { name: 'beside' },
    ]);
  });
});
