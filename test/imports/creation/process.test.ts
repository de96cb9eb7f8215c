import { beforeAll, expect, it } from 'vitest';
import { readAccount } from '../../../src/accounts/account-store.js';
import { describeEachDialect } from '../../helpers/databases.js';
import {
  PATHS,
  processDemoAccount,
  updateSupplier,
  useTestService,
  markSkipped,
  expectAlreadyImported,
  rowCounts,
} from '../../helpers/app.js';
import { buildAccount, buildCustomer } from '../../account/factory.js';
import { insertTeam } from '../../../src/operator/teams.repository.js';
import { setSupplier } from '../../../src/operator/suppliers.service.js';

await describeEachDialect('process', (dialect) => {
  const service = useTestService(dialect);
  beforeAll(async () => {
    await updateSupplier(service, 'DEMO', { customer_emails: 1, document_root: '/demo-root' });
  });

  const stage = async (payload: Record<string, unknown>) => {
    const response = await service.request({ method: 'POST', url: PATHS.stage, payload });
    expect(response.statusCode).toBeLessThan(300);
  };
  const processRequest = (external: string, extra: Record<string, unknown> = {}) =>
    processDemoAccount(service, external, extra);

  it('creates the whole account in one go and reports COMPLETED', async () => {
    await stage(
      buildAccount({
        external_account_number: 'P-1',
        customers: [
          buildCustomer({ email: 'ada@lovelace.co.uk' }),
          buildCustomer({ given_name: 'Bob', email: 'bob@builder.co.uk' }),
        ],
      }),
    );
    const response = await processRequest('P-1');
    expect(response.statusCode).toBe(201);
    const number: string = response.json().service_account_number;
    expect(number).toMatch(/^A-[0-9A-F]{8}$/);
    expect(response.json()).toEqual({
      service_account_number: number,
      external_account_number: 'P-1',
    });

    const account = await readAccount(service.db, number);
    expect(account?.externalAccountNumber).toBe('P-1');
    const customers = account?.payload.customers ?? [];
    expect(customers).toHaveLength(2);
    const accountId = account?.id ?? 0;
    const meterPointKeys = await service.db.kysely
      .selectFrom('account_keys')
      .select('value')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'meter_point')
      .orderBy('id')
      .execute();
    const identifiers = (account?.payload.supply_addresses ?? []).flatMap((a) =>
      (a.meter_points ?? []).map((p) => p.identifier),
    );
    expect(identifiers.length).toBeGreaterThan(0);
    expect(meterPointKeys.map((k) => k.value)).toEqual(identifiers);
    const documents = await service.db.kysely
      .selectFrom('account_documents')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) {
      expect(document.location).toBe(`account-documents/demo-root${document.path}`);
    }
    const emails = await service.db.kysely
      .selectFrom('email_outbox')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    expect(emails.map((e) => e.email).sort()).toEqual(['ada@lovelace.co.uk', 'bob@builder.co.uk']);
    for (const email of emails) {
      expect(customers[email.customer_position]?.email).toBe(email.email);
    }

    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'P-1') });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      import_supplier: 'DEMO',
      external_account_number: 'P-1',
      status: 'COMPLETED',
      service_account_number: number,
    });
  });

  it('queues no e-mail when the supplier has customer e-mails off', async () => {
    await updateSupplier(service, 'DEMO', { customer_emails: 0 });
    await stage(
      buildAccount({
        external_account_number: 'P-NOMAIL',
        customers: [buildCustomer({ email: 'eve@mail.co.uk' })],
      }),
    );
    const response = await processRequest('P-NOMAIL');
    expect(response.statusCode).toBe(201);
    const emails = await service.db.kysely
      .selectFrom('email_outbox')
      .where('email', '=', 'eve@mail.co.uk')
      .selectAll()
      .execute();
    expect(emails).toHaveLength(0);
    await updateSupplier(service, 'DEMO', { customer_emails: 1 });
  });

  it('refuses a second process of an imported account with both numbers', async () => {
    await stage(buildAccount({ external_account_number: 'P-2' }));
    const number = (await processRequest('P-2')).json().service_account_number;
    expectAlreadyImported(await processRequest('P-2'), 'P-2', number);
  });

  it('rolls a dry run back and leaves no trace', async () => {
    await stage(
      buildAccount({
        external_account_number: 'P-DRY',
        customers: [buildCustomer({ email: 'dry@run.co.uk' })],
      }),
    );
    const before = await rowCounts(service.db);
    const process = await service.db.kysely
      .selectFrom('import_processes')
      .selectAll()
      .where('external_account_number', '=', 'P-DRY')
      .executeTakeFirstOrThrow();
    const response = await processRequest('P-DRY', { dry_run: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('dry_run_rolled_back');
    expect(response.json().detail).toMatch(/would import successfully.*rolled back.*dry run/i);
    expect(await rowCounts(service.db)).toEqual(before);
    const after = await service.db.kysely
      .selectFrom('import_processes')
      .selectAll()
      .where('id', '=', process.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(process);
    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'P-DRY') });
    expect(status.json()).toEqual({
      import_supplier: 'DEMO',
      external_account_number: 'P-DRY',
      status: 'UNKNOWN',
      service_account_number: '',
    });
    // The real run still works afterwards.
    expect((await processRequest('P-DRY', { dry_run: false })).statusCode).toBe(201);
  });

  it('names missing and invalid fields', async () => {
    const response = await service.request({
      method: 'POST',
      url: PATHS.process,
      payload: { import_supplier_code: 'DEMO', dry_run: 'yes', extra: 1 },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('account_failed_validation');
    // The request's own fields failed, not the staged account; the team may be left out.
    expect(body.detail).toMatch(
      /^The request failed validation with 3 errors \(the first: \w+ at \w+\)\.$/,
    );
    const pairs = body.errors.map((e: { code: string; attr: string }) => `${e.attr}:${e.code}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'external_account_number:required',
        'dry_run:invalid_type',
        'extra:unknown_field',
      ]),
    );
  });

  it('answers import_process_does_not_exist when nothing was staged', async () => {
    const response = await processRequest('NEVER-STAGED');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('import_process_does_not_exist');
  });

  /** The status's last attempt of a DEMO account, or undefined. */
  const lastAttempt = async (external: string) => {
    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', external) });
    return (status.json() as { last_attempt?: { code: string } }).last_attempt;
  };

  it('answers operations_team_name_does_not_exist for an unknown team, and records it', async () => {
    await stage(buildAccount({ external_account_number: 'P-TEAM' }));
    const rehearsed = await processRequest('P-TEAM', {
      operations_team_name: 'Nobody',
      dry_run: true,
    });
    expect(rehearsed.json().code).toBe('operations_team_name_does_not_exist');
    // A dry run leaves no trace, not even a failed attempt.
    expect(await lastAttempt('P-TEAM')).toBeUndefined();
    const response = await processRequest('P-TEAM', { operations_team_name: 'Nobody' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('operations_team_name_does_not_exist');
    expect(response.json().errors[0].attr).toBe('operations_team_name');
    expect(await lastAttempt('P-TEAM')).toMatchObject({
      code: 'operations_team_name_does_not_exist',
      detail: response.json().detail,
    });
  });

  it("names a team unless the supplier allocates its accounts to one, and uses the supplier's", async () => {
    await stage(buildAccount({ external_account_number: 'P-AUTO' }));
    const refusedWith = async (extra: Record<string, unknown>, code: string) => {
      const response = await processRequest('P-AUTO', extra);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'account_failed_validation',
        errors: [expect.objectContaining({ code, attr: 'operations_team_name' })],
      });
    };
    await refusedWith({ operations_team_name: undefined }, 'operations_team_should_be_provided');
    expect(await lastAttempt('P-AUTO')).toMatchObject({ code: 'account_failed_validation' });

    await insertTeam(service.db.kysely, 'Allocated', Date.now());
    await setSupplier(service.db, 'DEMO', { ruleSettings: { auto_allocation_team: 'Allocated' } });
    try {
      await refusedWith({}, 'operations_team_provided_when_using_auto_allocation');
      const created = await processRequest('P-AUTO', { operations_team_name: undefined });
      expect(created.statusCode).toBe(201);
      const account = await readAccount(service.db, created.json().service_account_number);
      const team = await service.db.kysely
        .selectFrom('operations_teams')
        .select('id')
        .where('name', '=', 'Allocated')
        .executeTakeFirstOrThrow();
      expect(account?.teamId).toBe(Number(team.id));
    } finally {
      await setSupplier(service.db, 'DEMO', { ruleSettings: { auto_allocation_team: false } });
    }
  });

  it('records no refusal on an imported account', async () => {
    await stage(buildAccount({ external_account_number: 'P-DONE' }));
    expect((await processRequest('P-DONE')).statusCode).toBe(201);
    const response = await processRequest('P-DONE', { operations_team_name: 'Nobody' });
    expect(response.json().code).toBe('operations_team_name_does_not_exist');
    const row = await service.db.kysely
      .selectFrom('import_processes')
      .select(['state', 'last_failure_code'])
      .where('external_account_number', '=', 'P-DONE')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'completed', last_failure_code: null });
  });

  it('refuses a supplier that is not Ongoing, and a skipped account', async () => {
    await stage(buildAccount({ external_account_number: 'P-PAUSE' }));
    await updateSupplier(service, 'DEMO', { status: 'Paused' });
    const paused = await processRequest('P-PAUSE');
    await updateSupplier(service, 'DEMO', { status: 'Ongoing' });
    expect(paused.statusCode).toBe(400);
    expect(paused.json().code).toBe('import_supplier_migration_not_ongoing');
    expect(await lastAttempt('P-PAUSE')).toMatchObject({
      code: 'import_supplier_migration_not_ongoing',
    });

    await markSkipped(service, 'P-PAUSE');
    const skipped = await processRequest('P-PAUSE');
    expect(skipped.statusCode).toBe(400);
    expect(skipped.json().code).toBe('account_import_process_skipped');
    expect(await lastAttempt('P-PAUSE')).toMatchObject({ code: 'account_import_process_skipped' });
  });

  it("treats another organisation's supplier as a field error", async () => {
    const response = await processRequest('P-1', { import_supplier_code: 'OTHER' });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe(
      'The request failed validation with 1 error (import_supplier_not_found at import_supplier_code).',
    );
    expect(response.json().errors).toContainEqual(
      expect.objectContaining({ code: 'import_supplier_not_found', attr: 'import_supplier_code' }),
    );
  });

  /** Replaces the staged data of the account, and the stamp of what it was validated with. */
  const restore = (external: string, data: string, checkedWith: string | null) =>
    service.db.kysely
      .updateTable('import_process_versions')
      .set({ data, checked_with: checkedWith })
      .where('process_id', 'in', (eb) =>
        eb
          .selectFrom('import_processes')
          .select('id')
          .where('external_account_number', '=', external),
      )
      .execute();

  const invalidAccount = (external: string) =>
    JSON.stringify({
      ...buildAccount({ external_account_number: external }),
      billing_email: 'bad',
    });

  it('re-validates staged data, records the failed attempt and reports UNKNOWN', async () => {
    await stage(buildAccount({ external_account_number: 'P-REVAL' }));
    // As a release whose rules refuse the staged data would find it: another stamp.
    await restore('P-REVAL', invalidAccount('P-REVAL'), 'validated by another release');
    const before = await rowCounts(service.db);
    const response = await processRequest('P-REVAL');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'account_failed_validation',
      detail: 'The account failed validation with 1 error (invalid_email at billing_email).',
    });
    expect(await rowCounts(service.db)).toEqual(before);
    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'P-REVAL') });
    expect(status.json()).toMatchObject({
      status: 'UNKNOWN',
      service_account_number: '',
      // The detail names the first error: what the status keeps of the refusal.
      last_attempt: {
        code: 'account_failed_validation',
        detail: 'The account failed validation with 1 error (invalid_email at billing_email).',
      },
    });
  });

  it('creates an account staged with the current stamp without validating it again', async () => {
    await stage(buildAccount({ external_account_number: 'P-STAMP' }));
    const [kept] = await service.db.kysely
      .selectFrom('import_process_versions')
      .select('checked_with')
      .where('process_id', 'in', (eb) =>
        eb
          .selectFrom('import_processes')
          .select('id')
          .where('external_account_number', '=', 'P-STAMP'),
      )
      .execute();
    expect(kept?.checked_with).toMatch(/^[\w-]{43}$/);
    // Data no validation would pass, under the stamp of its stage: taken as it is, which shows
    // that the stamp alone decides whether a creation validates again.
    await restore('P-STAMP', invalidAccount('P-STAMP'), kept?.checked_with ?? null);
    const response = await processRequest('P-STAMP');
    expect(response.statusCode).toBe(201);
    // Without a stamp (a version staged before stamps were kept) it is validated again.
    await stage(buildAccount({ external_account_number: 'P-NOSTAMP' }));
    await restore('P-NOSTAMP', invalidAccount('P-NOSTAMP'), null);
    expect((await processRequest('P-NOSTAMP')).json()).toMatchObject({
      code: 'account_failed_validation',
    });
  });
});
