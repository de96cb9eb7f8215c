import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  compiledArrayQuery,
  compiledInsert,
  compiledQuery,
  type Params,
} from '../../src/db/compiled.js';
import { transaction } from '../../src/db/direct-execution.js';
import type { Database, Db } from '../../src/db/database.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { gate } from '../helpers/gate.js';

const teamsNamed = compiledQuery((db, p: Params<{ first: string; second: string }>) =>
  db
    .selectFrom('operations_teams')
    .select('name')
    .where((eb) =>
      eb.or([eb('name', '=', p.first), eb('name', '=', p.second), eb('name', '=', p.first)]),
    )
    .where('created_at', '>=', 0)
    .orderBy('name'),
);

const teamsAsArrays = compiledArrayQuery<{ upTo: number }, [string, number]>((db, { upTo }) =>
  db
    .selectFrom('operations_teams')
    .select(['name', 'created_at'])
    .where('created_at', '<=', upTo)
    .orderBy('created_at')
    .orderBy('name'),
);

const teamCount = compiledQuery((db) =>
  db.selectFrom('operations_teams').select((eb) => eb.fn.countAll<number>().as('n')),
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
    const named = async (first: string, second: string) =>
      (await teamsNamed(db.kysely, { first, second })).rows;
    expect(await named('a', 'c')).toEqual([{ name: 'a' }, { name: 'c' }]);
    expect(await named('b', 'x')).toEqual([{ name: 'b' }]);
    const inTransaction = await db.kysely
      .transaction()
      .execute(async (trx) => (await teamsNamed(trx, { second: 'b', first: 'c' })).rows);
    expect(inTransaction).toEqual([{ name: 'b' }, { name: 'c' }]);
  });

  it('binds any value as it is, even one that looks like a stand-in', async () => {
    const lookalikes = ['[object Object]', 'first', '$1', '?'];
    for (const first of lookalikes) {
      expect((await teamsNamed(db.kysely, { first, second: 'b' })).rows).toEqual([{ name: 'b' }]);
    }
  });

  it('runs a query without parameters', async () => {
    expect(Number((await teamCount(db.kysely)).rows[0]?.n)).toBeGreaterThanOrEqual(3);
  });

  it('returns the rows of an array query as arrays, in and out of a transaction', async () => {
    const expected = [
      ['a', 1],
      ['b', 1],
      ['c', 1],
    ];
    expect((await teamsAsArrays(db.kysely, { upTo: 1 })).rows).toEqual(expected);
    const inTransaction = await transaction(db.kysely, async (trx) => {
      await teamInsert(trx, [{ name: 'array-0', created_at: 0 }]);
      return (await teamsAsArrays(trx, { upTo: 1 })).rows;
    });
    expect(inTransaction).toEqual([['array-0', 0], ...expected]);
  });

  it('refuses to compile one SQL text for both row shapes', async () => {
    const build = (kysely: Kysely<Database>, { name }: Params<{ name: string }>) =>
      kysely
        .selectFrom('operations_teams')
        .select('id')
        .where('name', '=', name)
        .where('id', '<', -7);
    await compiledQuery(build)(db.kysely, { name: 'a' });
    await expect(
      compiledArrayQuery<{ name: string }, [number]>(build)(db.kysely, { name: 'a' }),
    ).rejects.toThrow(/both row shapes/);
  });

  it('refuses a builder that uses a parameter other than as a value', async () => {
    const shaped = compiledQuery((kysely, p: Params<{ name: string; prefix: string }>) =>
      kysely
        .selectFrom('operations_teams')
        .select('name')
        .where('name', '=', p.name)
        .where('name', 'like', `${p.prefix}%`),
    );
    await expect(shaped(db.kysely, { name: 'a', prefix: 'a' })).rejects.toThrow(
      /prefix not used as a query parameter/,
    );
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
      expect((await teamsNamed(trx, { first: 'uncommitted', second: 'x' })).rows).toEqual([
        { name: 'uncommitted' },
      ]);
      inside.open();
      await released.opened;
      throw new Error('roll back');
    });
    await inside.opened;
    // Issued while the transaction is open; on SQLite they share its connection.
    const inserted = teamInsert(db.kysely, [{ name: 'beside', created_at: 2 }]);
    const seen = teamsNamed(db.kysely, { first: 'uncommitted', second: 'beside' });
    released.open();
    await expect(rolledBack).rejects.toThrow('roll back');
    expect((await inserted).rows).toEqual([{ id: expect.any(Number), name: 'beside' }]);
    expect((await seen).rows.map((row) => row.name)).not.toContain('uncommitted');
    // The insert was not rolled back with the transaction.
    expect((await teamsNamed(db.kysely, { first: 'uncommitted', second: 'beside' })).rows).toEqual([
      { name: 'beside' },
    ]);
  });
});
