/**
 * A worker pool on its own database connection, as `account-import worker` runs it: the
 * database migrated, the platform data kept current, the pool started, and a graceful stop on
 * SIGTERM/SIGINT (the round in flight is finished, then the database closed).
 */
import { rulesRevision } from '../../account/validation-stamp.js';
import { ensureTokenSecret } from '../../auth/secret.js';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { connect } from '../../db/connect.js';
import type { Db } from '../../db/database.js';
import { migrateToLatest, onMigrationConnection } from '../../db/migrate.js';
import { LivePlatformData } from '../../platform/live-platform-data.js';
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
  let db: Db | undefined;
  let platform: LivePlatformData | undefined;
  try {
    db = connect(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous });
    await onMigrationConnection(db, config.databaseUrl, migrateToLatest);
    const tokenSecret = await ensureTokenSecret(db, config.tokenSecret);
    platform = await LivePlatformData.start(db, config.platformRefreshMs, (error) =>
      logLine('warn', 'platform data could not be re-read; the last read is kept', {
        err: String(error),
      }),
    );
    // Read now, at start-up, rather than by the first creation (about 8 ms of files).
    rulesRevision();
    const ctx: AppContext = { config, db, tokenSecret, platform };
    const pool = startPool(ctx, (error) =>
      logLine('error', 'a scheduled creation failed', { err: String(error) }),
    );
    const openDb = db;
    const openPlatform = platform;
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        await pool.stop();
        openPlatform.close();
        await openDb.close();
      })();
      return closing;
    };
    logLine('info', 'worker pool started', { concurrency: config.workerConcurrency });
    return { pool, close };
  } catch (error) {
    platform?.close();
    await db?.close().catch(() => undefined);
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
