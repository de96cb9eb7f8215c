/**
 * The account store's only use of compiled queries (src/db/compiled.ts): an INSERT of rows into
 * declared columns, and a fixed statement whose parameters are named. Both are compiled once.
 */
import type { Kysely, RawBuilder } from 'kysely';
import { compiledInsert, compiledQuery, type Params } from '../db/compiled.js';
import type { Database } from '../db/database.js';

export type RowsInsert = (
  db: Kysely<Database>,
  rows: readonly Record<string, unknown>[],
) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * The most rows one INSERT writes: compiledInsert keeps the template of an insert of up to 16
 * rows and compiles a larger one on every use (building and compiling a query costs more than
 * the insert itself). An account's keys alone often number more than that.
 */
const ROWS_PER_INSERT = 16;

/** Inserts rows into `columns` of `table`, at most ROWS_PER_INSERT per statement. */
export function rowsInsert(
  table: keyof Database,
  columns: readonly string[],
  returning: readonly string[] = [],
): RowsInsert {
  const insert = compiledInsert(table, columns as never, returning as never) as RowsInsert;
  return async (db, rows) => {
    if (rows.length <= ROWS_PER_INSERT) return insert(db, rows);
    const inserted: Record<string, unknown>[] = [];
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      inserted.push(...(await insert(db, rows.slice(start, start + ROWS_PER_INSERT))).rows);
    }
    return { rows: inserted };
  };
}

/** A statement's parameter: its name and the SQL it is written as, given its marker. */
export interface NamedParameter<Name extends string> {
  name: Name;
  /** Wraps the parameter's value where the statement uses it (a cast, say). */
  as(value: unknown): RawBuilder<unknown>;
}

/**
 * A statement of fixed SQL text whose parameters are passed by name. `build` writes the
 * statement, calling `use(name)` where a parameter's value goes (as often as it likes).
 */
export function namedStatement<Name extends string, Row>(
  parameters: readonly NamedParameter<Name>[],
  build: (use: (name: Name) => RawBuilder<unknown>) => RawBuilder<Row>,
): (db: Kysely<Database>, values: Readonly<Record<Name, unknown>>) => Promise<Row[]> {
  const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
  const statement = compiledQuery((db: Kysely<Database>, values: Params<Record<Name, unknown>>) => {
    const query = build((name) => {
      const parameter = byName.get(name);
      if (parameter === undefined) throw new Error(`namedStatement: no parameter ${name}`);
      return parameter.as(values[name]);
    });
    return { compile: () => query.compile(db) };
  });
  // Name is generic here, so the parameter list cannot be resolved; callers pass every name.
  const run = statement as unknown as (
    db: Kysely<Database>,
    values: Readonly<Record<Name, unknown>>,
  ) => Promise<{ rows: Row[] }>;
  return async (db, values) => (await run(db, values)).rows;
}
