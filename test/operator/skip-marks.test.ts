import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { OperatorError } from '../../src/shared/operator-error.js';
import {
  addSkipMark,
  listSkipMarks,
  removeSkipMark,
} from '../../src/operator/skip-marks.service.js';
import { addSupplier } from '../../src/operator/suppliers.service.js';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { LOCK_WAITS_QUERY, until } from '../helpers/until.js';

/** How many sessions of the database wait for a lock now (PostgreSQL). */
async function lockWaits(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`${sql.raw(LOCK_WAITS_QUERY)}`.execute(db.kysely);
  return rows[0]?.n ?? 0;
}

await describeEachDialect('operator: skip marks', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    ({ db, url, destroy } = await openTestDb(dialect));
    await addSupplier(db, 'S1');
    await addSupplier(db, 'S2');
  });
  afterAll(() => destroy());

  const marks = () => db.kysely.selectFrom('skip_marks').selectAll().execute();
  const supplierIdOf = async (code: string) =>
    Number(
      (
        await db.kysely
          .selectFrom('import_suppliers')
          .select('id')
          .where('code', '=', code)
          .executeTakeFirstOrThrow()
      ).id,
    );

  describe('add', () => {
    it('marks an account, with or without a reason', async () => {
      const mark = await addSkipMark(db, 'S1', ' A-100 ', '  duplicate in old system ');
      expect(mark).toMatchObject({
        supplier: 'S1',
        externalAccountNumber: 'A-100',
        reason: 'duplicate in old system',
      });
      expect((await addSkipMark(db, 'S2', 'A-100', '  ')).reason).toBeNull();
      for (const reason of ['two\nlines', 'right\u202Eto left', 'isolated\u2066text']) {
        await expect(addSkipMark(db, 'S2', 'A-101', reason)).rejects.toThrow(
          'the reason holds a control or bidirectional formatting character',
        );
      }
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

    it.each(['', 'a b', 'a/b', 'a?b', 'a%b', 'a\u0007b', 'x'.repeat(129), '.', '..'])(
      'refuses the external account number %j',
      (number) =>
        expect(addSkipMark(db, 'S1', number)).rejects.toThrow(/invalid external account number/),
    );

    it('refuses an account that was already imported', async () => {
      await db.kysely
        .insertInto('import_processes')
        .values({
          supplier_id: await supplierIdOf('S1'),
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

    it('refuses an account a live claim holds, and marks one whose claim lapsed', async () => {
      const supplierId = await supplierIdOf('S1');
      const claimed = (external: string, leaseUntil: number) => ({
        supplier_id: supplierId,
        external_account_number: external,
        state: 'in_progress' as const,
        version: 1,
        first_staged_at: 1,
        last_staged_at: 1,
        claim_id: `claim-${external}`,
        lease_until: leaseUntil,
      });
      const leaseUntil = Date.UTC(2099, 0, 2, 3, 4, 5);
      await db.kysely
        .insertInto('import_processes')
        .values([claimed('HELD-1', leaseUntil), claimed('LAPSED-1', Date.now() - 1)])
        .execute();
      await expect(addSkipMark(db, 'S1', 'HELD-1')).rejects.toThrow(
        'account "HELD-1" of import supplier "S1" is being imported right now; run the command ' +
          'again once that ends (its claim lapses at 2099-01-02T03:04:05Z at the latest)',
      );
      // A claim whose lease ran out holds nothing (DESIGN.md): its holder died.
      expect((await addSkipMark(db, 'S1', 'LAPSED-1')).externalAccountNumber).toBe('LAPSED-1');
      const held = await marks();
      expect(held.map((m) => m.external_account_number)).not.toContain('HELD-1');
      expect(held.map((m) => m.external_account_number)).toContain('LAPSED-1');
      await removeSkipMark(db, 'S1', 'LAPSED-1');
    });

    it('refuses an account whose creation commits while the mark is being added', async () => {
      const supplierId = await supplierIdOf('S1');
      await db.kysely
        .insertInto('import_processes')
        .values({
          supplier_id: supplierId,
          external_account_number: 'RACE-1',
          state: 'pending',
          version: 1,
          first_staged_at: 1,
          last_staged_at: 1,
        })
        .execute();
      // Another instance completes the process, and holds its transaction open.
      const other = connect(url);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let completing!: () => void;
      const completed = new Promise<void>((resolve) => (completing = resolve));
      const creation = other.kysely.transaction().execute(async (trx) => {
        await trx
          .updateTable('import_processes')
          .set({ state: 'completed', service_account_number: 'A-0000RACE', account_created_at: 2 })
          .where('supplier_id', '=', supplierId)
          .where('external_account_number', '=', 'RACE-1')
          .execute();
        completing();
        await released;
      });
      try {
        await completed;
        let settled = false;
        const marking = addSkipMark(db, 'S1', 'RACE-1').finally(() => (settled = true));
        marking.catch(() => undefined);
        if (dialect === 'postgres') {
          // The mark waits on the process row the creation holds (or, unfenced, is done).
          await until(async () => settled || (await lockWaits(other)) > 0);
        } else {
          // A few turns of the event loop: time for the mark to read (or to want the lock).
          for (let turn = 0; turn < 5; turn++) await new Promise(setImmediate);
        }
        release();
        await creation;
        await expect(marking).rejects.toThrow(/already imported as A-0000RACE/);
        expect(
          await db.kysely
            .selectFrom('skip_marks')
            .select('external_account_number')
            .where('external_account_number', '=', 'RACE-1')
            .execute(),
        ).toEqual([]);
      } finally {
        release();
        await creation.catch(() => undefined);
        await other.close();
      }
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
