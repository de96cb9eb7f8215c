/** The DESIGN.md guarantees, each with a test that fails if it is lost. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import type { SupplierStatus } from '../../src/db/database.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  PATHS,
  createTestService,
  useTestService,
  demoProcessBody,
  processDemoAccount,
  processThrough,
  rowCounts,
  type TestService,
} from '../helpers/app.js';
import { buildAccount } from '../account/factory.js';
import { LOCK_WAITS_QUERY } from '../helpers/until.js';
import { livePlatformOf } from '../helpers/platform.js';

async function stageOk(service: TestService, external: string): Promise<void> {
  const response = await service.request({
    method: 'POST',
    url: PATHS.stage,
    payload: buildAccount({ external_account_number: external }),
  });
  expect(response.statusCode).toBeLessThan(300);
}

async function holdClaim(
  service: TestService,
  external: string,
  leaseUntil: number,
): Promise<void> {
  await service.db.kysely
    .updateTable('import_processes')
    .set({ state: 'in_progress', claim_id: 'dead-holder', lease_until: leaseUntil })
    .where('external_account_number', '=', external)
    .execute();
}

/**
 * Returns true once some session of the client's database waits for a lock (polled through
 * `client`), or false once `done()` is true first.
 */
async function untilSomeoneWaitsForALock(
  client: pg.Client,
  done: () => boolean = () => false,
): Promise<boolean> {
  while (!done()) {
    const { rows } = await client.query<{ n: number }>(LOCK_WAITS_QUERY);
    if (Number(rows[0]?.n) > 0) return true;
  }
  return false;
}

/**
 * Text found only in the statement with which a process request reads its checks (the
 * supplier, team, skip mark and process): the team lookup. The claim checks the skip mark too.
 */
const TARGET_READ = '"operations_teams" as "t"';

/**
 * Sends a process request for `external` through an app whose database runs `step` once, right
 * after the request's checks read the supplier, team, skip mark and process, and before its
 * claim: an operator acting at that moment. `step` runs on the real database; nothing is mocked.
 */
async function processWithStepBeforeClaim(
  service: TestService,
  external: string,
  step: () => Promise<unknown>,
) {
  let stepped = false;
  const response = await processThrough(service, external, async (sql, run) => {
    const result = await run();
    if (!stepped && sql.includes(TARGET_READ)) {
      stepped = true;
      await step();
    }
    return result;
  });
  expect(stepped).toBe(true);
  return response;
}

await describeEachDialect('guarantees', (dialect) => {
  const service = useTestService(dialect, { PROCESS_LEASE_SECONDS: '2' });

  it('creates exactly one account under concurrent process requests', async () => {
    await stageOk(service, 'G-RACE');
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => processDemoAccount(service, 'G-RACE')),
    );
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expect([400, 409]).toContain(response.statusCode);
      expect(['account_import_in_progress', 'account_import_process_already_imported']).toContain(
        response.json().code,
      );
    }
    const accounts = await service.db.kysely
      .selectFrom('accounts')
      .select('number')
      .where('external_account_number', '=', 'G-RACE')
      .execute();
    expect(accounts).toEqual([{ number: created[0]?.json().service_account_number }]);
  });

  // A claim that waits for a re-stage's row lock goes ahead on the new version once the
  // re-stage commits; the payload it creates from must be that version's, not missing.
  if (dialect === 'postgres') {
    it('creates from a re-stage that committed while the claim waited for the row', async () => {
      await stageOk(service, 'G-WAIT');
      const restage = new pg.Client({ connectionString: service.config.databaseUrl });
      await restage.connect();
      try {
        // What a re-stage writes, held open: the new version's row and the process pointing at it.
        await restage.query('begin');
        const { rows } = await restage.query<{ id: string; version: number }>(
          `update import_processes set version = version + 1, last_staged_at = $1
           where external_account_number = 'G-WAIT' returning id, version`,
          [Date.now()],
        );
        const payload = buildAccount({ external_account_number: 'G-WAIT', billing_name: 'Newer' });
        await restage.query(
          `insert into import_process_versions (process_id, version, data, organisation_id, staged_at)
           values ($1, $2, $3, $4, $5)`,
          [rows[0]?.id, rows[0]?.version, JSON.stringify(payload), service.organisationId, 1],
        );
        const processing = processDemoAccount(service, 'G-WAIT');
        // Wait until the claim is blocked on the re-stage's row lock, then let the re-stage in.
        await untilSomeoneWaitsForALock(restage);
        await restage.query('commit');
        const response = await processing;
        expect(response.statusCode).toBe(201);
        const account = await service.db.kysely
          .selectFrom('accounts')
          .select('document')
          .where('external_account_number', '=', 'G-WAIT')
          .executeTakeFirstOrThrow();
        expect(JSON.parse(account.document)).toMatchObject({ billing_name: 'Newer' });
      } finally {
        await restage.end();
      }
    });
  }

  // Every stage and creation refers to the same organisation, supplier and team rows. A foreign
  // key to them would lock them (migration 0004): one transaction holding them would stall all.
  if (dialect === 'postgres') {
    it('stages and creates without locking the organisation, supplier or team row', async () => {
      const holder = new pg.Client({ connectionString: service.config.databaseUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select from organisations where id = $1 for update', [
          service.organisationId,
        ]);
        await holder.query("select from import_suppliers where code = 'DEMO' for update");
        await holder.query("select from operations_teams where name = 'Migrations' for update");
        let finished = false;
        const work = (async () => {
          await stageOk(service, 'G-SHARED');
          return processDemoAccount(service, 'G-SHARED');
        })().finally(() => {
          finished = true;
        });
        const waited = await untilSomeoneWaitsForALock(holder, () => finished);
        // Let a blocked stage or creation finish before failing.
        if (waited) await holder.query('rollback');
        const response = await work;
        expect(waited).toBe(false);
        expect(response.statusCode).toBe(201);
      } finally {
        await holder.end();
      }
    });
  }

  it('shows a live claim as IN_PROGRESS, refuses it with 409, and recovers it after its lease', async () => {
    await stageOk(service, 'G-LEASE');
    await holdClaim(service, 'G-LEASE', Date.now() + 60_000);
    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'G-LEASE') });
    expect(status.json()).toEqual({
      import_supplier: 'DEMO',
      external_account_number: 'G-LEASE',
      status: 'IN_PROGRESS',
      service_account_number: '',
    });
    const refused = await processDemoAccount(service, 'G-LEASE');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('account_import_in_progress');
    const restage = await service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ external_account_number: 'G-LEASE' }),
    });
    expect(restage.statusCode).toBe(409);

    // The holder died: its lease ran out.
    await holdClaim(service, 'G-LEASE', Date.now() - 1);
    const expired = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'G-LEASE') });
    expect(expired.json().status).toBe('UNKNOWN');
    const recovered = await processDemoAccount(service, 'G-LEASE');
    expect(recovered.statusCode).toBe(201);
  });

  it('claims again, never answering 429 without a limit, when a claim is given back meanwhile', async () => {
    await stageOk(service, 'G-HANDBACK');
    await holdClaim(service, 'G-HANDBACK', Date.now() + 60_000);
    // The holder gives its claim back just after this request's claim failed, before the
    // request reads why: the moment its second read of its checks goes out. (The claim
    // statement checks the skip mark too, so the read is told by its team lookup.)
    const { db } = service;
    let handedBack = false;
    let checksRead = 0;
    const handBack = async () => {
      handedBack = true;
      await db.kysely
        .updateTable('import_processes')
        .set({ state: 'pending', claim_id: null, lease_until: null })
        .where('external_account_number', '=', 'G-HANDBACK')
        .execute();
    };
    const response = await processThrough(service, 'G-HANDBACK', async (sql, run) => {
      if (sql.includes(TARGET_READ) && ++checksRead === 2) await handBack();
      return run();
    });
    expect(handedBack).toBe(true);
    // Read twice: the claim was refused once, then claimed after the hand-back.
    expect(checksRead).toBe(2);
    expect(response.statusCode).toBe(201);
  });

  it('leaves a claim with a lease of PROCESS_LEASE_SECONDS while creating', async () => {
    await stageOk(service, 'G-LEASE-LEN');
    const before = Date.now();
    const response = await processDemoAccount(service, 'G-LEASE-LEN');
    expect(response.statusCode).toBe(201);
    const versions = await service.db.kysely
      .selectFrom('import_processes')
      .select(['state', 'lease_until', 'claim_id', 'account_created_at'])
      .where('external_account_number', '=', 'G-LEASE-LEN')
      .executeTakeFirstOrThrow();
    expect(versions).toMatchObject({ state: 'completed', lease_until: null, claim_id: null });
    expect(versions.account_created_at).toBeGreaterThanOrEqual(before);
  });

  describe('an operator acting between the checks and the claim', () => {
    const supplierStatus = (on: TestService, status: SupplierStatus) =>
      on.db.kysely
        .updateTable('import_suppliers')
        .set({ status })
        .where('code', '=', 'DEMO')
        .execute();
    const demoSupplierId = async () =>
      (
        await service.db.kysely
          .selectFrom('import_suppliers')
          .select('id')
          .where('code', '=', 'DEMO')
          .executeTakeFirstOrThrow()
      ).id;
    const organisationEnabled = (enabled: 0 | 1) =>
      service.db.kysely
        .updateTable('organisations')
        .set({ enabled })
        .where('id', '=', service.organisationId)
        .execute();
    const grant = async (granted: boolean) => {
      const supplierId = await demoSupplierId();
      const row = { organisation_id: service.organisationId, supplier_id: supplierId };
      await (granted
        ? service.db.kysely
            .insertInto('organisation_suppliers')
            .values(row)
            .onConflict((oc) => oc.doNothing())
            .execute()
        : service.db.kysely
            .deleteFrom('organisation_suppliers')
            .where('organisation_id', '=', row.organisation_id)
            .where('supplier_id', '=', row.supplier_id)
            .execute());
    };
    const keyVersionStep = (step: 1 | -1) =>
      service.db.kysely
        .updateTable('organisations')
        .set((eb) => ({ key_version: eb('key_version', '+', step) }))
        .where('id', '=', service.organisationId)
        .execute();
    const processRow = (on: TestService, external: string) =>
      on.db.kysely
        .selectFrom('import_processes')
        .select(['state', 'claim_id', 'account_id', 'last_failure_code'])
        .where('external_account_number', '=', external)
        .executeTakeFirstOrThrow();

    const cases = [
      {
        what: 'pauses the supplier',
        external: 'G-OP-PAUSED',
        step: () => supplierStatus(service, 'Paused'),
        undo: () => supplierStatus(service, 'Ongoing'),
        status: 400,
        code: 'import_supplier_migration_not_ongoing',
        recorded: true,
      },
      {
        what: 'marks the account to be skipped',
        external: 'G-OP-SKIPPED',
        step: async () =>
          service.db.kysely
            .insertInto('skip_marks')
            .values({
              supplier_id: await demoSupplierId(),
              external_account_number: 'G-OP-SKIPPED',
              reason: null,
              created_at: Date.now(),
            })
            .execute(),
        undo: async () => undefined,
        status: 400,
        code: 'account_import_process_skipped',
        recorded: true,
      },
      {
        what: 'revokes the supplier from the organisation',
        external: 'G-OP-REVOKED',
        step: () => grant(false),
        undo: () => grant(true),
        status: 400,
        code: 'account_failed_validation',
        recorded: false,
      },
      {
        what: 'disables the organisation',
        external: 'G-OP-DISABLED',
        step: () => organisationEnabled(0),
        undo: () => organisationEnabled(1),
        status: 401,
        code: 'invalid_token',
        recorded: false,
      },
      {
        what: "rotates the organisation's key",
        external: 'G-OP-ROTATED',
        step: () => keyVersionStep(1),
        undo: () => keyVersionStep(-1),
        status: 401,
        code: 'invalid_token',
        recorded: false,
      },
    ];

    it.each(cases)(
      'refuses the claim when the operator $what, creating nothing',
      async ({ external, step, undo, status, code, recorded }) => {
        await stageOk(service, external);
        const before = await rowCounts(service.db);
        try {
          const response = await processWithStepBeforeClaim(service, external, step);
          expect(response.statusCode).toBe(status);
          expect(response.json()).toMatchObject({ code });
        } finally {
          await undo();
        }
        expect((await rowCounts(service.db)).accounts).toBe(before.accounts);
        expect(await processRow(service, external)).toMatchObject({
          state: 'pending',
          claim_id: null,
          account_id: null,
          last_failure_code: recorded ? code : null,
        });
      },
    );

    it('refuses the claim under a concurrency limit too', async () => {
      const limited = await createTestService(dialect, { PROCESS_CONCURRENCY_LIMIT: '1' });
      try {
        await stageOk(limited, 'G-OP-LIMITED');
        const response = await processWithStepBeforeClaim(limited, 'G-OP-LIMITED', () =>
          supplierStatus(limited, 'Paused'),
        );
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'import_supplier_migration_not_ongoing' });
        expect((await rowCounts(limited.db)).accounts).toBe(0);
        expect(await processRow(limited, 'G-OP-LIMITED')).toMatchObject({
          state: 'pending',
          claim_id: null,
          account_id: null,
          last_failure_code: 'import_supplier_migration_not_ongoing',
        });
      } finally {
        await limited.destroy();
      }
    });
  });

  describe('concurrency limit', () => {
    let limited: TestService;
    beforeAll(async () => {
      limited = await createTestService(dialect, { PROCESS_CONCURRENCY_LIMIT: '1' });
    });
    afterAll(() => limited.destroy());

    it('refuses with 429 and Retry-After while the limit is taken, and changes nothing', async () => {
      await stageOk(limited, 'L-HELD');
      await stageOk(limited, 'L-WAIT');
      await holdClaim(limited, 'L-HELD', Date.now() + 60_000);
      const before = await rowCounts(limited.db);
      const row = await limited.db.kysely
        .selectFrom('import_processes')
        .selectAll()
        .where('external_account_number', '=', 'L-WAIT')
        .executeTakeFirstOrThrow();
      const response = await processDemoAccount(limited, 'L-WAIT');
      expect(response.statusCode).toBe(429);
      expect(response.json().code).toBe('too_many_accounts_in_progress');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(await rowCounts(limited.db)).toEqual(before);
      expect(
        await limited.db.kysely
          .selectFrom('import_processes')
          .selectAll()
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow(),
      ).toEqual(row);

      await holdClaim(limited, 'L-HELD', Date.now() - 1);
      const retried = await processDemoAccount(limited, 'L-WAIT');
      expect(retried.statusCode).toBe(201);
    });

    // A process request waiting on this instance counts before its claim exists; PostgreSQL lets
    // one wait on a row lock without blocking the event loop (SQLite's driver would block it).
    if (dialect === 'postgres') {
      it('counts a creation waiting for the database, not only live claims', async () => {
        await stageOk(limited, 'L-SLOW');
        await stageOk(limited, 'L-NEXT');
        const blocker = new pg.Client({ connectionString: limited.config.databaseUrl });
        await blocker.connect();
        await blocker.query('begin');
        await blocker.query(
          "select id from import_processes where external_account_number = 'L-SLOW' for update",
        );
        const slow = processDemoAccount(limited, 'L-SLOW');
        // Wait until the first request's claim is blocked on the row lock.
        await untilSomeoneWaitsForALock(blocker);
        // Its claim is not written yet, so the database counts no live claim for it.
        const waiting = await limited.db.kysely
          .selectFrom('import_processes')
          .select('state')
          .where('external_account_number', '=', 'L-SLOW')
          .executeTakeFirstOrThrow();
        expect(waiting.state).toBe('pending');
        const refused = await processDemoAccount(limited, 'L-NEXT');
        expect(refused.statusCode).toBe(429);
        expect(refused.json().code).toBe('too_many_accounts_in_progress');
        expect(refused.headers['retry-after']).toBe('1');
        // A dry run is not a creation: it takes no slot.
        const rehearsal = await processDemoAccount(limited, 'L-NEXT', { dry_run: true });
        expect(rehearsal.json().code).toBe('dry_run_rolled_back');
        await blocker.query('commit');
        await blocker.end();
        expect((await slow).statusCode).toBe(201);
        const retried = await processDemoAccount(limited, 'L-NEXT');
        expect(retried.statusCode).toBe(201);
      });
    }

    it('lets every account through one at a time', async () => {
      const externals = Array.from({ length: 6 }, (_, i) => `L-SEQ-${i}`);
      for (const external of externals) await stageOk(limited, external);
      const results = await Promise.all(
        externals.map((external) => processDemoAccount(limited, external)),
      );
      for (const result of results) expect([201, 429]).toContain(result.statusCode);
      for (const [i, result] of results.entries()) {
        if (result.statusCode === 429) {
          const again = await processDemoAccount(limited, externals[i] as string);
          expect(again.statusCode).toBe(201);
        }
      }
    });
  });
});

await describeEachDialect('two instances sharing one database', (dialect) => {
  let first: TestService;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let secondDb: ReturnType<typeof connect>;

  beforeAll(async () => {
    first = await createTestService(dialect, { PROCESS_CONCURRENCY_LIMIT: '1' });
    secondDb = connect(first.config.databaseUrl);
    second = await buildApp({
      config: first.config,
      db: secondDb,
      tokenSecret: first.ctx.tokenSecret,
      platform: await livePlatformOf(secondDb),
    });
  });
  afterAll(async () => {
    await second.close();
    await secondDb.close();
    await first.destroy();
  });

  const send = (app: 'first' | 'second', external: string) =>
    (app === 'first' ? first.app : second).inject({
      method: 'POST',
      url: PATHS.process,
      headers: { authorization: `Token ${first.token}` },
      payload: demoProcessBody(external),
    });

  it('creates exactly one account when both instances race', async () => {
    await stageOk(first, 'I-RACE');
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(i % 2 === 0 ? 'first' : 'second', 'I-RACE')),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of responses) expect([201, 400, 409, 429]).toContain(r.statusCode);
    const accounts = await first.db.kysely
      .selectFrom('accounts')
      .select('id')
      .where('external_account_number', '=', 'I-RACE')
      .execute();
    expect(accounts).toHaveLength(1);
  });

  // PostgreSQL is where several instances run against one database; SQLite has one writer.
  if (dialect === 'postgres') {
    it('holds the concurrency limit across instances while a creation is under way', async () => {
      const externals = Array.from({ length: 8 }, (_, i) => `I-LIMIT-${i}`);
      for (const external of externals) await stageOk(first, external);
      // Block account creation so that the first claim stays in progress.
      const blocker = new pg.Client({ connectionString: first.config.databaseUrl });
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query('lock table accounts in exclusive mode');
      let settled = 0;
      const pending = externals.map((external, i) =>
        send(i % 2 === 0 ? 'first' : 'second', external).finally(() => settled++),
      );
      // All but the blocked holder must be answered before creation may go on.
      while (settled < externals.length - 1) await new Promise((resolve) => setImmediate(resolve));
      const inProgress = await first.db.kysely
        .selectFrom('import_processes')
        .select('external_account_number')
        .where('state', '=', 'in_progress')
        .execute();
      expect(inProgress).toHaveLength(1);
      const status = await Promise.all(
        externals.map((e) => first.request({ method: 'GET', url: PATHS.status('DEMO', e) })),
      );
      expect(status.filter((s) => s.json().status === 'IN_PROGRESS')).toHaveLength(1);
      await blocker.query('commit');
      await blocker.end();
      const responses = await Promise.all(pending);
      const codes = responses.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 429, 429, 429, 429, 429, 429, 429]);
      expect(responses.find((r) => r.statusCode === 429)?.headers['retry-after']).toBeDefined();
    });
  }
});

describe('config guard', () => {
  it('parses the lease and limit settings', () => {
    const config = loadConfig({ PROCESS_LEASE_SECONDS: '7', PROCESS_CONCURRENCY_LIMIT: '3' });
    expect(config.processLeaseSeconds).toBe(7);
    expect(config.processConcurrencyLimit).toBe(3);
  });
});
