/** Tells a lost or refused database connection apart from a bug, so callers can answer 503. */

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

// SQLite's primary result codes that mean "not now" (busy, locked, I/O, disk full, cannot
// open), with their extended codes: better-sqlite3 reports SQLITE_BUSY_SNAPSHOT, say, when a
// transaction's read went stale before its write.
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN)(_|$)/;

// PostgreSQL SQLSTATE classes 08 (connection exception), 53 (insufficient resources) and 57P
// (operator intervention: shutdown, crash recovery, cannot connect now), plus 57014 (statement
// timeout or cancellation), all mean "try again later", not "your request is wrong".
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)|^57014$/;

/** Kysely's own, for a database closed under a request. */
const UNAVAILABLE_MESSAGES = ['driver has already been destroyed'];

const UNAVAILABLE_SQLITE_MESSAGES = ['The database connection is not open'];

const UNAVAILABLE_POSTGRES_MESSAGES = [
  // SQLSTATE 55000 at connection: the database takes no connections (ALLOW_CONNECTIONS false,
  // during maintenance). The code alone also means other things, so the words are matched.
  'is not currently accepting connections',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'Query read timeout',
];

/** What one engine's driver reports when it cannot serve now. */
interface Unavailability {
  code: RegExp;
  messages: readonly string[];
}

const SQLITE: Unavailability = { code: UNAVAILABLE_SQLITE, messages: UNAVAILABLE_SQLITE_MESSAGES };
const POSTGRES: Unavailability = {
  code: UNAVAILABLE_SQLSTATE,
  messages: UNAVAILABLE_POSTGRES_MESSAGES,
};

/** Whether `error`, or an error it was caused by or aggregates, is one of `engines`'. */
function unavailable(error: unknown, engines: readonly Unavailability[]): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
    if (engines.some((engine) => engine.code.test(code))) return true;
  }
  if (typeof message === 'string') {
    const known = (m: string) => message.includes(m);
    if (UNAVAILABLE_MESSAGES.some(known)) return true;
    if (engines.some((engine) => engine.messages.some(known))) return true;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) return unavailable(cause, engines);
  if (error instanceof AggregateError) return error.errors.some((e) => unavailable(e, engines));
  return false;
}

/** SQLite's classification (Storage.isUnavailable). */
export const isSqliteUnavailable = (error: unknown): boolean => unavailable(error, [SQLITE]);

/** PostgreSQL's classification (Storage.isUnavailable). */
export const isPostgresUnavailable = (error: unknown): boolean => unavailable(error, [POSTGRES]);

/** Either engine's, for code that renders an error without its database at hand. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailable(error, [SQLITE, POSTGRES]);
}
