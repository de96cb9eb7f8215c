/**
 * `account-import worker`: creates scheduled accounts with no HTTP server, refuses a bad
 * --concurrency, and on SIGTERM finishes its round and exits 0.
 */
import { afterAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { useTestService } from '../helpers/app.js';
import { startWorkerProcess, type WorkerProcess } from '../helpers/worker-process.js';
import { scheduleAccount, scheduleRow } from '../schedules/worker-helpers.js';
import { until } from '../helpers/until.js';
import { runCli } from './run-cli.js';

await describeEachDialect('cli: worker', (dialect) => {
  const service = useTestService(dialect);
  const workers: WorkerProcess[] = [];
  afterAll(() => Promise.all(workers.map((worker) => worker.stop('SIGKILL'))));

  it('creates a scheduled account, then stops on SIGTERM with exit code 0', async () => {
    const id = await scheduleAccount(service, 'CLI-W-1');
    const worker = await startWorkerProcess(service.config.databaseUrl, { WORKER_POLL_MS: '50' }, [
      '--concurrency',
      '2',
    ]);
    workers.push(worker);
    expect(worker.output()).toContain('"concurrency":2');
    await until(async () => (await scheduleRow(service.db, id)).status === 'PROCESSED');
    expect(await worker.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('stopping');
  });

  it('refuses a --concurrency that is not a whole number from 1', async () => {
    for (const value of ['0', 'two', '-1']) {
      const result = await runCli(
        { DATABASE_URL: service.config.databaseUrl },
        'worker',
        '--concurrency',
        value,
      );
      expect(result.code, value).not.toBe(0);
      expect(result.stderr).toContain('--concurrency');
    }
  });
});
