/**
 * Queries built and compiled once per database, then executed with new arguments. Kysely
 * builds and compiles a query on every call, which the profile shows costing more than the
 * SQLite work of the small lookups every request makes; a fixed-shape query only needs its
 * parameters swapped.
 *
 * On PostgreSQL their SQL texts also run as named prepared statements (see connect.ts), parsed
 * and planned once per connection rather than on every execution. On SQLite they run on the
 * connection directly (executeDirectly).
 */
import { createHash } from 'node:crypto';
import type { CompiledQuery, Insertable, Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './database.js';

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

// Stand-ins for the arguments while compiling; nothing a caller sends can look like them.
const MARKER_START = '\u0000compiled-argument-';
const MARKER_END = '\u0000';
const marker = (index: number) => `${MARKER_START}${index}${MARKER_END}`;

/** The argument a compiled parameter stands for, or -1 for a constant of the query. */
function markerIndex(parameter: unknown): number {
  if (typeof parameter !== 'string' || !parameter.startsWith(MARKER_START)) return -1;
  const index = Number(parameter.slice(MARKER_START.length, -MARKER_END.length));
  return marker(index) === parameter ? index : -1;
}

interface Template<Row> {
  compiled: CompiledQuery<Row>;
  /** For each compiled parameter: the argument it takes, or -1 for a constant of the query. */
  sources: number[];
}

/** Compiled SQL depends only on the dialect, so transactions share their database's template. */
const dialectOf = (db: Kysely<Database>): unknown => db.getExecutor().adapter.constructor;

interface Statement {
  /** The name it is prepared under on PostgreSQL. */
  name: string;
  /** Its rows come back as arrays of column values (see compiledArrayQuery). */
  arrayRows: boolean;
}

/** The SQL text of every kept template, with how it runs. */
const statements = new Map<string, Statement>();

/**
 * The prepared-statement name of a template's SQL text, or undefined for any other SQL. Derived
 * from the text alone, so templates of the same text share a name and no name has two texts.
 */
export function statementName(sql: string): string | undefined {
  return statements.get(sql)?.name;
}

/** The SQL texts of the templates compiled so far, for checking their query plans. */
export function compiledSqlTexts(): string[] {
  return [...statements.keys()];
}

/** Whether the drivers must return the rows of this SQL text as arrays. */
export function returnsArrayRows(sql: string): boolean {
  return statements.get(sql)?.arrayRows === true;
}

/** `kept`: the template is reused, so its SQL is worth preparing (see compiledInsert). */
function templateOf<Row>(
  compiled: CompiledQuery<Row>,
  { kept = true, arrayRows = false } = {},
): Template<Row> {
  const known = statements.get(compiled.sql);
  if (known && known.arrayRows !== arrayRows) {
    throw new Error('compiled queries: one SQL text is compiled for both row shapes');
  }
  if (kept && !known) {
    const name = `q_${createHash('sha1').update(compiled.sql).digest('hex')}`;
    statements.set(compiled.sql, { name, arrayRows });
  }
  return { compiled, sources: compiled.parameters.map(markerIndex) };
}

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

/**
 * Lets the compiled queries of `db`, and of the connections it hands out (see whileHolding),
 * skip Kysely's executor: a synchronous driver gains nothing from its chain of promises, which
 * the profile shows costing more than the SQLite work of a one-row lookup.
 */
export function executeDirectly(db: Kysely<Database>, run: DirectExecutor): void {
  directExecutors.set(db, { run, holdsConnection: false, lent: { count: 0 } });
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

/** Runs the template with `values` in place of its markers. */
function execute<Row>(
  db: Kysely<Database>,
  { compiled, sources }: Template<Row>,
  values: readonly unknown[],
): Promise<QueryResult<Row>> {
  const parameters = sources.map((source, i) =>
    source >= 0 ? values[source] : compiled.parameters[i],
  );
  const direct = directExecutors.get(db);
  if (direct && (direct.holdsConnection || direct.lent.count === 0)) {
    const result = direct.run(compiled.sql, parameters, direct.holdsConnection);
    if (result) return Promise.resolve(result as QueryResult<Row>);
  }
  return db.executeQuery<Row>({ ...compiled, parameters });
}

/**
 * Returns a function that runs the query `build` describes, compiling it only once for each
 * dialect. `build` must use its arguments only as values (never to choose the query's shape).
 */
export function compiledQuery<Args extends unknown[], Row>(
  arity: number,
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<QueryResult<Row>> {
  return compiledStatement(arity, build, false);
}

/**
 * Like compiledQuery, but each row comes back as an array of its column values in select order
 * (`Values`), which both drivers build faster than objects: for queries that return many rows.
 */
export function compiledArrayQuery<Args extends unknown[], Values extends unknown[]>(
  arity: number,
  build: (db: Kysely<Database>, ...args: Args) => Compilable<unknown>,
): (db: Kysely<Database>, ...args: Args) => Promise<QueryResult<Values>> {
  return compiledStatement(arity, build as never, true);
}

function compiledStatement<Args extends unknown[], Row>(
  arity: number,
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
  arrayRows: boolean,
): (db: Kysely<Database>, ...args: Args) => Promise<QueryResult<Row>> {
  const templates = new Map<unknown, Template<Row>>();
  const markers = Array.from({ length: arity }, (_, i) => marker(i));
  return async (db, ...args) => {
    let template = templates.get(dialectOf(db));
    if (!template) {
      template = templateOf(build(db, ...(markers as Args)).compile(), { arrayRows });
      const { sources } = template;
      if (!markers.every((_, i) => sources.includes(i))) {
        throw new Error('compiledQuery: an argument is not used as a query parameter');
      }
      templates.set(dialectOf(db), template);
    }
    return execute(db, template, args);
  };
}

/**
 * Inserts of up to this many rows keep their template (and, on PostgreSQL, their prepared
 * statement). Larger ones are rare, and a payload may hold thousands of meter points: keeping
 * one template and one server-side statement per row count would let such payloads grow the
 * service's and the database's memory, so they are compiled for each use instead.
 */
const KEPT_INSERT_ROWS = 16;

/**
 * The most parameters one statement binds: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER, 32,766
 * since 3.32; PostgreSQL's is 65,535). A larger insert is split into statements of this many.
 */
const MAX_PARAMETERS = 32_766;

/**
 * An INSERT of rows into fixed columns of `table`, compiled once for each dialect and number of
 * rows (the account graph inserts a few rows per table, nearly always the same counts). The
 * rows are typed like Kysely's own; `returning` names columns to read back.
 */
export function compiledInsert<T extends keyof Database & string>(
  table: T,
  columns: readonly (keyof Insertable<Database[T]> & string)[],
  returning: readonly (keyof Database[T] & string)[] = [],
): (
  db: Kysely<Database>,
  rows: readonly Insertable<Database[T]>[],
) => Promise<QueryResult<Record<string, unknown>>> {
  const templates = new Map<unknown, Map<number, Template<unknown>>>();
  const insertRows = async (db: Kysely<Database>, rows: readonly Insertable<Database[T]>[]) => {
    let byCount = templates.get(dialectOf(db));
    if (!byCount) templates.set(dialectOf(db), (byCount = new Map()));
    let template = byCount.get(rows.length);
    if (!template) {
      const markers = rows.map((_, r) =>
        Object.fromEntries(columns.map((column, c) => [column, marker(r * columns.length + c)])),
      );
      // The markers stand in for values of any column type; the query is only compiled.
      const insert = db.insertInto(table).values(markers as never);
      const kept = rows.length <= KEPT_INSERT_ROWS;
      template = templateOf(
        (returning.length > 0 ? insert.returning(returning as never) : insert).compile(),
        { kept },
      );
      if (kept) byCount.set(rows.length, template);
    }
    const values = rows.flatMap((row) =>
      columns.map((column) => (row as Record<string, unknown>)[column]),
    );
    return execute(db, template, values) as Promise<QueryResult<Record<string, unknown>>>;
  };
  const rowsPerStatement = Math.floor(MAX_PARAMETERS / columns.length);
  return async (db, rows) => {
    if (rows.length <= rowsPerStatement) return insertRows(db, rows);
    // A payload may hold more rows of a table than one statement can bind.
    const inserted: Record<string, unknown>[] = [];
    for (let start = 0; start < rows.length; start += rowsPerStatement) {
      const part = await insertRows(db, rows.slice(start, start + rowsPerStatement));
      inserted.push(...part.rows);
    }
    return { rows: inserted, numAffectedRows: BigInt(rows.length) };
  };
}
