/** Reads and checks the environment once; every setting the service uses is typed here. */
import { availableParallelism } from 'node:os';

/**
 * NORMAL survives a crash of the service, FULL also a power loss (docs/interface.md, States). OFF, which
 * SQLite also has, would lose committed writes in a crash, so it is not offered.
 */
export type SqliteSynchronous = 'NORMAL' | 'FULL';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  /** Undefined means: generate one on first start and keep it in the database. */
  tokenSecret: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  processConcurrencyLimit: number;
  processLeaseSeconds: number;
  /** Worker threads that check payloads beside the event loop; 0 checks them on it. */
  validationThreads: number;
  sqliteSynchronous: SqliteSynchronous;
  documentBucket: string;
  logLevel: LogLevel;
  /** Token mutation attempts allowed per client and minute. */
  tokenRateLimit: number;
  /** Milliseconds a request may take from first byte to response before the socket is closed. */
  requestTimeoutMs: number;
  /** Requests one organisation may have in flight at once; past it, 429 (fairness). */
  organisationRequestsInFlight: number;
  /** Unpaged list streams one organisation may have open at once; past it, 429. */
  organisationListStreams: number;
  /** Milliseconds between two reads of the platform data's change markers; 0: never re-read. */
  platformRefreshMs: number;
  /** Scheduled creations a worker pool carries out at once; 0: `serve` runs no pool. */
  workerConcurrency: number;
  /** Milliseconds an idle worker pool waits between claims (and between window sweeps). */
  workerPollMs: number;
  /** Milliseconds a worker's claim holds its schedules before another may take them over. */
  workerLeaseMs: number;
  /** Days of account events `serve` keeps, pruning older ones every hour; 0: keep them all. */
  eventRetentionDays: number;
  production: boolean;
}

export class ConfigError extends Error {}

const SYNCHRONOUS_MODES: readonly SqliteSynchronous[] = ['NORMAL', 'FULL'];
const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

type Env = Record<string, string | undefined>;

/**
 * `text` as a whole number from `min` to `max`, or undefined. Decimal digits only (no sign, no
 * white space): Number() alone would also read `0x10`, `1e3` and `1.0` as integers. Settings and
 * command-line options are read with it.
 */
export function decimalInteger(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = decimalInteger(raw.trim(), min, max);
  if (value === undefined) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = (name === 'LOG_LEVEL' ? raw.toLowerCase() : raw.toUpperCase()) as T;
  if (!allowed.includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return value;
}

function text(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? fallback : raw.trim();
}

/**
 * On SQLite, one validation thread per core beside the event loop's, up to four: the database
 * runs on the event loop, which limits a stage, and past four threads its remaining work does.
 * None on a single core, where a thread would only compete with the event loop. None on
 * PostgreSQL, whose server, not the event loop, limits a stage: on a shared machine a thread
 * takes CPU time from it (docs/decisions.md); set VALIDATION_THREADS when it runs elsewhere.
 */
function defaultValidationThreads(databaseUrl: string): number {
  if (!databaseUrl.startsWith('sqlite:')) return 0;
  return Math.min(4, availableParallelism() - 1);
}

const DEFAULT_DATABASE_URL = 'sqlite:./data/account-import.db';

/**
 * DATABASE_URL, checked. Unlike the other variables, set but blank is an error rather than the
 * default: a script passing an unset variable (`--database-url "$PROD_URL"`) would otherwise
 * work on a local SQLite file and report success.
 */
function databaseUrlOf(env: Env): string {
  const raw = env.DATABASE_URL;
  if (raw === undefined) return DEFAULT_DATABASE_URL;
  const url = raw.trim();
  if (url === '') {
    throw new ConfigError(
      `DATABASE_URL is set but empty; leave it unset for the default (${DEFAULT_DATABASE_URL})`,
    );
  }
  if (url.startsWith('sqlite:')) {
    if (url.slice('sqlite:'.length).trim() === '') {
      throw new ConfigError('DATABASE_URL needs a file path after "sqlite:"');
    }
    return url;
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('DATABASE_URL must start with "sqlite:" or "postgres://"');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
  }
  // A socket directory may come as `?host=/run/postgresql` instead.
  if (parsed.hostname === '' && !parsed.searchParams.get('host')) {
    throw new ConfigError('DATABASE_URL names no PostgreSQL host');
  }
  return url;
}

/** A bucket name: it becomes the first segment of every stored document location. */
const BUCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

function documentBucketOf(env: Env): string {
  const bucket = text(env, 'DOCUMENT_BUCKET', 'account-documents');
  if (!BUCKET_NAME.test(bucket)) {
    throw new ConfigError(
      `DOCUMENT_BUCKET must be a bucket name (letters, digits, ".", "_" and "-", up to 255), got "${bucket}"`,
    );
  }
  return bucket;
}

/** Builds the configuration from environment variables; throws ConfigError on a bad value. */
export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = databaseUrlOf(env);
  const tokenSecret = env.TOKEN_SECRET?.trim() || undefined;
  if (tokenSecret !== undefined && tokenSecret.length < 32) {
    throw new ConfigError('TOKEN_SECRET must be at least 32 characters');
  }
  return {
    databaseUrl,
    host: text(env, 'HOST', '127.0.0.1'),
    port: integer(env, 'PORT', 8000, 0, 65535),
    tokenSecret,
    accessTokenTtl: integer(env, 'ACCESS_TOKEN_TTL', 3600, 1, 31_536_000),
    refreshTokenTtl: integer(env, 'REFRESH_TOKEN_TTL', 604_800, 1, 31_536_000),
    processConcurrencyLimit: integer(env, 'PROCESS_CONCURRENCY_LIMIT', 0, 0, 1_000_000),
    processLeaseSeconds: integer(env, 'PROCESS_LEASE_SECONDS', 300, 1, 86_400),
    validationThreads: integer(
      env,
      'VALIDATION_THREADS',
      defaultValidationThreads(databaseUrl),
      0,
      64,
    ),
    sqliteSynchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', SYNCHRONOUS_MODES, 'NORMAL'),
    documentBucket: documentBucketOf(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    tokenRateLimit: integer(env, 'TOKEN_RATE_LIMIT', 30, 1, 1_000_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    organisationRequestsInFlight: integer(env, 'ORGANISATION_REQUESTS_IN_FLIGHT', 64, 1, 100_000),
    organisationListStreams: integer(env, 'ORGANISATION_LIST_STREAMS', 1, 1, 10_000),
    platformRefreshMs: integer(env, 'PLATFORM_REFRESH_MS', 1_000, 0, 3_600_000),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 8, 0, 1_000),
    workerPollMs: integer(env, 'WORKER_POLL_MS', 1_000, 10, 3_600_000),
    workerLeaseMs: integer(env, 'WORKER_LEASE_MS', 60_000, 1_000, 86_400_000),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 0, 0, 36_500),
    production: env.NODE_ENV === 'production',
  };
}
