import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { OperatorError } from '../../src/shared/operator-error.js';
import { addSupplier, listSuppliers, setSupplier } from '../../src/operator/suppliers.service.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

await describeEachDialect('operator: import suppliers', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  const row = (code: string) =>
    db.kysely
      .selectFrom('import_suppliers')
      .selectAll()
      .where('code', '=', code)
      .executeTakeFirstOrThrow();

  describe('add', () => {
    it('applies the defaults: Ongoing, no document root, no e-mails, region GB', async () => {
      const before = Date.now();
      const supplier = await addSupplier(db, 'PLAIN');
      expect(supplier).toMatchObject({
        code: 'PLAIN',
        status: 'Ongoing',
        documentRoot: '',
        customerEmails: false,
        phoneRegion: 'GB',
      });
      const stored = await row('PLAIN');
      expect(stored.customer_emails).toBe(0);
      expect(Number(stored.created_at)).toBeGreaterThanOrEqual(before);
    });

    it('normalises status case, the trailing slash and the region case', async () => {
      const supplier = await addSupplier(db, 'Acme_Energy-2', {
        status: 'pAUSED',
        documentRoot: '/docs/acme/',
        customerEmails: true,
        phoneRegion: 'ie',
      });
      expect(supplier).toMatchObject({
        status: 'Paused',
        documentRoot: '/docs/acme',
        customerEmails: true,
        phoneRegion: 'IE',
      });
      expect((await row('Acme_Energy-2')).customer_emails).toBe(1);
    });

    it('turns a bare "/" into the empty root', async () => {
      expect((await addSupplier(db, 'ROOT', { documentRoot: '/' })).documentRoot).toBe('');
    });

    it('refuses a duplicate code', async () => {
      await addSupplier(db, 'DUP');
      await expect(addSupplier(db, 'DUP')).rejects.toThrow(OperatorError);
      await expect(addSupplier(db, 'DUP')).rejects.toThrow('import supplier "DUP" already exists');
    });

    it.each(['', 'has space', 'a/b', 'x'.repeat(65), 'émile'])('refuses the code %j', (code) =>
      expect(addSupplier(db, code)).rejects.toThrow(/invalid supplier code/),
    );

    it('refuses an unknown status and stores nothing', async () => {
      await expect(addSupplier(db, 'BADSTATUS', { status: 'Done' })).rejects.toThrow(
        'unknown status "Done": use one of Ongoing, Paused, Complete',
      );
      expect((await listSuppliers(db)).map((s) => s.code)).not.toContain('BADSTATUS');
    });

    it.each(['docs', '/a//b', '/a/../b', '/a/./b', '/a b', '/a?b', '/a#b', '/a\\b', '//'])(
      'refuses the document root %j',
      (documentRoot) =>
        expect(addSupplier(db, 'BADROOT', { documentRoot })).rejects.toThrow(
          /invalid document root/,
        ),
    );

    it.each(['GBR', 'G', 'XX', '12'])('refuses the phone region %j', (phoneRegion) =>
      expect(addSupplier(db, 'BADREGION', { phoneRegion })).rejects.toThrow(/invalid phone region/),
    );
  });

  describe('set', () => {
    it('changes only the options given', async () => {
      await addSupplier(db, 'SETME', { documentRoot: '/keep', phoneRegion: 'FR' });
      const paused = await setSupplier(db, 'SETME', { status: 'complete' });
      expect(paused).toMatchObject({
        status: 'Complete',
        documentRoot: '/keep',
        customerEmails: false,
        phoneRegion: 'FR',
      });
      const emails = await setSupplier(db, 'SETME', { customerEmails: true, documentRoot: '' });
      expect(emails).toMatchObject({ status: 'Complete', documentRoot: '', customerEmails: true });
      const off = await setSupplier(db, 'SETME', { customerEmails: false });
      expect(off.customerEmails).toBe(false);
      expect((await row('SETME')).customer_emails).toBe(0);
    });

    it('refuses an unknown supplier', () =>
      expect(setSupplier(db, 'NOPE', { status: 'Paused' })).rejects.toThrow(
        'import supplier "NOPE" does not exist',
      ));

    it('refuses an unknown status and changes nothing', async () => {
      await addSupplier(db, 'STAY');
      await expect(setSupplier(db, 'STAY', { status: 'stopped' })).rejects.toThrow(
        /unknown status/,
      );
      expect((await row('STAY')).status).toBe('Ongoing');
    });

    it('refuses a call with nothing to change', () =>
      expect(setSupplier(db, 'STAY', {})).rejects.toThrow(/nothing to change/));
  });

  it('lists every supplier ordered by code', async () => {
    const codes = (await listSuppliers(db)).map((s) => s.code);
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['PLAIN', 'Acme_Energy-2', 'SETME', 'DUP']));
  });
});
