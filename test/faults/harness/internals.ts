/** What must never reach a client: stack traces, source paths, SQL, driver messages. */

const LEAKS: readonly [string, RegExp][] = [
  ['a stack frame', /\n\s+at \S/],
  ['a stack frame', /\bat (?:async )?[\w.<>]+ \(/],
  ['a source path', /(?:\/work\/|\/src\/|\/dist\/|node_modules|\.[cm]?[jt]s:\d+)/],
  ['an SQL statement', /\b(?:select\s.+\sfrom|insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i],
  [
    'a database message',
    /SQLITE_|sqlite3|syntax error at|relation "|violates .* constraint|duplicate key value/i,
  ],
  ['a driver message', /ECONNREFUSED|ECONNRESET|Connection terminated|pg_advisory|kysely/i],
];

/** The kind of internal detail the text discloses, or undefined when it discloses none. */
export function internalsIn(text: string): string | undefined {
  for (const [what, pattern] of LEAKS) if (pattern.test(text)) return what;
  return undefined;
}
