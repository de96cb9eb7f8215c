/**
 * How a process of the service opens what its context holds (AppContext): the database,
 * migrated; the key tokens are signed with; the platform data, kept current; and the rules'
 * revision, read once. `serve` (src/server.ts) and `account-import worker`
 * (src/schedules/worker/worker-runner.ts) both start this way.
 */
import { rulesRevision } from './account/validation-stamp.js';
import { ensureTokenSecret } from './auth/secret.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { connect } from './db/connect.js';
import type { Db } from './db/database.js';
import { migrateToLatest, onMigrationConnection } from './db/migrate.js';
import { LivePlatformData } from './platform/live-platform-data.js';

export interface OpenContextOptions {
  /** A pooled PostgreSQL connection was lost (the pool replaces it). */
  onPoolError?: (error: unknown) => void;
  /** The platform data could not be read again (the last read is kept). */
  onPlatformError: (error: unknown) => void;
  /** Run once the database is migrated, before the platform data is first read. */
  prepare?: (db: Db) => Promise<void>;
}

export interface OpenedContext {
  ctx: AppContext;
  /** Stops keeping the platform data current and closes the database. */
  close(): Promise<void>;
}

/** Opens the context `config` describes; nothing stays open when it throws. */
export async function openContext(
  config: Config,
  { onPoolError, onPlatformError, prepare }: OpenContextOptions,
): Promise<OpenedContext> {
  const db = connect(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous,
    onPoolError,
  });
  let platform: LivePlatformData | undefined;
  try {
    await onMigrationConnection(db, config.databaseUrl, migrateToLatest);
    const tokenSecret = await ensureTokenSecret(db, config.tokenSecret);
    await prepare?.(db);
    platform = await LivePlatformData.start(db, config.platformRefreshMs, onPlatformError);
    // Read now, at start-up, rather than by the first stage or creation (about 8 ms of files).
    rulesRevision();
    const live = platform;
    return {
      ctx: { config, db, tokenSecret, platform: live },
      close: async () => {
        live.close();
        await db.close();
      },
    };
  } catch (error) {
    platform?.close();
    await db.close().catch(() => undefined);
    throw error;
  }
}
