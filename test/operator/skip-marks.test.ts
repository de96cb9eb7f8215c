import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { OperatorError } from '../../src/operator/operator-error.js';
import {
  addSkipMark,
  listSkipMarks,
  removeSkipMark,
} from '../../src/operator/skip-marks.service.js';
import { addSupplier } from '../../src/operator/suppliers.service.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

await describeEachDialect('operator: skip marks', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
    await addSupplier(db, 'S1');
    await addSupplier(db, 'S2');
  });
  afterAll(() => destroy());

  const marks = () => db.kysely.selectFrom('skip_marks').selectAll().execute();

  describe('add', () => {
    it('marks an account, with or without a reason', async () => {
      const mark = await addSkipMark(db, 'S1', ' A-100 ', '  duplicate in old system ');
      expect(mark).toMatchObject({
        supplier: 'S1',
        externalAccountNumber: 'A-100',
        reason: 'duplicate in old system',
      });
      expect((await addSkipMark(db, 'S2', 'A-100', '  ')).reason).toBeNull();
      expect(await marks()).toHaveLength(2);
    });

    it('refuses to mark the same account twice', async () => {
      await expect(addSkipMark(db, 'S1', 'A-100')).rejects.toThrow(OperatorError);
      await expect(addSkipMark(db, 'S1', 'A-100')).rejects.toThrow(
        'account "A-100" of import supplier "S1" is already marked to be skipped',
      );
    });

    it('refuses an unknown supplier', () =>
      expect(addSkipMark(db, 'NOPE', 'A-1')).rejects.toThrow(
        'import supplier "NOPE" does not exist',
      ));

    it.each(['', 'a b', 'a/b', 'a?b', 'a%b', 'x'.repeat(129)])(
      'refuses the external account number %j',
      (number) =>
        expect(addSkipMark(db, 'S1', number)).rejects.toThrow(/invalid external account number/),
    );

    it('refuses an account that was already imported', async () => {
      const supplier = await db.kysely
        .selectFrom('import_suppliers')
        .select('id')
        .where('code', '=', 'S1')
        .executeTakeFirstOrThrow();
      await db.kysely
        .insertInto('import_processes')
        .values({
          supplier_id: Number(supplier.id),
          external_account_number: 'DONE-1',
          state: 'completed',
          version: 1,
          first_staged_at: 1,
          last_staged_at: 1,
          service_account_number: 'A-0000ABCD',
          account_created_at: 2,
        })
        .execute();
      await expect(addSkipMark(db, 'S1', 'DONE-1')).rejects.toThrow(
        /already imported as A-0000ABCD/,
      );
    });
  });

  it('lists marks of one supplier or of all', async () => {
    expect((await listSkipMarks(db, 'S2')).map((m) => m.supplier)).toEqual(['S2']);
    expect((await listSkipMarks(db)).map((m) => m.supplier)).toEqual(['S1', 'S2']);
    await expect(listSkipMarks(db, 'NOPE')).rejects.toThrow(/does not exist/);
  });

  describe('remove', () => {
    it('removes a mark and returns what it held', async () => {
      const removed = await removeSkipMark(db, 'S1', 'A-100');
      expect(removed).toMatchObject({ supplier: 'S1', reason: 'duplicate in old system' });
      expect((await marks()).map((m) => m.external_account_number)).toEqual(['A-100']);
    });

    it('refuses to remove a mark that does not exist', async () => {
      await expect(removeSkipMark(db, 'S1', 'A-100')).rejects.toThrow(
        'account "A-100" of import supplier "S1" is not marked to be skipped',
      );
    });

    it('refuses an unknown supplier', () =>
      expect(removeSkipMark(db, 'NOPE', 'A-100')).rejects.toThrow(/does not exist/));
  });
});
