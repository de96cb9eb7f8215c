/**
 * Values an account holds alone within its import supplier: an account reference (namespace
 * and value) and a debt's CAIS reference. Validation and staging refuse a payload claiming one that
 * a created account holds; of two creations racing for one, on one instance or two sharing a
 * database, exactly one wins and the other writes nothing.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { LivePlatformData } from '../../src/platform/live-platform-data.js';
import { removeReference } from '../../src/reference/reference.service.js';
import { describeEachDialect, postgresAvailable } from '../helpers/databases.js';
import {
  PATHS,
  addGrantedSupplier,
  createDemoAccount,
  createTestService,
  demoProcessBody,
  processDemoAccount,
  rowCounts,
  stageDemoAccount,
  type TestService,
} from '../helpers/app.js';
import { until } from '../helpers/until.js';
import { buildAccount } from '../account/factory.js';

type Json = Record<string, unknown>;

const withReference = (value: string, namespace = 'legacy-crm'): Json => ({
  references: [{ namespace, value }],
});

const debt = (cais: string): Json => ({
  agency_name: 'Debt R Us',
  start_date: '2019-03-26',
  is_insolvent: false,
  cais_reference: cais,
});
const withCais = (...cais: string[]): Json => ({ debts: cais.map(debt) });

const REFERENCE_TAKEN = { code: 'reference_already_exists', attr: 'references.0' };
const CAIS_TAKEN = {
  code: 'cais_reference_already_in_use_on_another_account',
  attr: 'debts.0.cais_reference',
};

/** A 400 of the payload's validation with exactly these errors (code and attr). */
function expectRefused(response: LightMyRequestResponse, errors: Json[]): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as { code: string; errors: Json[] };
  expect(body.code).toBe('account_failed_validation');
  expect(body.errors.map(({ code, attr }) => ({ code, attr }))).toEqual(errors);
}

/** How many rows of each table belong to the account `id`. */
async function rowsOfAccount(db: Db, id: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = { accounts: 1 };
  for (const table of [
    'account_keys',
    'account_documents',
    'email_outbox',
    'account_claims',
    'meter_point_registrations',
  ]) {
    const row = await db.kysely
      .selectFrom(table as 'account_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', id)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

type Send = (external: string) => Promise<LightMyRequestResponse>;

/**
 * Stages `<prefix>-1` and `<prefix>-2`, both claiming what `claim` gives, then sends their
 * process requests at once, the first through `sends[0]`, the second through `sends[1]`:
 * exactly one is created, the other refused with `taken`, and nothing of it is written.
 */
async function race(
  service: TestService,
  prefix: string,
  claim: Json,
  sends: [Send, Send],
  taken: Json,
): Promise<void> {
  const externals = [`${prefix}-1`, `${prefix}-2`];
  for (const external of externals) {
    await stageDemoAccount(service, buildAccount({ external_account_number: external, ...claim }));
  }
  const before = await rowCounts(service.db);
  const responses = await Promise.all(externals.map((external, i) => sends[i % 2]!(external)));
  expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400]);
  const lost = responses.findIndex((r) => r.statusCode === 400);
  expectRefused(responses[lost]!, [taken]);
  const winner = externals[1 - lost]!;
  const loser = externals[lost]!;

  const accounts = await service.db.kysely
    .selectFrom('accounts')
    .select(['id', 'external_account_number'])
    .where('external_account_number', 'in', externals)
    .execute();
  expect(accounts.map((a) => a.external_account_number)).toEqual([winner]);
  // Every row written since belongs to the winner's account.
  const written = await rowsOfAccount(service.db, Number(accounts[0]!.id));
  const after = await rowCounts(service.db);
  const changed = Object.fromEntries(
    Object.keys(after)
      .filter((table) => after[table] !== before[table])
      .map((table) => [table, after[table]! - before[table]!]),
  );
  expect(changed).toEqual(Object.fromEntries(Object.entries(written).filter(([, n]) => n > 0)));
  // The loser's process is pending again, with the refusal as its last failure.
  const process = await service.db.kysely
    .selectFrom('import_processes')
    .select(['state', 'account_id', 'last_failure_code'])
    .where('external_account_number', '=', loser)
    .executeTakeFirstOrThrow();
  expect(process).toEqual({
    state: 'pending',
    account_id: null,
    last_failure_code: 'account_failed_validation',
  });
}

await describeEachDialect('values an account holds alone', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService(dialect);
  });
  afterAll(() => service.destroy());

  const validate = (payload: Json) =>
    service.request({ method: 'POST', url: PATHS.validate, payload });
  const stage = (payload: Json) => service.request({ method: 'POST', url: PATHS.stage, payload });
  const processOn: Send = (external) => processDemoAccount(service, external);

  it('refuses at validation and staging a reference a created account holds', async () => {
    await createDemoAccount(
      service,
      buildAccount({ external_account_number: 'V-1', ...withReference('SHARED-V') }),
    );
    const payload = buildAccount({
      external_account_number: 'V-2',
      references: [
        { namespace: 'legacy-crm', value: 'OWN-V2' },
        { namespace: 'legacy-crm', value: 'SHARED-V' },
      ],
      ...withCais('CAIS-V2'),
    });
    const taken = [{ code: 'reference_already_exists', attr: 'references.1' }];
    expectRefused(await validate(payload), taken);
    expectRefused(await stage(payload), taken);
    // Twice: the second stage finds the supplier remembered, and takes the quick path.
    expectRefused(await stage(payload), taken);
    const staged = await service.db.kysely
      .selectFrom('import_processes')
      .select('id')
      .where('external_account_number', '=', 'V-2')
      .execute();
    expect(staged).toEqual([]);
    // The namespace is part of the reference: the same value in another one is not taken.
    const elsewhere = buildAccount({
      external_account_number: 'V-3',
      ...withReference('SHARED-V', 'allpay-client-reference-number'),
    });
    expect((await validate(elsewhere)).statusCode).toBe(200);
    expect((await stage(elsewhere)).statusCode).toBe(201);
  });

  it('finds a held value among more claims than one compiled lookup takes', async () => {
    await createDemoAccount(
      service,
      buildAccount({ external_account_number: 'M-1', ...withReference('SHARED-M') }),
    );
    // 16 claims are looked up by a kept statement of that count; 17 by one built for them.
    for (const count of [16, 17]) {
      const references = Array.from({ length: count - 1 }, (_, i) => ({
        namespace: 'legacy-crm',
        value: `OWN-M-${count}-${i}`,
      }));
      const payload = buildAccount({
        external_account_number: `M-${count}`,
        references: [...references, { namespace: 'legacy-crm', value: 'SHARED-M' }],
      });
      const taken = [{ code: 'reference_already_exists', attr: `references.${count - 1}` }];
      expectRefused(await validate(payload), taken);
      expectRefused(await stage(payload), taken);
    }
  });

  it("takes another supplier's reference: a value is held within one supplier's book", async () => {
    await createDemoAccount(
      service,
      buildAccount({ external_account_number: 'S-1', ...withReference('SHARED-S') }),
    );
    await addGrantedSupplier(service, 'SECOND');
    const payload = buildAccount({
      import_supplier: 'SECOND',
      external_account_number: 'S-1',
      ...withReference('SHARED-S'),
    });
    expect((await validate(payload)).statusCode).toBe(200);
    expect((await stage(payload)).statusCode).toBe(201);
    const created = await service.request({
      method: 'POST',
      url: PATHS.process,
      payload: demoProcessBody('S-1', { import_supplier_code: 'SECOND' }),
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('refuses at validation and staging a CAIS reference a created account holds', async () => {
    // An account may repeat its own CAIS reference.
    await createDemoAccount(
      service,
      buildAccount({ external_account_number: 'K-1', ...withCais('CAIS-K', 'CAIS-K') }),
    );
    const claims = await service.db.kysely
      .selectFrom('account_claims')
      .select(['kind', 'namespace', 'value'])
      .where('value', '=', 'CAIS-K')
      .execute();
    expect(claims).toEqual([{ kind: 'cais', namespace: '', value: 'CAIS-K' }]);
    const payload = buildAccount({
      external_account_number: 'K-2',
      ...withCais('CAIS-K2', 'CAIS-K'),
    });
    const taken = [{ ...CAIS_TAKEN, attr: 'debts.1.cais_reference' }];
    expectRefused(await validate(payload), taken);
    expectRefused(await stage(payload), taken);
    // The deprecated single debt is looked up too.
    const single = buildAccount({ external_account_number: 'K-3', debt: debt('CAIS-K') });
    expectRefused(await validate(single), [{ ...CAIS_TAKEN, attr: 'debt.cais_reference' }]);
  });

  it('reports every value taken at once', async () => {
    const payload = buildAccount({
      external_account_number: 'M-2',
      references: [{ namespace: 'legacy-crm', value: 'SHARED-V' }],
      ...withCais('CAIS-K'),
    });
    expectRefused(await validate(payload), [REFERENCE_TAKEN, CAIS_TAKEN]);
  });

  it('creates one of two accounts racing for a reference', async () => {
    await race(service, 'R', withReference('RACED-R'), [processOn, processOn], REFERENCE_TAKEN);
    // Staged again, the loser is refused at once.
    expectRefused(
      await stage(buildAccount({ external_account_number: 'R-2', ...withReference('RACED-R') })),
      [REFERENCE_TAKEN],
    );
  });

  it('creates one of two accounts racing for a CAIS reference', async () => {
    await race(service, 'C', withCais('RACED-C'), [processOn, processOn], CAIS_TAKEN);
  });

  it('refuses a dry run of an account whose reference was taken after its stage', async () => {
    const claim = withReference('LATE-D');
    await stageDemoAccount(service, buildAccount({ external_account_number: 'D-2', ...claim }));
    await createDemoAccount(service, buildAccount({ external_account_number: 'D-1', ...claim }));
    const rehearsed = await processDemoAccount(service, 'D-2', { dry_run: true });
    expectRefused(rehearsed, [REFERENCE_TAKEN]);
  });
});

// PostgreSQL is where several instances run against one database.
describe.skipIf(!(await postgresAvailable()))('two instances sharing one database', () => {
  /** The interval of the second instance's platform refresh (PLATFORM_REFRESH_MS). */
  const REFRESH_MS = 50;
  let first: TestService;
  let second: FastifyInstance;
  let secondDb: Db;
  let secondPlatform: LivePlatformData;

  beforeAll(async () => {
    first = await createTestService('postgres');
    secondDb = connect(first.config.databaseUrl);
    const { platformRefreshMs } = loadConfig({ PLATFORM_REFRESH_MS: String(REFRESH_MS) });
    secondPlatform = await LivePlatformData.start(secondDb, platformRefreshMs, (error) => {
      throw error;
    });
    second = await buildApp({
      config: first.config,
      db: secondDb,
      tokenSecret: first.ctx.tokenSecret,
      platform: secondPlatform,
    });
  });
  afterAll(async () => {
    await second.close();
    secondPlatform.close();
    await secondDb.close();
    await first.destroy();
  });

  const onFirst: Send = (external) => processDemoAccount(first, external);
  const onSecond: Send = (external) =>
    second.inject({
      method: 'POST',
      url: PATHS.process,
      headers: { authorization: `Token ${first.token}` },
      payload: demoProcessBody(external),
    });

  it('creates one of two accounts racing for a reference', async () => {
    await race(first, 'IR', withReference('RACED-IR'), [onFirst, onSecond], REFERENCE_TAKEN);
  });

  it('creates one of two accounts racing for a CAIS reference', async () => {
    await race(first, 'IC', withCais('RACED-IC'), [onFirst, onSecond], CAIS_TAKEN);
  });

  it('sees a reference change made through the other instance within its refresh and a read', async () => {
    const before = secondPlatform.current.version;
    await removeReference(first.db, 'reference_namespace', 'allpay-client-reference-number');
    // The bound: one interval, then one read of the markers and the catalogue (allowed a
    // loaded machine's second).
    await until(async () => secondPlatform.current.version !== before, REFRESH_MS + 1_000);
    await first.ctx.platform.refresh();
    expect(secondPlatform.current.version).toBe(first.ctx.platform.current.version);
  });
});
