/**
 * Queries built and compiled once per database, then executed with new arguments. Kysely
 * builds and compiles a query on every call, which the profile shows costing more than the
 * SQLite work of the small lookups every request makes; a fixed-shape query only needs its
 * parameters swapped.
 */
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './database.js';

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

// Stand-ins for the arguments while compiling; nothing a caller sends can look like them.
const marker = (index: number) => `\u0000compiled-argument-${index}\u0000`;

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
      const sources = compiled.parameters.map((parameter) => markers.indexOf(parameter as string));
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
