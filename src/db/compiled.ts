/**
 * Queries built and compiled once per database, then executed with new arguments. Kysely
 * builds and compiles a query on every call, which the profile shows costing more than the
 * SQLite work of the small lookups every request makes; a fixed-shape query only needs its
 * parameters swapped.
 *
 * A query's parameters are named: its builder receives an object whose properties stand for
 * them, and each call passes an object of their values:
 *
 *     const teamNamed = compiledQuery((db, p: Params<{ name: string }>) =>
 *       db.selectFrom('operations_teams').selectAll().where('name', '=', p.name));
 *     await teamNamed(db, { name: 'Migrations' });
 *
 * On PostgreSQL their SQL texts also run as named prepared statements (statements.ts), parsed
 * and planned once per connection rather than on every execution. On SQLite they run on the
 * connection directly (direct-execution.ts).
 */
import type { CompiledQuery, Insertable, Kysely, QueryResult } from 'kysely';
import type { Database } from './database.js';
import { runDirectly } from './direct-execution.js';
import { checkRowShape, keepStatement } from './statements.js';

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

/**
 * A compiled query's named parameters, as its builder sees them. While compiling, each
 * property holds a stand-in (a Slot), so the builder must use them only as values of the query,
 * never to choose its shape.
 */
export type Params<P extends object> = Readonly<P>;

/** Stands for a parameter while a query compiles: the property (or flat index) it takes. */
class Slot {
  constructor(readonly key: string | number) {}
}

interface Template<Row> {
  compiled: CompiledQuery<Row>;
  /** For each compiled parameter: the argument it takes, or undefined for a constant. */
  keys: (string | number | undefined)[];
}

/** Compiled SQL depends only on the dialect, so transactions share their database's template. */
const dialectOf = (db: Kysely<Database>): unknown => db.getExecutor().adapter.constructor;

/** `kept`: the template is reused, so its SQL is worth preparing (see compiledInsert). */
function templateOf<Row>(compiled: CompiledQuery<Row>, kept: boolean, arrayRows: boolean) {
  if (kept) keepStatement(compiled.sql, arrayRows);
  else checkRowShape(compiled.sql, arrayRows);
  const keys = compiled.parameters.map((value) => (value instanceof Slot ? value.key : undefined));
  return { compiled, keys };
}

/** Runs the template with the arguments' values in place of its slots. */
function execute<Row>(
  db: Kysely<Database>,
  { compiled, keys }: Template<Row>,
  args: object,
): Promise<QueryResult<Row>> {
  const values = args as Readonly<Record<string | number, unknown>>;
  const parameters = keys.map((key, i) =>
    key === undefined ? compiled.parameters[i] : values[key],
  );
  const result = runDirectly<Row>(db, compiled.sql, parameters);
  if (result) return Promise.resolve(result);
  return db.executeQuery<Row>({ ...compiled, parameters });
}

/**
 * The stand-in parameters object: each property read returns its slot, and is recorded so that
 * compiling can check that every parameter read became a value of the query.
 */
function slotsFor(): { params: object; read: Set<string> } {
  const read = new Set<string>();
  const slots = new Map<string, Slot>();
  const params = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key !== 'string') return undefined;
        read.add(key);
        let slot = slots.get(key);
        if (!slot) slots.set(key, (slot = new Slot(key)));
        return slot;
      },
    },
  );
  return { params, read };
}

/** The parameters a compiled query is called with: none, or the object of its named values. */
type Call<P extends object, Result> = (
  db: Kysely<Database>,
  ...params: keyof P extends never ? [] : [params: P]
) => Promise<Result>;

/**
 * Returns a function that runs the query `build` describes, compiling it only once for each
 * dialect. `build` must use its parameters only as values (never to choose the query's shape).
 */
export function compiledQuery<P extends object, Row>(
  build: (db: Kysely<Database>, params: Params<P>) => Compilable<Row>,
): Call<P, QueryResult<Row>> {
  return compiledStatement(build, false);
}

/**
 * Like compiledQuery, but each row comes back as an array of its column values in select order
 * (`Values`), which both drivers build faster than objects: for queries that return many rows.
 */
export function compiledArrayQuery<P extends object, Values extends unknown[]>(
  build: (db: Kysely<Database>, params: Params<P>) => Compilable<unknown>,
): Call<P, QueryResult<Values>> {
  return compiledStatement(build as never, true);
}

function compiledStatement<P extends object, Row>(
  build: (db: Kysely<Database>, params: Params<P>) => Compilable<Row>,
  arrayRows: boolean,
): Call<P, QueryResult<Row>> {
  const templates = new Map<unknown, Template<Row>>();
  const templateFor = (db: Kysely<Database>): Template<Row> => {
    const { params, read } = slotsFor();
    const template = templateOf(build(db, params as P).compile(), true, arrayRows);
    const unused = [...read].filter((key) => !template.keys.includes(key));
    if (unused.length > 0) {
      throw new Error(`compiledQuery: ${unused.join(', ')} not used as a query parameter`);
    }
    return template;
  };
  return (async (db: Kysely<Database>, params?: P) => {
    let template = templates.get(dialectOf(db));
    if (!template) {
      template = templateFor(db);
      templates.set(dialectOf(db), template);
    }
    return execute(db, template, params ?? {});
  }) as Call<P, QueryResult<Row>>;
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
 * rows are typed like Kysely's own; `returning` names columns to read back; with
 * `skipConflictsOn`, a row whose values of those columns (a unique key) are taken is left out
 * (`on conflict … do nothing`), and only the rows inserted are returned.
 */
export function compiledInsert<T extends keyof Database & string>(
  table: T,
  columns: readonly (keyof Insertable<Database[T]> & string)[],
  returning: readonly (keyof Database[T] & string)[] = [],
  skipConflictsOn: readonly (keyof Database[T] & string)[] = [],
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
      // Row r's column c takes the value at r * columns.length + c of the flattened rows.
      const slots = rows.map((_, r) =>
        Object.fromEntries(columns.map((column, c) => [column, new Slot(r * columns.length + c)])),
      );
      // The slots stand in for values of any column type; the query is only compiled.
      const values = db.insertInto(table).values(slots as never);
      const insert =
        skipConflictsOn.length === 0
          ? values
          : values.onConflict((conflict) => conflict.columns(skipConflictsOn as never).doNothing());
      const kept = rows.length <= KEPT_INSERT_ROWS;
      template = templateOf(
        (returning.length > 0 ? insert.returning(returning as never) : insert).compile(),
        kept,
        false,
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
