/**
 * Counts the SQL statements the process sends, at the drivers: every execution of a
 * better-sqlite3 statement and every pg query, whichever path in src/db sent it.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

type Method = (...args: unknown[]) => unknown;

let sent = 0;
let installed = false;

function countCalls(prototype: Record<string, unknown>, names: string[]): void {
  for (const name of names) {
    const original = prototype[name] as Method;
    prototype[name] = function (this: unknown, ...args: unknown[]) {
      sent++;
      return original.apply(this, args);
    };
  }
}

/** Starts counting (once per test file); returns how many statements `work` sent. */
export async function statementsSentBy(work: () => Promise<unknown>): Promise<number> {
  if (!installed) {
    installed = true;
    const probe = new SQLite(':memory:');
    const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
    probe.close();
    countCalls(statement, ['run', 'get', 'all', 'iterate']);
    countCalls(pg.Client.prototype as unknown as Record<string, unknown>, ['query']);
  }
  const before = sent;
  await work();
  return sent - before;
}
