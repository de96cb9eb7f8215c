/**
 * Issue 35, workers: a worker killed with SIGKILL mid-creation loses nothing and doubles
 * nothing. `account-import worker` processes drain a queue of scheduled accounts and are killed
 * at moments chosen by their progress; the claims they held run out their lease and a later
 * worker finishes them. At the end every schedule is PROCESSED once, with exactly one account,
 * one COMPLETED event, and the number its process records.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { createTestService, type TestService } from '../helpers/app.js';
import { startWorkerProcess } from '../helpers/worker-process.js';
import { accountCount, scheduleAccount } from '../schedules/worker-helpers.js';
import { until } from '../helpers/until.js';

const ACCOUNTS = Number(process.env.FAULTS_WORKER_ACCOUNTS ?? 1500);
const KILLS = 3;
const LEASE_MS = 2_000;
/** Schedules created between a worker's start and its kill. */
const PROGRESS_BEFORE_KILL = 100;
const WORKER_ENV = { WORKER_LEASE_MS: String(LEASE_MS), WORKER_POLL_MS: '50' };

await describeEachDialect('worker killed with SIGKILL', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService(dialect);
    for (let i = 0; i < ACCOUNTS; i += 25) {
      const batch = Array.from({ length: Math.min(25, ACCOUNTS - i) }, (_, k) => i + k);
      await Promise.all(batch.map((n) => scheduleAccount(service, `KILL-${n}`)));
    }
  });
  afterAll(() => service.destroy());

  const countByStatus = async (status: 'PROCESSED' | 'IN_PROGRESS' | 'PENDING') => {
    const row = await service.db.kysely
      .selectFrom('creation_schedules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it(`finishes every schedule exactly once over ${KILLS} kills`, async () => {
    let orphaned = 0;
    for (let k = 0; k < KILLS; k++) {
      const before = await countByStatus('PROCESSED');
      const worker = await startWorkerProcess(service.config.databaseUrl, WORKER_ENV, [
        '--concurrency',
        '8',
      ]);
      // Killed while it holds claims, so that the kill lands mid-creation.
      await until(
        async () =>
          (await countByStatus('PROCESSED')) >= before + PROGRESS_BEFORE_KILL &&
          (await countByStatus('IN_PROGRESS')) > 0,
        120_000,
      );
      expect(await worker.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
      // What the killed worker held: claimed, not created, leases still running.
      const held = await countByStatus('IN_PROGRESS');
      orphaned += held;
    }
    // The claims of a worker killed mid-round must have been left behind at least once, or the
    // test proved nothing about takeover.
    expect(orphaned).toBeGreaterThan(0);

    const last = await startWorkerProcess(service.config.databaseUrl, WORKER_ENV);
    try {
      await until(
        async () =>
          (await countByStatus('PENDING')) === 0 && (await countByStatus('IN_PROGRESS')) === 0,
        180_000,
      );
    } finally {
      await last.stop('SIGTERM');
    }

    expect(await countByStatus('PROCESSED')).toBe(ACCOUNTS);
    expect(await accountCount(service.db)).toBe(ACCOUNTS);
    // Each schedule's number is its process's, and its account's: no account was doubled.
    const mismatched = await service.db.kysely
      .selectFrom('creation_schedules as c')
      .innerJoin('import_processes as p', 'p.id', 'c.process_id')
      .innerJoin('accounts as a', 'a.import_process_id', 'p.id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([
          eb('p.state', '!=', 'completed'),
          eb('p.service_account_number', '!=', eb.ref('c.service_account_number')),
          eb('a.number', '!=', eb.ref('c.service_account_number')),
        ]),
      )
      .executeTakeFirstOrThrow();
    expect(Number(mismatched.n)).toBe(0);
    const completed = await service.db.kysely
      .selectFrom('account_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('event', '=', 'EVENT_ACCOUNT_IMPORT_PROCESS_COMPLETED')
      .executeTakeFirstOrThrow();
    expect(Number(completed.n)).toBe(ACCOUNTS);
    const takenOver = await service.db.kysely
      .selectFrom('creation_schedules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('attempts', '>', 1)
      .executeTakeFirstOrThrow();
    expect(Number(takenOver.n)).toBeGreaterThan(0);
    console.info(
      `[${dialect}] ${ACCOUNTS} schedules, ${KILLS} kills, ${orphaned} claims orphaned, ` +
        `${Number(takenOver.n)} schedules taken over after their lease`,
    );
  });
});
