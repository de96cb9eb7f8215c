/**
 * One account's timeline: the events v1 stage, process and the operator's skip marks write, as
 * GET /v2/data-import/accounts/{supplier}/{external}/events/ answers them.
 */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { addSkipMark, removeSkipMark } from '../../src/operator/skip-marks.service.js';
import { buildAccount, buildCustomer } from '../account/factory.js';
import { obtainToken } from '../helpers/auth.js';
import { PATHS, processDemoAccount, useTestService, updateSupplier } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { timeline as timelineOf, timelinePath } from '../helpers/events.js';

const SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

await describeEachDialect('account timeline', (dialect) => {
  const service = useTestService(dialect);

  const timeline = (external: string, supplier = 'DEMO') => timelineOf(service, external, supplier);

  const stage = (payload: Record<string, unknown>, requestId?: string) =>
    service.request({
      method: 'POST',
      url: PATHS.stage,
      payload,
      headers: requestId ? { 'x-request-id': requestId } : {},
    });

  it('holds a stage and a re-stage, with the request ids that caused them, oldest first', async () => {
    const payload = buildAccount({ external_account_number: 'T-1' });
    expect((await stage(payload, 'req-first')).statusCode).toBe(201);
    expect((await stage(payload, 'req-second')).statusCode).toBe(200);
    const events = await timeline('T-1');
    expect(events).toEqual([
      {
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED',
        occurred_at: expect.stringMatching(SECONDS),
        data: { version: 1, created: true },
        request_id: 'req-first',
      },
      {
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED',
        occurred_at: expect.stringMatching(SECONDS),
        data: { version: 2, created: false },
        request_id: 'req-second',
      },
    ]);
    const [first] = events;
    expect(Math.abs(Date.parse(first?.occurred_at ?? '') - Date.now())).toBeLessThan(60_000);
  });

  it('is served with and without its trailing slash', async () => {
    const path = timelinePath('DEMO', 'T-1');
    const bare = await service.request({ method: 'GET', url: path.slice(0, -1) });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual(await timeline('T-1'));
  });

  it('keeps the codes of a refused stage of an account never staged, never its payload', async () => {
    const secret = 'not-a-phone-0001';
    const payload = buildAccount({
      external_account_number: 'T-REFUSED',
      customers: [buildCustomer({ mobile: secret })],
    });
    const response = await stage(payload, 'req-refused');
    expect(response.statusCode).toBe(400);
    // Nothing was staged: the status knows nothing, the timeline knows why.
    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'T-REFUSED') });
    expect(status.statusCode).toBe(404);
    const events = await timeline('T-REFUSED');
    expect(events).toEqual([
      {
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
        occurred_at: expect.stringMatching(SECONDS),
        data: {
          code: 'account_failed_validation',
          errors: response
            .json<{ errors: { code: string; attr: string }[] }>()
            .errors.map(({ code, attr }) => ({ code, attr })),
        },
        request_id: 'req-refused',
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain('Lovelace');
  });

  it('records a stage refused for the supplier state, on an account staged before', async () => {
    await updateSupplier(service, 'DEMO', { status: 'Paused' });
    try {
      const response = await stage(buildAccount({ external_account_number: 'T-1' }));
      expect(response.statusCode).toBe(400);
    } finally {
      await updateSupplier(service, 'DEMO', { status: 'Ongoing' });
    }
    const last = (await timeline('T-1')).at(-1);
    expect(last).toMatchObject({
      event: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
      data: { code: 'import_supplier_migration_not_ongoing' },
    });
  });

  it('holds a dry run, a creation and a refused process request, each with its codes', async () => {
    const dry = await processDemoAccount(service, 'T-1', { dry_run: true });
    expect(dry.json()).toMatchObject({ code: 'dry_run_rolled_back' });
    const created = await processDemoAccount(service, 'T-1');
    expect(created.statusCode).toBe(201);
    const number = created.json<{ service_account_number: string }>().service_account_number;
    const again = await processDemoAccount(service, 'T-1');
    expect(again.statusCode).toBe(400);
    const dryAfter = await processDemoAccount(service, 'T-1', { dry_run: true });
    expect(dryAfter.statusCode).toBe(400);

    const events = (await timeline('T-1')).slice(3);
    expect(events.map((event) => [event.event, event.data])).toEqual([
      ['EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_SUCCEEDED', { via: 'v1' }],
      ['EVENT_ACCOUNT_IMPORT_PROCESS_COMPLETED', { service_account_number: number, via: 'v1' }],
      [
        'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
        expect.objectContaining({
          code: 'account_import_process_already_imported',
          detail: expect.stringContaining(number),
          via: 'v1',
        }),
      ],
      [
        'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED',
        expect.objectContaining({ code: 'account_import_process_already_imported', via: 'v1' }),
      ],
    ]);
    for (const event of events) expect(event.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(events.map((event) => event.request_id)).size).toBe(4);
  });

  it('records a refused process request of an account never staged', async () => {
    expect((await processDemoAccount(service, 'T-NEVER')).statusCode).toBe(400);
    expect(await timeline('T-NEVER')).toMatchObject([
      {
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
        data: { code: 'import_process_does_not_exist', via: 'v1' },
      },
    ]);
  });

  it('holds the operator skip marks (no request id) and the stage they refuse', async () => {
    await addSkipMark(service.db, 'DEMO', 'T-SKIP', 'duplicate');
    expect((await stage(buildAccount({ external_account_number: 'T-SKIP' }))).statusCode).toBe(400);
    await removeSkipMark(service.db, 'DEMO', 'T-SKIP');
    expect((await stage(buildAccount({ external_account_number: 'T-SKIP' }))).statusCode).toBe(201);
    const events = await timeline('T-SKIP');
    expect(events.map((event) => [event.event, event.data, event.request_id])).toEqual([
      ['EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_MARKED', { reason: 'duplicate' }, null],
      [
        'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
        { code: 'account_import_process_skipped', errors: [] },
        expect.any(String),
      ],
      ['EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_REMOVED', null, null],
      ['EVENT_ACCOUNT_IMPORT_PROCESS_STAGED', { version: 1, created: true }, expect.any(String)],
    ]);
  });

  it('answers 404 account_events_not_found for an account with no event', async () => {
    const response = await service.request({ method: 'GET', url: timelinePath('DEMO', 'NONE') });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'account_events_not_found' });
  });

  it('is refused without a token, and for a supplier not granted to the caller', async () => {
    const anonymous = await service.app.inject({ method: 'GET', url: timelinePath('DEMO', 'T-1') });
    expect(anonymous.statusCode).toBe(401);
    const other = await service.request({ method: 'GET', url: timelinePath('OTHER', 'T-1') });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'import_supplier_not_found' });
    const unknown = await service.request({ method: 'GET', url: timelinePath('NOPE', 'T-1') });
    expect(unknown.json()).toMatchObject({ code: 'import_supplier_not_found' });
  });

  it('answers 401 to a token whose organisation was disabled, on the timeline and the feed', async () => {
    const organisation = service.db.kysely
      .updateTable('organisations')
      .where('id', '=', service.organisationId);
    await organisation.set({ enabled: 0 }).execute();
    try {
      for (const url of [timelinePath('DEMO', 'T-1'), '/v2/data-import/events/DEMO/']) {
        const response = await service.request({ method: 'GET', url });
        expect(response.statusCode, url).toBe(401);
      }
      const badCursor = await service.request({
        method: 'GET',
        url: '/v2/data-import/events/DEMO/?after=x',
      });
      expect(badCursor.statusCode).toBe(401);
    } finally {
      await organisation.set({ enabled: 1 }).execute();
    }
  });

  it("keeps another organisation's refused stage out of the supplier it may not use", async () => {
    const before = await eventCount();
    const response = await stage(
      buildAccount({ external_account_number: 'T-OTHER', import_supplier: 'OTHER' }),
    );
    expect(response.json()).toMatchObject({ code: 'account_failed_validation' });
    expect(await eventCount()).toBe(before);
  });

  async function eventCount(): Promise<number> {
    const row = await service.db.kysely
      .selectFrom('account_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('answers 404 to another organisation, which is granted another supplier only', async () => {
    const { createOrganisation } = await import('../helpers/auth.js');
    const { apiKey } = await createOrganisation(service.db, 'partner', ['OTHER']);
    const { token } = await obtainToken(service.app, apiKey);
    const response = await service.app.inject({
      method: 'GET',
      url: timelinePath('DEMO', 'T-1'),
      headers: { authorization: `Token ${token}` },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'import_supplier_not_found' });
  });

  it('logs the code of a refused stage with its request id', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').trim().split('\n'));
        done();
      },
    });
    const app = await buildApp(service.ctx, { logger: { level: 'info', stream } });
    try {
      await app.inject({
        method: 'POST',
        url: PATHS.stage,
        headers: { authorization: `Token ${service.token}`, 'x-request-id': 'req-logged' },
        payload: buildAccount({ external_account_number: 'T-SKIP', billing_address: 'x' }),
      });
    } finally {
      await app.close();
    }
    const refused = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'request refused');
    expect(refused).toMatchObject({
      reqId: 'req-logged',
      code: 'account_failed_validation',
      errors: [{ code: expect.any(String), attr: 'billing_address' }],
    });
  });
});
