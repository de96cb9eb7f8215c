/**
 * Plans that do not depend on parameter values, on SQLite.
 *
 * better-sqlite3 builds SQLite with SQLITE_ENABLE_STAT4. Once a database holds STAT4 statistics
 * (written by ANALYZE, or by `PRAGMA optimize`, which SQLite advises running now and then), the
 * planner reads the bound value of every parameter compared with an indexed column, and marks
 * the statement to be planned again whenever that parameter is bound anew. better-sqlite3 binds
 * every parameter on every execution, so every such statement is parsed and planned again on
 * every execution. Measured in a tight loop on an analysed copy of this service's tables, a
 * stage's guarded upsert took 125 µs instead of 27, and a three-table caller check 19 µs
 * instead of 5; through the service's staging code, a stage took 200 to 480 µs instead of 60.
 *
 * SQLite's switch for plans that ignore bound values (SQLITE_DBCONFIG_ENABLE_QPSG) is not
 * reachable from better-sqlite3. A unary plus is: the planner only reads a value from a bare
 * parameter, and `+?` is the same value with no affinity of its own, as `?` has none. Indexes
 * are used exactly as before; only the value-specific estimates are given up, which this
 * service's statements, all on unique or selective indexes, do not need.
 */

/** Index of the character after the quoted run that starts at `start` (`close` ends it). */
function skipQuoted(sql: string, start: number, close: string): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] !== close) continue;
    // A doubled quote inside a string or identifier is an escaped quote, not its end.
    if (close !== ']' && sql[i + 1] === close) {
      i++;
      continue;
    }
    return i + 1;
  }
  return sql.length;
}

/** Index of the character after the comment that starts at `start`. */
function skipComment(sql: string, start: number): number {
  if (sql.startsWith('--', start)) {
    const end = sql.indexOf('\n', start);
    return end === -1 ? sql.length : end + 1;
  }
  const end = sql.indexOf('*/', start + 2);
  return end === -1 ? sql.length : end + 2;
}

const QUOTE_CLOSERS: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };

/**
 * The same SQL with every positional parameter (`?` or `?NNN`) written `+?`, so that SQLite
 * never plans it by its value. Strings, quoted identifiers and comments are left as they are.
 */
export function parametersUnplanned(sql: string): string {
  if (!sql.includes('?')) return sql;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < sql.length) {
    const char = sql[i] as string;
    const closer = QUOTE_CLOSERS[char];
    if (closer !== undefined) {
      i = skipQuoted(sql, i, closer);
    } else if (sql.startsWith('--', i) || sql.startsWith('/*', i)) {
      i = skipComment(sql, i);
    } else if (char === '?') {
      out += `${sql.slice(from, i)}+`;
      from = i;
      i++;
    } else {
      i++;
    }
  }
  return out + sql.slice(from);
}
