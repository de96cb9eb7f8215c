/**
 * The queue under the workers: fairness between suppliers, leases taken over, a stale worker
 * that cannot complete, pools in parallel creating each account once, and the concurrency limit.
 */
import { afterAll, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { claimStagedProcess } from '../../src/imports/creation/creation.repository.js';
import { runSchedule } from '../../src/schedules/worker/schedule-creation.js';
import {
  claimDue,
  type ClaimedSchedule,
} from '../../src/schedules/worker/schedule-queue.repository.js';
import { SchedulePool } from '../../src/schedules/worker/schedule-pool.js';
import { describeEachDialect } from '../helpers/databases.js';
import { addGrantedSupplier, useTestService, type TestService } from '../helpers/app.js';
import {
  accountCount,
  drain,
  eventNames,
  newClaimId,
  poolOf,
  scheduleAccount,
  scheduleRow,
  TEST_POOL,
} from './worker-helpers.js';

/** Claims the schedule as a worker that then dies: its lease has already run out. */
async function claimAsDeadWorker(service: TestService): Promise<ClaimedSchedule> {
  const now = Date.now();
  const [claimed] = await claimDue(service.db, {
    claimId: newClaimId(),
    now,
    leaseUntil: now - 1,
    batch: 1,
  });
  if (!claimed) throw new Error('nothing was due');
  return claimed;
}

await describeEachDialect('schedule queue', (dialect) => {
  const service = useTestService(dialect);

  it("serves a supplier's one schedule in the first round, whatever another supplier has queued", async () => {
    await drain(poolOf(service));
    await addGrantedSupplier(service, 'FAIRB');
    const early = Date.now() - 600_000;
    for (let i = 0; i < 12; i++) {
      await scheduleAccount(service, `BUSY-${i}`, { windowStart: early + i });
    }
    // Its window opened last of all: by age alone it would wait for all twelve.
    const lone = await scheduleAccount(service, 'LONE-1', { supplier: 'FAIRB' });
    const pool = poolOf(service, { concurrency: 2 });
    const first = await pool.round();
    expect(first.claimed).toBe(2);
    expect(await scheduleRow(service.db, lone)).toMatchObject({ status: 'PROCESSED' });
    const busyDone = await service.db.kysely
      .selectFrom('creation_schedules')
      .select('external_account_number')
      .where('status', '=', 'PROCESSED')
      .where('external_account_number', 'like', 'BUSY-%')
      .execute();
    // The busy supplier's oldest window went with it.
    expect(busyDone.map((row) => row.external_account_number)).toEqual(['BUSY-0']);
    expect(await drain(pool)).toBe(11);
  });

  it('takes over a schedule whose worker died, and finishes it once', async () => {
    await drain(poolOf(service));
    const id = await scheduleAccount(service, 'LEASE-1');
    const dead = await claimAsDeadWorker(service);
    expect(dead.processId).toBe(id);
    // The dead worker had claimed the process too, under the same lease.
    await claimStagedProcess(service.db, {
      processId: dead.processId,
      claimId: dead.claimId,
      now: Date.now(),
      leaseUntil: dead.leaseUntil,
      limit: 0,
    });
    const before = await accountCount(service.db);
    expect(await drain(poolOf(service))).toBe(1);
    expect(await scheduleRow(service.db, id)).toMatchObject({ status: 'PROCESSED', attempts: 2 });
    expect(await accountCount(service.db)).toBe(before + 1);
    expect(await eventNames(service.db, 'DEMO', 'LEASE-1')).toEqual([
      'STARTED',
      'STARTED',
      'COMPLETED',
    ]);
  });

  it('writes nothing for a worker overtaken after its lease ran out', async () => {
    await drain(poolOf(service));
    const id = await scheduleAccount(service, 'STALE-1');
    const stale = await claimAsDeadWorker(service);
    // Another worker takes it over but has not created it yet.
    const now = Date.now();
    const [fresh] = await claimDue(service.db, {
      claimId: newClaimId(),
      now,
      leaseUntil: now + 60_000,
      batch: 1,
    });
    expect(fresh?.processId).toBe(id);
    const before = await accountCount(service.db);

    // The stale worker wakes up and runs its creation to the end: its account is rolled back
    // with the schedule's completion, and the schedule stays with the new holder.
    expect(await runSchedule(service.ctx, stale)).toBe('deferred');
    expect(await accountCount(service.db)).toBe(before);
    expect(await scheduleRow(service.db, id)).toMatchObject({
      status: 'IN_PROGRESS',
      claim_id: fresh?.claimId,
    });
    const process = await service.db.kysely
      .selectFrom('import_processes')
      .select(['state', 'claim_id'])
      .where('id', '=', stale.processId)
      .executeTakeFirstOrThrow();
    expect(process).toEqual({ state: 'pending', claim_id: null });

    if (!fresh) throw new Error('not taken over');
    expect(await runSchedule(service.ctx, fresh)).toBe('ended');
    expect(await scheduleRow(service.db, id)).toMatchObject({ status: 'PROCESSED', attempts: 2 });
    expect(await accountCount(service.db)).toBe(before + 1);
    // Once it ended, the stale worker cannot end it again.
    expect(await runSchedule(service.ctx, stale)).toBe('ended');
    expect(await scheduleRow(service.db, id)).toMatchObject({ status: 'PROCESSED' });
    expect(await eventNames(service.db, 'DEMO', 'STALE-1')).toEqual([
      'STARTED',
      'STARTED',
      'COMPLETED',
    ]);
  });

  it('creates each account exactly once with two pools on two connections at once', async () => {
    await drain(poolOf(service));
    const count = 40;
    for (let i = 0; i < count; i++) await scheduleAccount(service, `PAR-${i}`);
    const before = await accountCount(service.db);
    const otherDb = connect(service.config.databaseUrl);
    try {
      const one = new SchedulePool(service.ctx, { ...TEST_POOL, concurrency: 3 });
      const two = new SchedulePool(
        { ...service.ctx, db: otherDb },
        { ...TEST_POOL, concurrency: 3 },
      );
      const [a, b] = await Promise.all([drain(one), drain(two)]);
      expect(a + b).toBe(count);
    } finally {
      await otherDb.close();
    }
    expect(await accountCount(service.db)).toBe(before + count);
    const rows = await service.db.kysely
      .selectFrom('creation_schedules')
      .select(['status', 'attempts'])
      .where('external_account_number', 'like', 'PAR-%')
      .execute();
    expect(rows).toHaveLength(count);
    expect(rows.every((row) => row.status === 'PROCESSED' && Number(row.attempts) === 1)).toBe(
      true,
    );
    const completed = await service.db.kysely
      .selectFrom('account_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event', '=', 'EVENT_ACCOUNT_IMPORT_PROCESS_COMPLETED')
      .where('external_account_number', 'like', 'PAR-%')
      .executeTakeFirstOrThrow();
    expect(Number(completed.n)).toBe(count);
  });
});

await describeEachDialect('schedule queue under the concurrency limit', (dialect) => {
  const service = useTestService(dialect, { PROCESS_CONCURRENCY_LIMIT: '1' });
  const pools: SchedulePool[] = [];
  afterAll(() => Promise.all(pools.map((pool) => pool.stop())));

  it('defers a creation while the limit is reached, and creates it once a slot is free', async () => {
    // A process request holds the one slot: its claim is live.
    await scheduleAccount(service, 'HOLDER', { windowStart: Date.now() + 3_600_000 });
    const holder = await service.db.kysely
      .selectFrom('import_processes')
      .select('id')
      .where('external_account_number', '=', 'HOLDER')
      .executeTakeFirstOrThrow();
    const holdingClaim = newClaimId();
    const held = await claimStagedProcess(service.db, {
      processId: holder.id,
      claimId: holdingClaim,
      now: Date.now(),
      leaseUntil: Date.now() + 600_000,
      limit: 1,
    });
    expect(held).toBeDefined();

    const id = await scheduleAccount(service, 'LIMITED-1');
    const pool = poolOf(service);
    expect(await pool.round()).toMatchObject({ claimed: 1, deferred: 1 });
    expect(await scheduleRow(service.db, id)).toMatchObject({
      status: 'PENDING',
      claim_id: null,
      attempts: 1,
    });

    await service.db.kysely
      .updateTable('import_processes')
      .set({ state: 'pending', claim_id: null, lease_until: null })
      .where('id', '=', holder.id)
      .execute();
    expect(await pool.round()).toMatchObject({ claimed: 1, deferred: 0 });
    expect(await scheduleRow(service.db, id)).toMatchObject({ status: 'PROCESSED', attempts: 2 });
  });

  it('a started pool drains the queue on its own and stops cleanly', async () => {
    const id = await scheduleAccount(service, 'STARTED-POOL');
    const pool = poolOf(service);
    pools.push(pool);
    pool.start();
    const deadline = Date.now() + 30_000;
    while ((await scheduleRow(service.db, id)).status !== 'PROCESSED') {
      if (Date.now() > deadline) throw new Error('the pool did not create the account');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await pool.stop();
    expect(await scheduleRow(service.db, id)).toMatchObject({ status: 'PROCESSED', attempts: 1 });
  });
});
