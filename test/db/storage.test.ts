/** Each dialect's storage strategy (src/db/storage.ts), on the real engines. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { storageOf } from '../../src/db/dialects.js';
import { atomicWrite, type UniqueConstraint } from '../../src/db/storage.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const TEAM_NAME: UniqueConstraint = {
  name: 'operations_teams_name_key',
  table: 'operations_teams',
  columns: ['name'],
};

const PROCESS_OF_ACCOUNT: UniqueConstraint = {
  name: 'import_processes_supplier_external_uq',
  table: 'import_processes',
  columns: ['supplier_id', 'external_account_number'],
};

/** The error `work` rejects with; fails the test when it succeeds. */
async function failure(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => expect.fail('expected an error'),
    (error: unknown) => error,
  );
}

await describeEachDialect('storage strategy', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  const team = (name: string) =>
    db.kysely.insertInto('operations_teams').values({ name, created_at: 1 }).execute();

  it('is the one the database was opened with, for the database and its transactions', async () => {
    expect(db.storage.pick({ sqlite: 'sqlite', postgres: 'postgres' })).toBe(dialect);
    expect(storageOf(db.kysely)).toBe(db.storage);
    await db.kysely.transaction().execute(async (trx) => {
      expect(storageOf(trx)).toBe(db.storage);
    });
  });

  it('tells which unique constraint a write violated', async () => {
    await team('unique-a');
    const duplicateTeam = await failure(() => team('unique-a'));
    expect(db.storage.isUniqueViolation(duplicateTeam, TEAM_NAME)).toBe(true);
    expect(db.storage.isUniqueViolation(duplicateTeam, PROCESS_OF_ACCOUNT)).toBe(false);

    const supplier = await db.kysely
      .insertInto('import_suppliers')
      .values({
        code: 'UNIQ',
        status: 'Ongoing',
        document_root: 'r',
        customer_emails: 0,
        phone_region: 'GB',
        created_at: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const process = () =>
      db.kysely
        .insertInto('import_processes')
        .values({
          supplier_id: supplier.id,
          external_account_number: 'E-1',
          state: 'pending',
          version: 1,
          first_staged_at: 1,
          last_staged_at: 1,
        })
        .execute();
    await process();
    const duplicateProcess = await failure(process);
    expect(db.storage.isUniqueViolation(duplicateProcess, PROCESS_OF_ACCOUNT)).toBe(true);
    const oneColumn = { ...PROCESS_OF_ACCOUNT, name: 'other', columns: ['supplier_id'] };
    expect(db.storage.isUniqueViolation(duplicateProcess, oneColumn)).toBe(false);
    expect(db.storage.isUniqueViolation(new Error('unique'), TEAM_NAME)).toBe(false);
  });

  it("takes its own engine's refusals for unavailability, and not the other's", () => {
    const own = dialect === 'sqlite' ? 'SQLITE_BUSY' : '57P01';
    const other = dialect === 'sqlite' ? '57P01' : 'SQLITE_BUSY';
    expect(db.storage.isUnavailable({ code: own })).toBe(true);
    expect(db.storage.isUnavailable({ code: other })).toBe(false);
    expect(db.storage.isUnavailable({ code: 'ECONNRESET' })).toBe(true);
  });

  it('writes atomically: a write that fails leaves nothing', async () => {
    const thrown = await failure(() =>
      atomicWrite(db, async (executor) => {
        await executor
          .insertInto('operations_teams')
          .values({ name: 'atomic', created_at: 1 })
          .execute();
        throw new Error('undo');
      }),
    );
    expect(thrown).toEqual(new Error('undo'));
    const left = await db.kysely
      .selectFrom('operations_teams')
      .select('id')
      .where('name', '=', 'atomic')
      .execute();
    expect(left).toEqual([]);
  });

  it('runs exclusive writes one after the other', async () => {
    const order: string[] = [];
    const write = (name: string) =>
      db.storage.exclusiveWrite(db.kysely, 42, async (executor) => {
        order.push(`${name} begins`);
        await executor
          .insertInto('operations_teams')
          .values({ name: `exclusive-${name}`, created_at: 1 })
          .execute();
        order.push(`${name} ends`);
      });
    await Promise.all([write('a'), write('b')]);
    const [first, second] = order[0]?.startsWith('a') ? ['a', 'b'] : ['b', 'a'];
    expect(order).toEqual([
      `${first} begins`,
      `${first} ends`,
      `${second} begins`,
      `${second} ends`,
    ]);
  });
});
