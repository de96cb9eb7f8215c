/**
 * v2 scheduling over HTTP: schedule (validated and staged as a v1 stage, then scheduled),
 * validate, status and cancel, with their refusals.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WINDOW_AHEAD_MS } from '../../src/account/cross/task-windows.js';
import { cancelPending } from '../../src/schedules/schedules.repository.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  markSkipped,
  PATHS,
  processDemoAccount,
  rowCounts,
  useTestService,
} from '../helpers/app.js';
import { HAS_REFERENCE, publishedFullAccount } from '../account/reference.js';
import { buildCustomer } from '../account/factory.js';
import { eventCount, expectLastEvent } from '../helpers/events.js';
import {
  DAY,
  HOUR,
  V2,
  errorsOf,
  fromNow,
  schedule,
  scheduleRow,
  scheduled,
  setScheduleStatus,
  statusOf,
  teamAccount,
} from './v2.js';

await describeEachDialect('v2 scheduling', (dialect) => {
  const service = useTestService(dialect);

  describe.skipIf(!HAS_REFERENCE)('the published full account', () => {
    it('is staged and scheduled with the default window, and its status says PENDING', async () => {
      const account: Record<string, unknown> = {
        ...publishedFullAccount('DEMO'),
        operations_team_name: 'Migrations',
      };
      const external = account.external_account_number as string;
      const before = Date.now();
      const response = await schedule(service, account);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({
        import_supplier_code: 'DEMO',
        external_account_number: external,
        status: 'PENDING',
      });

      const row = await scheduleRow(service, external);
      const team = await service.db.kysely
        .selectFrom('operations_teams')
        .select('id')
        .where('name', '=', 'Migrations')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'PENDING', is_dry_run: 0 });
      expect(Number(row?.team_id)).toBe(Number(team.id));
      // Default window: from now to the latest end allowed (whole seconds).
      expect(Number(row?.window_start)).toBeGreaterThanOrEqual(before - 1000);
      expect(Number(row?.window_start)).toBeLessThanOrEqual(Date.now());
      expect(Number(row?.window_end) - Number(row?.window_start)).toBe(MAX_WINDOW_AHEAD_MS);
      expect(Number(row?.window_start) % 1000).toBe(0);

      // Staged as v1 stages: the v1 status knows it, not created yet.
      const v1 = await service.request({ method: 'GET', url: PATHS.status('DEMO', external) });
      expect(v1.json()).toMatchObject({ status: 'UNKNOWN', service_account_number: '' });

      const status = await statusOf(service, external);
      expect(status.statusCode).toBe(200);
      const body = status.json();
      expect(body).toMatchObject({
        status: 'PENDING',
        service_identifier: null,
        latest_error: null,
        latest_event: {
          event: 'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED',
          data: { is_dry_run: false },
        },
      });
      expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // The defaults are datetimes the service writes: whole seconds, UTC.
      for (const bound of ['schedule_window_start', 'schedule_window_end']) {
        expect(body.latest_event.data[bound]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
    });
  });

  describe('the window', () => {
    it.each([
      ['schedule_window_start_in_past', { schedule_window_start: fromNow(-HOUR) }, 'start'],
      ['schedule_window_end_too_far_in_future', { schedule_window_end: fromNow(5 * DAY) }, 'end'],
      [
        'schedule_window_start__after_end',
        { schedule_window_start: fromNow(2 * HOUR), schedule_window_end: fromNow(HOUR) },
        'start',
      ],
    ])('%s is refused, nothing stored', async (code, taskParams, bound) => {
      const counts = await rowCounts(service.db);
      const response = await schedule(service, teamAccount('W-1'), taskParams);
      expect(errorsOf(response)).toEqual([{ attr: `task_params.schedule_window_${bound}`, code }]);
      expect(await rowCounts(service.db)).toEqual(counts);
    });

    it('takes a start a few seconds old (clock skew), an end 4 days ahead and a dry run', async () => {
      const response = await schedule(service, teamAccount('W-2'), {
        schedule_window_start: fromNow(-10_000),
        schedule_window_end: fromNow(4 * DAY),
        is_dry_run: true,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(await scheduleRow(service, 'W-2')).toMatchObject({ is_dry_run: 1 });
    });

    it('refuses a malformed bound and an unknown parameter with their field errors', async () => {
      const response = await schedule(service, teamAccount('W-3'), {
        schedule_window_end: 'tomorrow',
        window: 1,
      });
      expect(errorsOf(response)).toEqual([
        { attr: 'task_params.schedule_window_end', code: 'invalid_datetime' },
        { attr: 'task_params.window', code: 'unknown_field' },
      ]);
    });
  });

  it('answers 400 with every error of the body, account errors under payload.', async () => {
    const counts = await rowCounts(service.db);
    const account = teamAccount('E-1', {
      operations_team_name: 'Nobody',
      customers: [buildCustomer({ email: 'not-an-email' })],
    });
    const response = await service.request({
      method: 'POST',
      url: V2.schedule,
      payload: { payload: account, task_params: { schedule_window_start: fromNow(-DAY) }, x: 1 },
    });
    expect(response.json().code).toBe('account_failed_validation');
    expect(errorsOf(response)).toEqual([
      { attr: 'payload.customers.0.email', code: 'invalid_email' },
      { attr: 'payload.operations_team_name', code: 'operations_team_name_does_not_exist' },
      { attr: 'x', code: 'unknown_field' },
      { attr: 'task_params.schedule_window_start', code: 'schedule_window_start_in_past' },
    ]);
    expect(await rowCounts(service.db)).toEqual(counts);
  });

  it('records a schedule refused for its window or team on the account, never staged or not', async () => {
    const response = await schedule(
      service,
      teamAccount('E-2', { operations_team_name: 'Nobody' }),
      {
        schedule_window_start: fromNow(-DAY),
      },
    );
    expect(response.statusCode).toBe(400);
    await expectLastEvent(
      service,
      'E-2',
      'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
      {
        code: 'account_failed_validation',
        errors: [
          { attr: 'payload.operations_team_name', code: 'operations_team_name_does_not_exist' },
          { attr: 'task_params.schedule_window_start', code: 'schedule_window_start_in_past' },
        ],
      },
      response,
    );
    // A supplier the caller may not use leaves nothing to read it on.
    const events = await eventCount(service);
    const elsewhere = await schedule(service, teamAccount('E-3', { import_supplier: 'NOPE' }), {
      schedule_window_start: fromNow(-DAY),
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(await eventCount(service)).toBe(events);
  });

  it('records a schedule refused for its account alone with the fields as answered', async () => {
    const account = teamAccount('E-4', { customers: [buildCustomer({ email: 'not-an-email' })] });
    const response = await schedule(service, account, {});
    expect(errorsOf(response)).toEqual([
      { attr: 'payload.customers.0.email', code: 'invalid_email' },
    ]);
    await expectLastEvent(
      service,
      'E-4',
      'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
      {
        code: 'account_failed_validation',
        errors: [{ attr: 'payload.customers.0.email', code: 'invalid_email' }],
      },
      response,
    );
  });

  it('answers the skip mark, not the data, for an account marked to be skipped', async () => {
    await markSkipped(service, 'E-5', 'bad data');
    const account = teamAccount('E-5', { customers: [buildCustomer({ email: 'not-an-email' })] });
    const response = await schedule(service, account, {});
    expect([response.statusCode, response.json().code]).toEqual([
      400,
      'account_import_process_skipped',
    ]);
  });

  it('reports U+0000 in the account or the task parameters as field errors', async () => {
    const response = await schedule(
      service,
      teamAccount('N-1', { operations_team_name: 'A\u0000' }),
      {
        schedule_window_end: '\u0000',
      },
    );
    expect(errorsOf(response)).toEqual([
      { attr: 'payload.operations_team_name', code: 'invalid_character' },
      { attr: 'task_params.schedule_window_end', code: 'invalid_datetime' },
    ]);
    expect(await scheduleRow(service, 'N-1')).toBeUndefined();
  });

  // No team can be found for these, and the team lookup leaves the reason to the account's
  // validation: the answer is the account's own error, never a failure of the service.
  it.each([
    [
      'an unknown supplier',
      { import_supplier: 'NOPE', operations_team_name: undefined },
      ['import_supplier', 'import_supplier_not_found'],
    ],
    [
      'no supplier',
      { import_supplier: undefined, operations_team_name: undefined },
      ['import_supplier', 'required'],
    ],
    ['a team name of null', { operations_team_name: null }, ['operations_team_name', 'null']],
    [
      'a team name that is no text',
      { operations_team_name: 5 },
      ['operations_team_name', 'invalid_type'],
    ],
    [
      'U+0000 in the team name alone',
      { operations_team_name: 'Migr\u0000ations' },
      ['operations_team_name', 'invalid_character'],
    ],
  ])('refuses an account with %s by its own error, nothing stored', async (_, overrides, error) => {
    const counts = await rowCounts(service.db);
    const response = await schedule(service, teamAccount('TU-1', overrides));
    expect(response.json().code).toBe('account_failed_validation');
    expect(errorsOf(response)).toEqual([{ attr: `payload.${error[0]}`, code: error[1] }]);
    expect(await rowCounts(service.db)).toEqual(counts);
  });

  it('reads a blank window bound as one left out: the default window', async () => {
    const response = await schedule(service, teamAccount('W-4'), {
      schedule_window_start: '',
      schedule_window_end: '  ',
    });
    expect(response.statusCode, response.body).toBe(201);
    const row = await scheduleRow(service, 'W-4');
    expect(Number(row?.window_end) - Number(row?.window_start)).toBe(MAX_WINDOW_AHEAD_MS);
  });

  it('refuses a body without its parts', async () => {
    const response = await service.request({ method: 'POST', url: V2.schedule, payload: {} });
    expect(errorsOf(response)).toEqual([
      { attr: 'payload', code: 'required' },
      { attr: 'task_params', code: 'required' },
    ]);
    const notObject = await service.request({ method: 'POST', url: V2.schedule, payload: [] });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json().code).toBe('malformed_request');
  });

  it('refuses an account naming no team when its supplier allocates none', async () => {
    const account = teamAccount('T-1');
    delete account.operations_team_name;
    expect(errorsOf(await schedule(service, account))).toEqual([
      { attr: 'payload.operations_team_name', code: 'operations_team_should_be_provided' },
    ]);
  });

  it("takes the supplier's auto-allocation team when the account names none", async () => {
    const { id } = await service.db.kysely
      .insertInto('operations_teams')
      .values({ name: 'Auto', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await service.db.kysely
      .updateTable('import_suppliers')
      .set({ rule_settings: JSON.stringify({ auto_allocation_team: 'Auto' }) })
      .where('code', '=', 'DEMO')
      .execute();
    try {
      const account = teamAccount('T-2');
      delete account.operations_team_name;
      const response = await schedule(service, account);
      expect(response.statusCode, response.body).toBe(201);
      expect(Number((await scheduleRow(service, 'T-2'))?.team_id)).toBe(Number(id));
    } finally {
      await service.db.kysely
        .updateTable('import_suppliers')
        .set({ rule_settings: '{}' })
        .where('code', '=', 'DEMO')
        .execute();
    }
  });

  it('re-scheduling a PENDING account replaces its data and window', async () => {
    await scheduled(service, 'R-1', { schedule_window_start: fromNow(HOUR) });
    const first = await scheduleRow(service, 'R-1');
    const again = await schedule(service, teamAccount('R-1', { billing_name: 'Ada King' }), {
      schedule_window_start: fromNow(2 * HOUR),
      schedule_window_end: fromNow(3 * HOUR),
    });
    expect(again.statusCode, again.body).toBe(201);
    const second = await scheduleRow(service, 'R-1');
    expect(second?.process_id).toBe(first?.process_id);
    expect(Number(second?.window_start)).toBeGreaterThan(Number(first?.window_start));
    expect(Number(second?.window_end) - Number(second?.window_start)).toBeLessThan(2 * HOUR);
    const versions = await service.db.kysely
      .selectFrom('import_process_versions as v')
      .innerJoin('import_processes as p', 'p.id', 'v.process_id')
      .select(['v.version', 'v.data'])
      .where('p.external_account_number', '=', 'R-1')
      .orderBy('v.version')
      .execute();
    expect(versions.map((v) => Number(v.version))).toEqual([1, 2]);
    expect(JSON.parse(versions[1]?.data ?? '{}').billing_name).toBe('Ada King');
    const events = await service.db.kysely
      .selectFrom('account_events')
      .select('event')
      .where('external_account_number', '=', 'R-1')
      .where('event', '=', 'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED')
      .execute();
    expect(events).toHaveLength(2);
  });

  it('refuses an account already imported, as v1 does', async () => {
    const stage = await service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: teamAccount('I-1'),
    });
    expect(stage.statusCode).toBe(201);
    const created = await processDemoAccount(service, 'I-1');
    expect(created.statusCode, created.body).toBe(201);
    const response = await schedule(service, teamAccount('I-1'));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'account_import_process_already_imported',
      service_account_number: created.json().service_account_number,
    });
    expect(await scheduleRow(service, 'I-1')).toBeUndefined();
  });

  describe('validate', () => {
    it('answers 200 without a body for a valid account, and stores nothing', async () => {
      const counts = await rowCounts(service.db);
      const response = await service.request({
        method: 'POST',
        url: V2.validate,
        payload: { payload: teamAccount('V-1') },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe('');
      expect(await rowCounts(service.db)).toEqual(counts);
    });

    it('answers 400 with every error, under payload.', async () => {
      const account = teamAccount('V-2', {
        customers: [buildCustomer({ email: 'nope', mobile: '12' })],
      });
      const response = await service.request({
        method: 'POST',
        url: V2.validate,
        payload: { payload: account, task_params: {} },
      });
      expect(errorsOf(response)).toEqual([
        { attr: 'payload.customers.0.email', code: 'invalid_email' },
        { attr: 'payload.customers.0.mobile', code: 'invalid_phone_number' },
        { attr: 'task_params', code: 'unknown_field' },
      ]);
    });

    it('checks the team as scheduling does', async () => {
      const validate = (account: Record<string, unknown>) =>
        service.request({ method: 'POST', url: V2.validate, payload: { payload: account } });
      const unknown = teamAccount('V-3', { operations_team_name: 'Nobody' });
      expect(errorsOf(await validate(unknown))).toEqual([
        { attr: 'payload.operations_team_name', code: 'operations_team_name_does_not_exist' },
      ]);
      const none = teamAccount('V-3');
      delete none.operations_team_name;
      expect(errorsOf(await validate(none))).toEqual([
        { attr: 'payload.operations_team_name', code: 'operations_team_should_be_provided' },
      ]);
    });
  });

  describe('status', () => {
    it('is 404 for an account staged but never scheduled, and for one never staged', async () => {
      await service.request({ method: 'POST', url: PATHS.stage, payload: teamAccount('S-1') });
      const staged = await statusOf(service, 'S-1');
      expect(staged.statusCode).toBe(404);
      expect(staged.json().code).toBe('import_schedule_does_not_exist');
      const never = await statusOf(service, 'S-NONE');
      expect(never.statusCode).toBe(404);
      expect(never.json().code).toBe('import_process_does_not_exist');
    });

    it("shows the worker's outcome: created account, error and its domain", async () => {
      await scheduled(service, 'S-2');
      await service.db.kysely
        .updateTable('creation_schedules')
        .set({
          status: 'ERRORED',
          error_code: 'window_closed',
          error_detail: 'Not started in its window.',
          error_domain: 'SCHEDULING',
          modified_at: Date.now() + 5000,
        })
        .where('external_account_number', '=', 'S-2')
        .execute();
      const body = (await statusOf(service, 'S-2')).json();
      expect(body).toMatchObject({
        status: 'ERRORED',
        latest_error: {
          code: 'window_closed',
          detail: 'Not started in its window.',
          domain: 'SCHEDULING',
        },
      });
      expect(body.modified_at > body.created_at).toBe(true);
    });

    it("is 404 for another organisation's supplier, and works without the trailing slash", async () => {
      const other = await statusOf(service, 'S-2', 'OTHER');
      expect(other.statusCode).toBe(404);
      expect(other.json().code).toBe('import_supplier_not_found');
      const bare = await service.request({
        method: 'GET',
        url: V2.status('DEMO', 'S-2').replace(/\/$/, ''),
      });
      expect(bare.statusCode).toBe(200);
    });

    it('refuses to schedule for a supplier of another organisation', async () => {
      const response = await schedule(service, teamAccount('O-1', { import_supplier: 'OTHER' }));
      expect(errorsOf(response)).toContainEqual({
        attr: 'payload.import_supplier',
        code: 'import_supplier_not_found',
      });
    });
  });

  describe('cancel', () => {
    const cancel = (external: string) =>
      service.request({ method: 'POST', url: V2.cancel('DEMO', external) });

    it('cancels a PENDING schedule; the account stays staged and can be scheduled again', async () => {
      await scheduled(service, 'C-1');
      const response = await cancel('C-1');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'CANCELLED',
        latest_event: { event: 'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED' },
      });
      const again = await cancel('C-1');
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('import_schedule_not_cancellable');
      await scheduled(service, 'C-1');
      expect((await statusOf(service, 'C-1')).json().status).toBe('PENDING');
    });

    it('refuses an IN_PROGRESS schedule with 409 and leaves it', async () => {
      await scheduled(service, 'C-2');
      await setScheduleStatus(service, 'C-2', 'IN_PROGRESS');
      const response = await cancel('C-2');
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('account_import_in_progress');
      expect((await scheduleRow(service, 'C-2'))?.status).toBe('IN_PROGRESS');
    });

    it('cancels nothing for a caller no longer allowed when it writes', async () => {
      await scheduled(service, 'C-3');
      const row = await scheduleRow(service, 'C-3');
      const { key_version: keyVersion } = await service.db.kysely
        .selectFrom('organisations')
        .select('key_version')
        .where('id', '=', service.organisationId)
        .executeTakeFirstOrThrow();
      const caller = { organisationId: service.organisationId, keyVersion, supplierCode: 'DEMO' };
      const cancelAs = (who: typeof caller) =>
        cancelPending(service.db.kysely, Number(row?.process_id), Date.now(), who);
      // A key rotated, or the supplier not granted, between the lookup and the write.
      expect(await cancelAs({ ...caller, keyVersion: Number(keyVersion) + 1 })).toBe(false);
      expect(await cancelAs({ ...caller, supplierCode: 'OTHER' })).toBe(false);
      expect((await scheduleRow(service, 'C-3'))?.status).toBe('PENDING');
      expect(await cancelAs(caller)).toBe(true);
      expect((await scheduleRow(service, 'C-3'))?.status).toBe('CANCELLED');
    });

    it('is 404 for an account never scheduled and for another organisation', async () => {
      expect((await cancel('C-NONE')).statusCode).toBe(404);
      const other = await service.request({ method: 'POST', url: V2.cancel('OTHER', 'C-1') });
      expect(other.statusCode).toBe(404);
    });
  });

  it('refuses a request without a token', async () => {
    const response = await service.app.inject({ method: 'GET', url: V2.status('DEMO', 'X') });
    expect(response.statusCode).toBe(401);
  });
});

await describeEachDialect('v2 scheduling of a large account', (dialect) => {
  const service = useTestService(dialect);

  it('validates and schedules an account over 64 KiB (the large-body path) alike', async () => {
    const large = teamAccount('L-1', { billing_name: 'x'.repeat(70_000) });
    const refused = await service.request({
      method: 'POST',
      url: V2.validate,
      payload: { payload: large },
    });
    expect(errorsOf(refused)).toEqual([{ attr: 'payload.billing_name', code: 'max_length' }]);
    const metadata = Array.from({ length: 10 }, (_, i) => ({
      key: `k${i}`,
      value: 'z'.repeat(8_000),
    }));
    const response = await schedule(service, teamAccount('L-1', { metadata }));
    expect(response.statusCode, response.body).toBe(201);
    expect((await scheduleRow(service, 'L-1'))?.status).toBe('PENDING');
  });
});
