/**
 * v1 and v2 on one account (docs/interface.md, "v1 and v2 together"): a v1 process meeting a
 * schedule in its course, a v1 stage while the account is scheduled, a skip mark while it is.
 */
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, markSkipped, processDemoAccount, useTestService } from '../helpers/app.js';
import {
  HOUR,
  V2,
  fromNow,
  schedule,
  scheduleRow,
  scheduled,
  setScheduleStatus,
  statusOf,
  teamAccount,
} from './v2.js';

await describeEachDialect('v1 and v2 on one account', (dialect) => {
  const service = useTestService(dialect);
  const stageV1 = (external: string, overrides: Record<string, unknown> = {}) =>
    service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: teamAccount(external, overrides),
    });
  const versionsOf = async (external: string) =>
    (
      await service.db.kysely
        .selectFrom('import_processes')
        .select('version')
        .where('external_account_number', '=', external)
        .executeTakeFirstOrThrow()
    ).version;

  describe('a v1 process', () => {
    it('is refused with 409 while the schedule is PENDING or IN_PROGRESS, dry run too', async () => {
      await scheduled(service, 'P-1');
      for (const extra of [{}, { dry_run: true }]) {
        const response = await processDemoAccount(service, 'P-1', extra);
        expect(response.statusCode).toBe(409);
        expect(response.json().code).toBe('account_import_scheduled');
      }
      await setScheduleStatus(service, 'P-1', 'IN_PROGRESS');
      const running = await processDemoAccount(service, 'P-1');
      expect(running.statusCode).toBe(409);
      expect(await scheduleRow(service, 'P-1')).toMatchObject({ status: 'IN_PROGRESS' });
    });

    it('creates the account once the schedule is cancelled or over', async () => {
      await scheduled(service, 'P-2');
      const cancelled = await service.request({ method: 'POST', url: V2.cancel('DEMO', 'P-2') });
      expect(cancelled.statusCode).toBe(200);
      const created = await processDemoAccount(service, 'P-2');
      expect(created.statusCode, created.body).toBe(201);
      expect((await statusOf(service, 'P-2')).json().status).toBe('CANCELLED');

      await scheduled(service, 'P-3');
      await setScheduleStatus(service, 'P-3', 'ERRORED');
      expect((await processDemoAccount(service, 'P-3')).statusCode).toBe(201);
    });

    it("shows in the v2 status the account it created after the schedule's end", async () => {
      await scheduled(service, 'P-4', { is_dry_run: true });
      await setScheduleStatus(service, 'P-4', 'DRY_RUN_SUCCEEDED');
      const created = await processDemoAccount(service, 'P-4');
      expect(created.statusCode, created.body).toBe(201);
      expect((await statusOf(service, 'P-4')).json()).toMatchObject({
        status: 'DRY_RUN_SUCCEEDED',
        service_identifier: created.json().service_account_number,
      });
    });
  });

  describe('a v1 stage', () => {
    it('replaces the data of a PENDING schedule and keeps its window', async () => {
      await scheduled(service, 'S-1', { schedule_window_start: fromNow(HOUR) });
      const before = await scheduleRow(service, 'S-1');
      const restaged = await stageV1('S-1', { billing_name: 'Ada King' });
      expect(restaged.statusCode).toBe(200);
      expect(Number(await versionsOf('S-1'))).toBe(2);
      expect(await scheduleRow(service, 'S-1')).toEqual(before);
    });

    it('is refused with 409 while a worker creates the account, as v2 scheduling is', async () => {
      await scheduled(service, 'S-2');
      await setScheduleStatus(service, 'S-2', 'IN_PROGRESS');
      const stage = await stageV1('S-2');
      expect(stage.statusCode).toBe(409);
      expect(stage.json().code).toBe('account_import_in_progress');
      const again = await schedule(service, teamAccount('S-2'));
      expect(again.statusCode).toBe(409);
      expect(Number(await versionsOf('S-2'))).toBe(1);
    });

    it("is taken once the worker's lease ran out, and a new schedule takes over", async () => {
      await scheduled(service, 'S-3');
      await setScheduleStatus(service, 'S-3', 'IN_PROGRESS', Date.now() - 1000);
      expect((await stageV1('S-3')).statusCode).toBe(200);
      const again = await schedule(service, teamAccount('S-3'));
      expect(again.statusCode, again.body).toBe(201);
      expect(await scheduleRow(service, 'S-3')).toMatchObject({
        status: 'PENDING',
        claim_id: null,
        lease_until: null,
      });
    });
  });

  describe('a skip mark', () => {
    it('shows on a PENDING schedule as its latest error, and refuses scheduling again', async () => {
      await scheduled(service, 'K-1');
      await markSkipped(service, 'K-1', 'duplicate');
      const status = (await statusOf(service, 'K-1')).json();
      expect(status).toMatchObject({
        status: 'PENDING',
        latest_error: { code: 'account_import_process_skipped', domain: 'SCHEDULING' },
      });
      const again = await schedule(service, teamAccount('K-1'));
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('account_import_process_skipped');
      const process = await processDemoAccount(service, 'K-1');
      expect(process.json().code).toBe('account_import_process_skipped');

      await service.db.kysely
        .deleteFrom('skip_marks')
        .where('external_account_number', '=', 'K-1')
        .execute();
      expect((await statusOf(service, 'K-1')).json().latest_error).toBeNull();
    });
  });
});
