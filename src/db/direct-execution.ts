/**
 * Statements that skip Kysely's executor. A synchronous driver (SQLite) gains nothing from its
 * chain of promises, which the profile shows costing more than the SQLite work of a one-row
 * lookup: the connection registers a direct executor (connect.ts), and compiled queries
 * (compiled.ts) use it when the connection is free for them.
 */
import type { Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * Runs SQL on the connection at once and returns its result, or returns undefined when the
 * statement must wait its turn in Kysely's queue instead (see connect.ts). `holdsConnection`:
 * the caller is a transaction, which has the connection to itself.
 */
export type DirectExecutor = (
  sql: string,
  parameters: readonly unknown[],
  holdsConnection: boolean,
) => QueryResult<unknown> | undefined;

interface Direct {
  run: DirectExecutor;
  /** A connection Kysely handed out (not the database itself). */
  holdsConnection: boolean;
  /** How many connections the database has handed out and not yet got back. */
  lent: { count: number };
}

const directExecutors = new WeakMap<Kysely<Database>, Direct>();

/** Lets statements of `db`, and of the connections it hands out (whileHolding), run directly. */
export function executeDirectly(db: Kysely<Database>, run: DirectExecutor): void {
  directExecutors.set(db, { run, holdsConnection: false, lent: { count: 0 } });
}

/**
 * Runs the SQL directly if `db` can (see executeDirectly) and is free to: not while it has lent
 * its connection, unless `db` is that lent connection. Undefined when it must go through Kysely.
 */
export function runDirectly<Row>(
  db: Kysely<Database>,
  sql: string,
  parameters: readonly unknown[],
): QueryResult<Row> | undefined {
  const direct = directExecutors.get(db);
  if (!direct || (!direct.holdsConnection && direct.lent.count > 0)) return undefined;
  return direct.run(sql, parameters, direct.holdsConnection) as QueryResult<Row> | undefined;
}

/**
 * Runs `work` with `held`, a connection of `db` that Kysely handed out (to a transaction, or
 * through `connection()`): its compiled queries run the way `db`'s do, on that connection,
 * while `db`'s own wait for Kysely's lock until `work` has ended.
 */
export async function whileHolding<K extends Kysely<Database>, T>(
  db: Kysely<Database>,
  held: K,
  work: (held: K) => Promise<T>,
): Promise<T> {
  const direct = directExecutors.get(db);
  if (!direct) return work(held);
  directExecutors.set(held, { ...direct, holdsConnection: true });
  direct.lent.count++;
  try {
    return await work(held);
  } finally {
    direct.lent.count--;
    directExecutors.delete(held);
  }
}

/** Runs `work` in a transaction of `db`; its compiled queries run the way `db`'s do. */
export function transaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute((trx) => whileHolding(db, trx, work));
}
