/** Every outcome of the staging statement: created, re-staged, and each refusal writing nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/databases.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  uniqueName,
} from '../../helpers/auth.js';
import {
  PATHS,
  addGrantedSupplier,
  createTestService,
  rowCounts,
  updateSupplier,
  processDemoAccount,
  type TestService,
} from '../../helpers/app.js';
import { buildAccount } from '../../account/factory.js';
import { createAccount } from '../../../src/imports/creation/account-creation.js';
import { claimProcess } from '../../../src/imports/creation/creation.repository.js';
import { validateEnergyAccount } from '../../../src/account/account.js';
import { TEST_ACCOUNT_CONTEXT } from '../../helpers/platform.js';

await describeEachDialect('stage outcomes', (dialect) => {
  let service: TestService;
  let supplierId: number;
  beforeAll(async () => {
    service = await createTestService(dialect);
    const supplier = await service.db.kysely
      .selectFrom('import_suppliers')
      .select('id')
      .where('code', '=', 'DEMO')
      .executeTakeFirstOrThrow();
    supplierId = supplier.id;
  });
  afterAll(() => service.destroy());

  const stage = (external: string, overrides: Record<string, unknown> = {}, token?: string) =>
    service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ external_account_number: external, ...overrides }),
      ...(token ? { headers: { authorization: `Token ${token}` } } : {}),
    });

  /** The service's organisation as a claim's caller (on its first key version). */
  const caller = () => ({ organisationId: service.organisationId, keyVersion: 1 });

  const processRow = (external: string) =>
    service.db.kysely
      .selectFrom('import_processes')
      .selectAll()
      .where('external_account_number', '=', external)
      .executeTakeFirst();

  const versionsOf = (external: string) =>
    service.db.kysely
      .selectFrom('import_process_versions as v')
      .innerJoin('import_processes as p', 'p.id', 'v.process_id')
      .select(['v.version', 'v.data', 'v.organisation_id', 'v.staged_at'])
      .where('p.external_account_number', '=', external)
      .orderBy('v.version')
      .execute();

  const markSkipped = (external: string) =>
    service.db.kysely
      .insertInto('skip_marks')
      .values({
        supplier_id: supplierId,
        external_account_number: external,
        reason: 'test',
        created_at: Date.now(),
      })
      .execute();

  const holdClaim = (external: string, leaseUntil: number) =>
    service.db.kysely
      .updateTable('import_processes')
      .set({ state: 'in_progress', claim_id: 'other-request', lease_until: leaseUntil })
      .where('external_account_number', '=', external)
      .execute();

  /** Sends the stage and checks it was refused with `code` and left every table as it was. */
  async function expectRefusedUnchanged(external: string, status: number, code: string) {
    const counts = await rowCounts(service.db);
    const row = await processRow(external);
    const response = await stage(external, { billing_name: 'Refused Change' });
    expect(response.statusCode).toBe(status);
    expect(response.json().code).toBe(code);
    expect(await rowCounts(service.db)).toEqual(counts);
    expect(await processRow(external)).toEqual(row);
    return response;
  }

  describe('stored', () => {
    it('creates a new process with 201 and keeps version 1', async () => {
      const before = Date.now();
      const response = await stage('O-NEW', { billing_name: 'First' });
      expect(response.statusCode).toBe(201);
      const row = await processRow('O-NEW');
      expect(row).toMatchObject({ state: 'pending', version: 1, claim_id: null });
      expect(row?.first_staged_at).toBeGreaterThanOrEqual(before);
      expect(row?.last_staged_at).toBe(row?.first_staged_at);
      const versions = await versionsOf('O-NEW');
      expect(versions).toEqual([
        {
          version: 1,
          data: expect.any(String),
          organisation_id: service.organisationId,
          staged_at: row?.first_staged_at,
        },
      ]);
      expect(JSON.parse(versions[0]?.data ?? '{}').billing_name).toBe('First');
    });

    it('re-stages with 200, keeping versions 1..n with their organisation and time', async () => {
      const other = await createOrganisation(service.db, uniqueName(), ['DEMO']);
      const { token: otherToken } = await obtainToken(service.app, other.apiKey);
      expect((await stage('O-RE', { billing_name: 'Name 1' })).statusCode).toBe(201);
      const first = await processRow('O-RE');
      for (let n = 2; n <= 4; n++) {
        const response = await stage(
          'O-RE',
          { billing_name: `Name ${n}` },
          n === 3 ? otherToken : undefined,
        );
        expect(response.statusCode).toBe(200);
      }
      const row = await processRow('O-RE');
      expect(row).toMatchObject({ id: first?.id, state: 'pending', version: 4 });
      expect(row?.first_staged_at).toBe(first?.first_staged_at);
      expect(row?.last_staged_at).toBeGreaterThanOrEqual(first?.last_staged_at ?? 0);
      const versions = await versionsOf('O-RE');
      expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);
      expect(versions.map((v) => JSON.parse(v.data).billing_name)).toEqual([
        'Name 1',
        'Name 2',
        'Name 3',
        'Name 4',
      ]);
      expect(versions.map((v) => v.organisation_id)).toEqual([
        service.organisationId,
        service.organisationId,
        other.id,
        service.organisationId,
      ]);
      const times = versions.map((v) => v.staged_at);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times[0]).toBe(first?.first_staged_at);
      expect(times[3]).toBe(row?.last_staged_at);
    });

    it('gives exactly one 201 to 10 concurrent first stages and keeps versions 1..10', async () => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => stage('O-RACE', { billing_name: `Racer ${i}` })),
      );
      expect(responses.map((r) => r.statusCode).sort()).toEqual([
        200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
      ]);
      const versions = await versionsOf('O-RACE');
      expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(versions.every((v) => v.organisation_id === service.organisationId)).toBe(true);
      expect(new Set(versions.map((v) => JSON.parse(v.data).billing_name)).size).toBe(10);
      const row = await processRow('O-RACE');
      expect(row?.version).toBe(10);
    });
  });

  describe('refused, writing nothing', () => {
    it('refuses a skipped account that was never staged', async () => {
      await markSkipped('O-SKIP-NEW');
      await expectRefusedUnchanged('O-SKIP-NEW', 400, 'account_import_process_skipped');
      expect(await processRow('O-SKIP-NEW')).toBeUndefined();
    });

    it('refuses a staged account marked to be skipped afterwards', async () => {
      expect((await stage('O-SKIP-OLD')).statusCode).toBe(201);
      await markSkipped('O-SKIP-OLD');
      await expectRefusedUnchanged('O-SKIP-OLD', 400, 'account_import_process_skipped');
      expect((await versionsOf('O-SKIP-OLD')).map((v) => v.version)).toEqual([1]);
    });

    it('reports the skip mark before an in-progress claim', async () => {
      expect((await stage('O-SKIP-HELD')).statusCode).toBe(201);
      await holdClaim('O-SKIP-HELD', Date.now() + 60_000);
      await markSkipped('O-SKIP-HELD');
      await expectRefusedUnchanged('O-SKIP-HELD', 400, 'account_import_process_skipped');
    });

    it('refuses an imported account with both its numbers', async () => {
      expect((await stage('O-DONE')).statusCode).toBe(201);
      const created = await processDemoAccount(service, 'O-DONE');
      expect(created.statusCode).toBe(201);
      const response = await expectRefusedUnchanged(
        'O-DONE',
        400,
        'account_import_process_already_imported',
      );
      expect(response.json()).toMatchObject({
        external_account_number: 'O-DONE',
        service_account_number: created.json().service_account_number,
      });
    });

    it('refuses an account while a live claim holds it, with 409', async () => {
      expect((await stage('O-HELD')).statusCode).toBe(201);
      await holdClaim('O-HELD', Date.now() + 60_000);
      await expectRefusedUnchanged('O-HELD', 409, 'account_import_in_progress');
    });

    // DESIGN.md: a claim whose holder died is treated as pending after its lease.
    it('re-stages an account whose claim lease ran out, releasing the dead claim', async () => {
      expect((await stage('O-EXPIRED')).statusCode).toBe(201);
      await holdClaim('O-EXPIRED', Date.now() - 1);
      expect((await stage('O-EXPIRED')).statusCode).toBe(200);
      expect(await processRow('O-EXPIRED')).toMatchObject({
        state: 'pending',
        version: 2,
        claim_id: null,
        lease_until: null,
      });
    });

    it('refuses a skipped account whose claim lease ran out, keeping the dead claim', async () => {
      expect((await stage('O-SKIP-EXPIRED')).statusCode).toBe(201);
      await holdClaim('O-SKIP-EXPIRED', Date.now() - 1);
      await markSkipped('O-SKIP-EXPIRED');
      await expectRefusedUnchanged('O-SKIP-EXPIRED', 400, 'account_import_process_skipped');
      expect(await processRow('O-SKIP-EXPIRED')).toMatchObject({
        state: 'in_progress',
        claim_id: 'other-request',
      });
    });

    it('re-stages a pending account without touching a claim or its place in the lists', async () => {
      expect((await stage('O-PENDING-AGAIN')).statusCode).toBe(201);
      const first = await processRow('O-PENDING-AGAIN');
      expect((await stage('O-PENDING-AGAIN', { billing_name: 'Again' })).statusCode).toBe(200);
      expect(await processRow('O-PENDING-AGAIN')).toEqual({
        ...first,
        version: 2,
        last_staged_at: expect.any(Number),
      });
      const pending = await service.request({
        method: 'GET',
        url: PATHS.pending('DEMO'),
      });
      expect(
        pending
          .json()
          .filter(
            (item: { external_account_number: string }) =>
              item.external_account_number === 'O-PENDING-AGAIN',
          ),
      ).toHaveLength(1);
    });

    /** Creates the account as the claim `claimId` would, from the payload staged as `external`. */
    async function createAs(external: string, processId: number, claimId: string) {
      const supplier = await service.db.kysely
        .selectFrom('import_suppliers')
        .selectAll()
        .where('id', '=', supplierId)
        .executeTakeFirstOrThrow();
      const team = await service.db.kysely
        .selectFrom('operations_teams')
        .select('id')
        .executeTakeFirstOrThrow();
      const validated = validateEnergyAccount(buildAccount({ external_account_number: external }), {
        ...TEST_ACCOUNT_CONTEXT,
        phoneRegion: supplier.phone_region,
      });
      if (!validated.ok) throw new Error('the test payload must be valid');
      return createAccount(service.ctx, {
        supplier,
        teamId: team.id,
        processId,
        payload: validated.value,
        dryRun: false,
        claimId,
      });
    }

    /** A claim by 'dead-holder' whose lease has run out; returns the process id. */
    async function expiredClaim(external: string): Promise<number> {
      expect((await stage(external)).statusCode).toBe(201);
      const processId = (await processRow(external))?.id ?? 0;
      const now = Date.now();
      const claim = { caller: caller(), processId, claimId: 'dead-holder', limit: 0 };
      expect(
        await claimProcess(service.db, { ...claim, now: now - 10_000, leaseUntil: now - 1 }),
      ).toBeDefined();
      return processId;
    }

    it('fences the dead holder: once re-staged, its creation can no longer complete', async () => {
      const processId = await expiredClaim('O-FENCED');
      expect((await stage('O-FENCED')).statusCode).toBe(200);
      const before = await rowCounts(service.db);
      // The dead holder wakes up and writes its account: nothing of it may stay.
      await expect(createAs('O-FENCED', processId, 'dead-holder')).rejects.toMatchObject({
        code: 'account_import_in_progress',
      });
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await processRow('O-FENCED')).toMatchObject({ state: 'pending', account_id: null });
    });

    it('fences the dead holder once another claim took the account over', async () => {
      const processId = await expiredClaim('O-TAKEN');
      const now = Date.now();
      const takeover = {
        caller: caller(),
        processId,
        claimId: 'new-holder',
        limit: 0,
        now,
        leaseUntil: now + 60_000,
      };
      expect(await claimProcess(service.db, takeover)).toBeDefined();
      const before = await rowCounts(service.db);
      await expect(createAs('O-TAKEN', processId, 'dead-holder')).rejects.toMatchObject({
        code: 'account_import_in_progress',
      });
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await processRow('O-TAKEN')).toMatchObject({
        state: 'in_progress',
        claim_id: 'new-holder',
        account_id: null,
      });
      // The new holder still completes it.
      expect(await createAs('O-TAKEN', processId, 'new-holder')).toMatch(/^A-/);
      expect(await processRow('O-TAKEN')).toMatchObject({ state: 'completed', claim_id: null });
    });

    it('answers 409, writing nothing, when another creation stored the account first', async () => {
      expect((await stage('O-RACED')).statusCode).toBe(201);
      const processId = (await processRow('O-RACED'))?.id ?? 0;
      const now = Date.now();
      const claim = {
        caller: caller(),
        processId,
        claimId: 'holder',
        limit: 0,
        now,
        leaseUntil: now + 60_000,
      };
      expect(await claimProcess(service.db, claim)).toBeDefined();
      // What a racing creation (a dry run's, say) holds: an account of this process.
      const team = await service.db.kysely
        .selectFrom('operations_teams')
        .select('id')
        .executeTakeFirstOrThrow();
      await service.db.kysely
        .insertInto('accounts')
        .values({
          number: 'A-0000RACE',
          supplier_id: supplierId,
          external_account_number: 'O-RACED',
          import_process_id: processId,
          operations_team_id: team.id,
          document: '{}',
          created_at: now,
        })
        .execute();
      const before = await rowCounts(service.db);
      await expect(createAs('O-RACED', processId, 'holder')).rejects.toMatchObject({
        code: 'account_import_in_progress',
        message: 'Another request created this account at the same moment.',
      });
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await processRow('O-RACED')).toMatchObject({ state: 'in_progress', account_id: null });
    });

    it('keeps the process as it was when the version row cannot be written', async () => {
      expect((await stage('O-ATOMIC')).statusCode).toBe(201);
      const row = await processRow('O-ATOMIC');
      // A stray row taking the next version number makes the version insert fail.
      await service.db.kysely
        .insertInto('import_process_versions')
        .values({
          process_id: row?.id ?? 0,
          version: 2,
          data: '{}',
          organisation_id: service.organisationId,
          staged_at: 0,
        })
        .execute();
      await expectRefusedUnchanged('O-ATOMIC', 500, 'internal_error');
    });
  });
  // The service remembers suppliers and lets the stage statement confirm they are unchanged;
  // each case stages once (so the supplier is remembered), then changes what a stage relies on.
  describe('when the supplier or the caller changed since the service last read them', () => {
    async function rememberedSupplier() {
      const code = uniqueName('SUP');
      await addGrantedSupplier(service, code);
      const external = uniqueName('C');
      const first = await stage(external, { import_supplier: code });
      expect(first.statusCode).toBe(201);
      return { code, external };
    }

    async function expectNothingWritten(send: () => ReturnType<typeof stage>) {
      const counts = await rowCounts(service.db);
      const response = await send();
      expect(await rowCounts(service.db)).toEqual(counts);
      return response;
    }

    it('validates against the phone region the supplier has now', async () => {
      const { code, external } = await rememberedSupplier();
      await updateSupplier(service, code, { phone_region: 'DE' });
      // The payload's national numbers are British: valid in GB, not in DE.
      const response = await expectNothingWritten(() => stage(external, { import_supplier: code }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual(
        expect.objectContaining({ code: 'invalid_phone_number', attr: 'customers.0.mobile' }),
      );
    });

    it('refuses a supplier whose grant was revoked', async () => {
      const { code, external } = await rememberedSupplier();
      await service.db.kysely
        .deleteFrom('organisation_suppliers')
        .where('organisation_id', '=', service.organisationId)
        .where('supplier_id', 'in', (eb) =>
          eb.selectFrom('import_suppliers').select('id').where('code', '=', code),
        )
        .execute();
      const response = await expectNothingWritten(() => stage(external, { import_supplier: code }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual(
        expect.objectContaining({ code: 'import_supplier_not_found', attr: 'import_supplier' }),
      );
    });

    it('refuses a supplier whose migration is no longer ongoing', async () => {
      const { code, external } = await rememberedSupplier();
      await updateSupplier(service, code, { status: 'Paused' });
      const response = await expectNothingWritten(() => stage(external, { import_supplier: code }));
      expect(response.json().code).toBe('import_supplier_migration_not_ongoing');
    });

    it('refuses, writing nothing, a re-stage releasing a lapsed claim of a paused supplier', async () => {
      const { code, external } = await rememberedSupplier();
      await holdClaim(external, Date.now() - 1);
      await updateSupplier(service, code, { status: 'Paused' });
      const response = await expectNothingWritten(() => stage(external, { import_supplier: code }));
      expect(response.json().code).toBe('import_supplier_migration_not_ongoing');
      expect(await processRow(external)).toMatchObject({
        state: 'in_progress',
        claim_id: 'other-request',
        version: 1,
      });
    });

    it('refuses the token of an organisation disabled since (401)', async () => {
      const code = uniqueName('SUP');
      const { id, apiKey } = await createOrganisation(service.db, uniqueName(), [code]);
      const { token } = await obtainToken(service.app, apiKey);
      const external = uniqueName('C');
      expect((await stage(external, { import_supplier: code }, token)).statusCode).toBe(201);
      await changeOrganisation(service.db, id, { enabled: 0 });
      const response = await expectNothingWritten(() =>
        stage(external, { import_supplier: code }, token),
      );
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('invalid_token');
    });
  });
});
