/**
 * Queries built and compiled once per database, then executed with new arguments. Kysely
 * builds and compiles a query on every call, which the profile shows costing more than the
 * SQLite work of the small lookups every request makes; a fixed-shape query only needs its
 * parameters swapped.
 */
import type { CompiledQuery, Insertable, Kysely, QueryResult } from 'kysely';
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

/**
 * Returns a function that runs the query `build` describes, compiling it only once for each
 * dialect. `build` must use its arguments only as values (never to choose the query's shape).
 */
export function compiledQuery<Args extends unknown[], Row>(
  arity: number,
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: Kysely<Database>, ...args: Args) => Promise<QueryResult<Row>> {
  // Compiled SQL depends only on the dialect, so transactions share their database's template.
  const templates = new Map<unknown, Template<Row>>();
  const markers = Array.from({ length: arity }, (_, i) => marker(i));
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      const compiled = build(db, ...(markers as Args)).compile();
      const sources = compiled.parameters.map(markerIndex);
      if (!markers.every((_, i) => sources.includes(i))) {
        throw new Error('compiledQuery: an argument is not used as a query parameter');
      }
      template = { compiled, sources };
      templates.set(dialect, template);
    }
    const { compiled, sources } = template;
    const parameters = sources.map((source, i) =>
      source >= 0 ? args[source] : compiled.parameters[i],
    );
    return db.executeQuery<Row>({ ...compiled, parameters });
  };
}

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
  return async (db, rows) => {
    const dialect = db.getExecutor().adapter.constructor;
    let byCount = templates.get(dialect);
    if (!byCount) templates.set(dialect, (byCount = new Map()));
    let template = byCount.get(rows.length);
    if (!template) {
      const markers = rows.map((_, r) =>
        Object.fromEntries(columns.map((column, c) => [column, marker(r * columns.length + c)])),
      );
      // The markers stand in for values of any column type; the query is only compiled.
      const insert = db.insertInto(table).values(markers as never);
      const compiled = (
        returning.length > 0 ? insert.returning(returning as never) : insert
      ).compile() as CompiledQuery<unknown>;
      const sources = compiled.parameters.map((parameter) => markerIndex(parameter));
      template = { compiled, sources };
      byCount.set(rows.length, template);
    }
    const { compiled, sources } = template;
    const values = rows.flatMap((row) =>
      columns.map((column) => (row as Record<string, unknown>)[column]),
    );
    const parameters = sources.map((source, i) =>
      source >= 0 ? values[source] : compiled.parameters[i],
    );
    return db.executeQuery<Record<string, unknown>>({ ...compiled, parameters });
  };
}
