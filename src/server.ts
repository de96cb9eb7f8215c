/** Runs the service: migrate, build the app, listen, and shut down gracefully on SIGTERM/SIGINT. */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { openContext, type OpenedContext } from './open-context.js';
import { prunePeriodically } from './events/retention.js';
import { demoInstructions, seedDemoIfEmpty, type DemoSeed } from './operator/demo.js';
import type { SchedulePool } from './schedules/worker/schedule-pool.js';
import { startPool } from './schedules/worker/worker-runner.js';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Log as JSON lines to stdout (default true). */
  log?: boolean;
  /** Install SIGTERM/SIGINT handlers (default true). */
  handleSignals?: boolean;
}

/** How long in-flight requests may take to finish after a shutdown signal. */
const SHUTDOWN_GRACE_MS = 10_000;

export async function startServer(
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> {
  const log = options.log ?? true;
  let opened: OpenedContext | undefined;
  let app: FastifyInstance | undefined;
  let demo: DemoSeed | undefined;
  let startedPool: SchedulePool | undefined;
  try {
    opened = await openContext(config, {
      onPoolError: (error) => app?.log.warn({ err: error }, 'database connection lost'),
      onPlatformError: (error) =>
        app?.log.warn({ err: error }, 'platform data could not be re-read; the last read is kept'),
      prepare: async (db) => {
        demo = await seedDemoIfEmpty(db, config);
      },
    });
    const { ctx } = opened;
    app = await buildApp(ctx, { logger: log ? loggerOptions(config) : false });
    if (config.production && config.tokenSecret === undefined) {
      app.log.warn(
        'TOKEN_SECRET is not set: tokens are signed with a key kept in the database, so anyone ' +
          'who can read the database can sign tokens; set TOKEN_SECRET in production',
      );
    }
    const logger = app.log;
    // Scheduled creation runs in every serve process (WORKER_CONCURRENCY=0 turns it off).
    const pool: SchedulePool | undefined =
      config.workerConcurrency > 0
        ? startPool(ctx, (error) => logger.error({ err: error }, 'a scheduled creation failed'))
        : undefined;
    startedPool = pool;
    await app.listen({ host: config.host, port: config.port });
    const stopPruning = startPruning(app, ctx.db, config);
    const address = app.server.address();
    const url = baseUrl(
      config.host,
      typeof address === 'object' && address ? address.port : config.port,
    );
    if (demo) process.stderr.write(`\n${demoInstructions(demo, url)}\n\n`);
    demo = undefined; // printed: a failure from here on must not print it again

    const running = app;
    const context = opened;
    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        stopPruning();
        await running.close();
        await running.handlersDrained();
        await pool?.stop();
        await context.close();
      })();
      return closing;
    };
    if (options.handleSignals ?? true) installSignalHandlers(running, close);
    return { url, app: running, close };
  } catch (error) {
    // The demo data is committed, and its key is shown nowhere else: print it even so, once.
    if (demo) {
      const instructions = demoInstructions(demo, baseUrl(config.host, config.port));
      process.stderr.write(
        `\nThe service did not start (below); its demo data is kept.\n${instructions}\n\n`,
      );
    }
    await startedPool?.stop().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await opened?.close().catch(() => undefined);
    throw error;
  }
}

/** With EVENT_RETENTION_DAYS set, prunes the event log every hour; the function stopping it. */
function startPruning(app: FastifyInstance, db: Db, config: Config): () => void {
  const days = config.eventRetentionDays;
  if (days === 0) return () => undefined;
  return prunePeriodically(
    db,
    days,
    (deleted) => {
      if (deleted > 0) app.log.info({ deleted, older_than_days: days }, 'events pruned');
    },
    (error) => app.log.warn({ err: error }, 'events could not be pruned; trying again later'),
  );
}

const baseUrl = (host: string, port: number) =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** JSON lines; query strings are left out of logged URLs so that nothing secret lands in logs. */
function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
    },
  };
}

function installSignalHandlers(app: FastifyInstance, close: () => Promise<void>): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      app.log.warn({ signal }, 'second signal: exiting at once');
      process.exit(130);
    }
    signalled = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
