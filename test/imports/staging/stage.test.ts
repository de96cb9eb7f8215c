import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/databases.js';
import {
  PATHS,
  updateSupplier,
  createTestService,
  useTestService,
  markSkipped,
  expectAlreadyImported,
  rowCounts,
  processDemoAccount,
  type TestService,
} from '../../helpers/app.js';
import { buildAccount, buildCustomer } from '../../account/factory.js';

await describeEachDialect('validate and stage', (dialect) => {
  const service = useTestService(dialect);

  const stage = (payload: unknown) =>
    service.request({ method: 'POST', url: PATHS.stage, payload: payload as object });

  /** The data of the account's current version, as a service stored it. */
  const storedData = async (on: TestService, external: string) =>
    (
      await on.db.kysely
        .selectFrom('import_processes as p')
        .innerJoin('import_process_versions as v', (join) =>
          join.onRef('v.process_id', '=', 'p.id').onRef('v.version', '=', 'p.version'),
        )
        .select('v.data')
        .where('p.external_account_number', '=', external)
        .executeTakeFirstOrThrow()
    ).data;

  describe('validate-account', () => {
    it('returns the normalised data and stores nothing', async () => {
      const before = await rowCounts(service.db);
      const response = await service.request({
        method: 'POST',
        url: PATHS.validate,
        payload: buildAccount({ external_account_number: 'V-1' }),
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.external_account_number).toBe('V-1');
      expect(body.account_type).toBe('DOMESTIC');
      expect(body.customers[0].mobile).toMatch(/^\+44\d+$/);
      expect(await rowCounts(service.db)).toEqual(before);
    });

    it('lists every error with code and dot-path attr', async () => {
      const payload = buildAccount();
      const customers = payload.customers as Record<string, unknown>[];
      (customers[0] as Record<string, unknown>).landline = '12';
      payload.surprise = true;
      const response = await service.request({ method: 'POST', url: PATHS.validate, payload });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('account_failed_validation');
      expect(typeof body.detail).toBe('string');
      expect(body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: 'invalid_phone_number', attr: 'customers.0.landline' }),
          expect.objectContaining({ code: 'unknown_field', attr: 'surprise' }),
        ]),
      );
    });

    it('reports a supplier of another organisation as not found', async () => {
      const response = await service.request({
        method: 'POST',
        url: PATHS.validate,
        payload: buildAccount({ import_supplier: 'OTHER' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual(
        expect.objectContaining({ code: 'import_supplier_not_found', attr: 'import_supplier' }),
      );
    });
  });

  describe('create-or-update', () => {
    const stagedAs = (external: string) => ({
      import_supplier: 'DEMO',
      import_supplier_code: 'DEMO',
      external_account_number: external,
    });

    it('answers 201 first, 200 on re-stage, and keeps every version', async () => {
      const first = await stage(buildAccount({ external_account_number: 'S-1' }));
      expect(first.statusCode).toBe(201);
      expect(first.json()).toEqual(stagedAs('S-1'));
      const second = await stage(
        buildAccount({ external_account_number: 'S-1', billing_name: 'New Name' }),
      );
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual(stagedAs('S-1'));
      const process = await service.db.kysely
        .selectFrom('import_processes')
        .selectAll()
        .where('external_account_number', '=', 'S-1')
        .executeTakeFirstOrThrow();
      expect(process.version).toBe(2);
      const versions = await service.db.kysely
        .selectFrom('import_process_versions')
        .select(['version', 'data', 'organisation_id', 'staged_at'])
        .where('process_id', '=', process.id)
        .orderBy('version')
        .execute();
      expect(versions.map((v) => v.version)).toEqual([1, 2]);
      expect(JSON.parse(versions[1]?.data ?? '{}').billing_name).toBe('New Name');
      expect(
        versions.every((v) => v.organisation_id === service.organisationId && v.staged_at > 0),
      ).toBe(true);
    });

    it('refuses an invalid payload and changes nothing', async () => {
      await stage(buildAccount({ external_account_number: 'S-2', billing_name: 'Kept' }));
      const before = await rowCounts(service.db);
      const response = await stage(
        buildAccount({ external_account_number: 'S-2', billing_email: 'not-an-email' }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('account_failed_validation');
      expect(await rowCounts(service.db)).toEqual(before);
      expect(JSON.parse(await storedData(service, 'S-2')).billing_name).toBe('Kept');
    });

    it('refuses a supplier that is not Ongoing', async () => {
      for (const status of ['Paused', 'Complete'] as const) {
        await updateSupplier(service, 'DEMO', { status });
        const response = await stage(buildAccount({ external_account_number: `S-3-${status}` }));
        expect(response.statusCode).toBe(400);
        expect(response.json().code).toBe('import_supplier_migration_not_ongoing');
      }
      await updateSupplier(service, 'DEMO', { status: 'Ongoing' });
    });

    it('refuses an account marked to be skipped', async () => {
      await markSkipped(service, 'S-4', 'closed');
      const response = await stage(buildAccount({ external_account_number: 'S-4' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('account_import_process_skipped');
    });

    it('refuses an account that was already imported, with its numbers', async () => {
      expect((await stage(buildAccount({ external_account_number: 'S-5' }))).statusCode).toBe(201);
      const created = await processDemoAccount(service, 'S-5');
      expect(created.statusCode).toBe(201);
      const number = created.json().service_account_number;
      const response = await stage(buildAccount({ external_account_number: 'S-5' }));
      expectAlreadyImported(response, 'S-5', number);
    });

    it('answers the mark or the import, not the data, for a skipped or imported account', async () => {
      // An account is marked to be skipped most often because its data is bad.
      const bad = { customers: [buildCustomer({ email: 'not-an-email' })] };
      await markSkipped(service, 'S-6', 'bad data');
      const marked = await stage(buildAccount({ external_account_number: 'S-6', ...bad }));
      expect([marked.statusCode, marked.json().code]).toEqual([
        400,
        'account_import_process_skipped',
      ]);
      expect((await stage(buildAccount({ external_account_number: 'S-7' }))).statusCode).toBe(201);
      const number = (await processDemoAccount(service, 'S-7')).json().service_account_number;
      const imported = await stage(buildAccount({ external_account_number: 'S-7', ...bad }));
      expectAlreadyImported(imported, 'S-7', number);
      // Any other account still hears what is wrong with its data.
      const other = await stage(buildAccount({ external_account_number: 'S-8', ...bad }));
      expect(other.json().code).toBe('account_failed_validation');
    });

    it('gives one 201 and otherwise 200 when the first stage races', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () => stage(buildAccount({ external_account_number: 'S-RACE' }))),
      );
      const codes = statuses.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      const versions = await service.db.kysely
        .selectFrom('import_process_versions as v')
        .innerJoin('import_processes as p', 'p.id', 'v.process_id')
        .select('v.version')
        .where('p.external_account_number', '=', 'S-RACE')
        .orderBy('v.version')
        .execute();
      expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });
  });

  describe('where payloads are checked', () => {
    let onTheLoop: TestService;
    beforeAll(async () => {
      onTheLoop = await createTestService(dialect, { VALIDATION_THREADS: '0' });
    });
    afterAll(() => onTheLoop.destroy());

    it('stores the same data and answers alike on a thread and on the event loop', async () => {
      const payload = buildAccount({
        external_account_number: '  S-WHERE ',
        billing_name: ' Ada ',
      });
      const confirmedBefore = service.app.validationThreads.confirmed;
      for (const on of [service, onTheLoop]) {
        const send = () => on.request({ method: 'POST', url: PATHS.stage, payload });
        expect((await send()).statusCode).toBe(201);
        expect((await send()).statusCode).toBe(200);
        const invalid = await on.request({
          method: 'POST',
          url: PATHS.stage,
          payload: { ...payload, customers: [buildCustomer({ landline: '12' })] },
        });
        expect(invalid.statusCode).toBe(400);
        expect(invalid.json().errors).toEqual([
          expect.objectContaining({ code: 'invalid_phone_number', attr: 'customers.0.landline' }),
        ]);
      }
      const data = await storedData(service, 'S-WHERE');
      expect(JSON.parse(data)).toMatchObject({
        external_account_number: 'S-WHERE',
        billing_name: 'Ada',
      });
      expect(await storedData(onTheLoop, 'S-WHERE')).toBe(data);
      // A thread confirmed the first service's two valid stages; none ran for the second's.
      expect(service.app.validationThreads.confirmed - confirmedBefore).toBe(2);
      expect(onTheLoop.app.validationThreads.confirmed).toBe(0);
    });

    it('stages a body whose text has the escape \\u0000 in a string, which is no U+0000', async () => {
      const value = 'C:\\u0000\\legacy';
      const payload = buildAccount({
        external_account_number: 'S-ESCAPED',
        metadata: [{ key: 'path', value }],
      });
      expect(JSON.stringify(payload)).toContain('\\\\u0000');
      const response = await stage(payload);
      expect(response.statusCode).toBe(201);
      expect(JSON.parse(await storedData(service, 'S-ESCAPED')).metadata).toEqual([
        { key: 'path', value },
      ]);
    });

    it('reports U+0000 in a body among its other errors, and stores nothing', async () => {
      const account = buildAccount({
        external_account_number: 'S-NUL',
        billing_name: 'A\u0000B',
        date_of_sale: '2999-01-01',
        metadata: [{ key: 'k', value: { 'odd\u0000key': 1 } }],
      });
      // An unknown key holding it is reported once, as unknown.
      const withKey = JSON.stringify({ ...account, 'zz\u0000': 1 });
      for (const path of [PATHS.stage, PATHS.validate]) {
        const response = await service.request({
          method: 'POST',
          url: path,
          payload: withKey,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.statusCode).toBe(400);
        const body = response.json();
        expect(body.code).toBe('account_failed_validation');
        expect(body.errors.map((e: { code: string; attr: string }) => [e.code, e.attr])).toEqual([
          ['date_in_future', 'date_of_sale'],
          ['unknown_field', 'zz\u0000'],
          ['invalid_character', 'billing_name'],
          ['invalid_character', 'metadata.0.value.odd\u0000key'],
        ]);
      }
      const status = await service.request({
        method: 'GET',
        url: PATHS.status('DEMO', 'S-NUL'),
      });
      expect(status.statusCode).toBe(404);
    });
  });
});
