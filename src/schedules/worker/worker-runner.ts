/**
 * A worker pool on its own database connection, as `account-import worker` runs it: the
 * database migrated, the platform data kept current, the pool started, and a graceful stop on
 * SIGTERM/SIGINT (the round in flight is finished, then the database closed).
 */
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { openContext } from '../../open-context.js';
import { SchedulePool } from './schedule-pool.js';

export interface RunningWorker {
  pool: SchedulePool;
  /** Stops the pool (finishing its round) and closes the database; idempotent. */
  close(): Promise<void>;
}

/** One JSON line on stdout, as the service logs. */
export function logLine(level: 'info' | 'warn' | 'error', msg: string, extra: object = {}): void {
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), msg, ...extra })}\n`);
}

/** Opens the database and starts a pool of `config.workerConcurrency` workers on it. */
export async function startWorker(config: Config): Promise<RunningWorker> {
  const opened = await openContext(config, {
    onPlatformError: (error) =>
      logLine('warn', 'platform data could not be re-read; the last read is kept', {
        err: String(error),
      }),
  });
  try {
    const pool = startPool(opened.ctx, (error) =>
      logLine('error', 'a scheduled creation failed', { err: String(error) }),
    );
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        await pool.stop();
        await opened.close();
      })();
      return closing;
    };
    logLine('info', 'worker pool started', { concurrency: config.workerConcurrency });
    return { pool, close };
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
}

/** Starts the pool the configuration describes, on the context's database. */
export function startPool(ctx: AppContext, onError: (error: unknown) => void): SchedulePool {
  const { workerConcurrency, workerPollMs, workerLeaseMs } = ctx.config;
  const pool = new SchedulePool(ctx, {
    concurrency: workerConcurrency,
    pollMs: workerPollMs,
    leaseMs: workerLeaseMs,
    onError,
  });
  pool.start();
  return pool;
}
