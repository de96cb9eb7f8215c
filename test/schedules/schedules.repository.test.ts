/**
 * The schedule write on its own: with its event atomically, and nothing at all when a worker
 * holds the schedule (the race between a stage and the schedule written after it).
 */
import { expect, it } from 'vitest';
import { scheduleWithEvent } from '../../src/schedules/schedules.repository.js';
import { describeEachDialect } from '../helpers/databases.js';
import { useTestService } from '../helpers/app.js';
import { HOUR, scheduleRow, scheduled, setScheduleStatus } from './v2.js';

await describeEachDialect('the schedule write', (dialect) => {
  const service = useTestService(dialect);

  const eventsOf = async (external: string) =>
    (
      await service.db.kysely
        .selectFrom('account_events')
        .select('event')
        .where('external_account_number', '=', external)
        .where('event', '=', 'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED')
        .execute()
    ).length;

  const write = (external: string, now = Date.now()) =>
    scheduleWithEvent(
      service.db,
      {
        supplierCode: 'DEMO',
        externalAccountNumber: external,
        isDryRun: true,
        windowStart: now,
        windowEnd: now + HOUR,
        teamId: 1,
        now,
      },
      { data: { is_dry_run: true }, requestId: 'req-1' },
    );

  it('writes nothing while a worker holds the schedule, and takes over a lapsed claim', async () => {
    await scheduled(service, 'W-1');
    await setScheduleStatus(service, 'W-1', 'IN_PROGRESS');
    expect(await write('W-1')).toBe(false);
    expect(await eventsOf('W-1')).toBe(1);
    expect(await scheduleRow(service, 'W-1')).toMatchObject({
      status: 'IN_PROGRESS',
      is_dry_run: 0,
    });

    await setScheduleStatus(service, 'W-1', 'IN_PROGRESS', Date.now() - 1);
    expect(await write('W-1')).toBe(true);
    expect(await eventsOf('W-1')).toBe(2);
    expect(await scheduleRow(service, 'W-1')).toMatchObject({
      status: 'PENDING',
      is_dry_run: 1,
      claim_id: null,
    });
  });

  it('writes nothing for an account never staged', async () => {
    expect(await write('W-NONE')).toBe(false);
    expect(await scheduleRow(service, 'W-NONE')).toBeUndefined();
    expect(await eventsOf('W-NONE')).toBe(0);
  });
});
