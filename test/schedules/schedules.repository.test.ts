/**
 * The schedule written with its account's stage (SCHEDULE_WITH_STAGE): both or neither, the
 * stage's event before the schedule's, and nothing of the schedule when a worker claimed it
 * after the stage's guard let the stage through.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  companionWrite,
  stageProcess,
  type StageRequest,
} from '../../src/imports/staging/staging.repository.js';
import {
  SCHEDULE_WITH_STAGE,
  type ScheduleValues,
} from '../../src/schedules/schedules.repository.js';
import type { Executor } from '../../src/db/database.js';
import { buildAccount } from '../account/factory.js';
import { describeEachDialect } from '../helpers/databases.js';
import { useTestService } from '../helpers/app.js';
import { HOUR, scheduleRow, scheduled, setScheduleStatus } from './v2.js';

await describeEachDialect('the schedule written with a stage', (dialect) => {
  const service = useTestService(dialect);

  const eventsOf = async (external: string) =>
    (
      await service.db.kysely
        .selectFrom('account_events')
        .select('event')
        .where('external_account_number', '=', external)
        .orderBy('id')
        .execute()
    ).map((row) => row.event.replace('EVENT_ACCOUNT_IMPORT_PROCESS_', ''));

  /** A stage of the account straight through the statement, with a dry-run schedule. */
  async function stageRequest(external: string): Promise<StageRequest> {
    const supplier = await service.db.kysely
      .selectFrom('import_suppliers')
      .select(['id', 'code', 'phone_region', 'rule_settings'])
      .where('code', '=', 'DEMO')
      .executeTakeFirstOrThrow();
    const now = Date.now();
    return {
      supplier,
      externalAccountNumber: external,
      data: JSON.stringify(buildAccount({ external_account_number: external })),
      checkedWith: null,
      organisationId: service.organisationId,
      keyVersion: 1,
      now,
      requestId: 'req-1',
      companion: companionWrite(SCHEDULE_WITH_STAGE, {
        scheduleIsDryRun: 1,
        windowStart: now,
        windowEnd: now + HOUR,
        teamId: 1,
        scheduledData: JSON.stringify({ is_dry_run: true }),
      }),
    };
  }

  /** Returns once another connection's statement waits for a row lock. */
  async function untilAStatementWaitsForALock(db: Executor): Promise<void> {
    for (;;) {
      // pg_locks is read live; pg_stat_activity would be read once per transaction.
      const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting
        from pg_locks where not granted`.execute(db);
      if ((rows[0]?.waiting ?? 0) > 0) return;
    }
  }

  it('writes the stage and its schedule together, the stage first in the log', async () => {
    const outcome = await stageProcess(service.db, await stageRequest('W-NEW'));
    expect(outcome).toMatchObject({ version: 1, companionWrote: true });
    expect(await scheduleRow(service, 'W-NEW')).toMatchObject({ status: 'PENDING', is_dry_run: 1 });
    expect(await eventsOf('W-NEW')).toEqual(['STAGED', 'SCHEDULED']);
  });

  it('writes neither while a worker holds the schedule, and takes over a lapsed claim', async () => {
    await scheduled(service, 'W-1');
    await setScheduleStatus(service, 'W-1', 'IN_PROGRESS');
    expect(await stageProcess(service.db, await stageRequest('W-1'))).toBeUndefined();
    expect(await eventsOf('W-1')).toEqual(['STAGED', 'SCHEDULED']);
    expect(await scheduleRow(service, 'W-1')).toMatchObject({
      status: 'IN_PROGRESS',
      is_dry_run: 0,
    });

    await setScheduleStatus(service, 'W-1', 'IN_PROGRESS', Date.now() - 1);
    const outcome = await stageProcess(service.db, await stageRequest('W-1'));
    expect(outcome).toMatchObject({ version: 2, companionWrote: true });
    expect(await eventsOf('W-1')).toEqual(['STAGED', 'SCHEDULED', 'STAGED', 'SCHEDULED']);
    expect(await scheduleRow(service, 'W-1')).toMatchObject({
      status: 'PENDING',
      is_dry_run: 1,
      claim_id: null,
    });
  });

  it('keeps the stage but writes no schedule when a worker claims it after the guard', async () => {
    await scheduled(service, 'W-RACE');
    const request = await stageRequest('W-RACE');
    const claim = (db: Executor) =>
      db
        .updateTable('creation_schedules')
        .set({ status: 'IN_PROGRESS', lease_until: Date.now() + HOUR, claim_id: 'w-1' })
        .where('external_account_number', '=', 'W-RACE')
        .execute();
    if (dialect === 'sqlite') {
      // One writer: a claim can only come between the stage's statements, in its savepoint.
      const processId = Number((await scheduleRow(service, 'W-RACE'))?.process_id);
      const values = {
        ...(request.companion?.values as ScheduleValues),
        supplierId: request.supplier.id,
        external: 'W-RACE',
        now: request.now,
        requestId: 'req-1',
      };
      const events = await service.db.storage.atomicWrite(service.db.kysely, async (trx) => {
        await claim(trx);
        return SCHEDULE_WITH_STAGE.sqlite(trx, { id: processId, version: 2 }, values);
      });
      expect(events).toBeUndefined();
    } else {
      // A worker's claim holds the schedule's row while the stage statement runs: the stage's
      // guard sees it PENDING, and its upsert waits for the row, then finds it claimed.
      // The stage is awaited once the claim commits: wrapped, or the transaction would wait for it.
      const { staging } = await service.db.kysely.transaction().execute(async (trx) => {
        await claim(trx);
        const pending = { staging: stageProcess(service.db, request) };
        await untilAStatementWaitsForALock(trx);
        return pending;
      });
      const staged = await staging;
      expect(staged).toMatchObject({ version: 2, companionWrote: false });
    }
    expect(await scheduleRow(service, 'W-RACE')).toMatchObject({ status: 'IN_PROGRESS' });
    const events = await eventsOf('W-RACE');
    expect(events.filter((event) => event === 'SCHEDULED')).toHaveLength(1);
  });
});
