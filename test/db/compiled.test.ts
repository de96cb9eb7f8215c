import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiledQuery } from '../../src/db/compiled.js';
import type { Db } from '../../src/db/database.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const teamsNamed = compiledQuery(2, (db, first: string, second: string) =>
  db
    .selectFrom('operations_teams')
    .select('name')
    .where((eb) => eb.or([eb('name', '=', first), eb('name', '=', second), eb('name', '=', first)]))
    .where('created_at', '>=', 0)
    .orderBy('name'),
);

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

  it('refuses a builder that does not use every argument as a value', async () => {
    const unused = compiledQuery(2, (kysely, name: string, _ignored: string) =>
      kysely.selectFrom('operations_teams').select('name').where('name', '=', name),
    );
    await expect(unused(db.kysely, 'a', 'b')).rejects.toThrow(/not used as a query parameter/);
  });
});
