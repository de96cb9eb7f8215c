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

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'driver has already been destroyed',
  'The database connection is not open',
  'Query read timeout',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLITE.test(code)) return true;
    if (UNAVAILABLE_SQLSTATE.test(code)) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) {
    return true;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) return isDatabaseUnavailable(cause);
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return false;
}
