/**
 * The SQL texts that compiled queries (compiled.ts) keep: each runs on PostgreSQL as a named
 * prepared statement, and may return its rows as arrays. The drivers (connect.ts) read this
 * catalogue; only compiled.ts adds to it. A name derives from its text alone, so templates of
 * the same text share a name and no name has two texts.
 */
import { createHash } from 'node:crypto';

interface Statement {
  /** The name it is prepared under on PostgreSQL. */
  name: string;
  /** Its rows come back as arrays of column values (see compiledArrayQuery). */
  arrayRows: boolean;
}

const statements = new Map<string, Statement>();

/** Keeps a text with its row shape; one text cannot return both shapes. */
export function keepStatement(sql: string, arrayRows: boolean): void {
  checkRowShape(sql, arrayRows);
  if (statements.has(sql)) return;
  statements.set(sql, { name: `q_${createHash('sha1').update(sql).digest('hex')}`, arrayRows });
}

/** Throws if the text is kept for the other row shape (a text compiled but not kept). */
export function checkRowShape(sql: string, arrayRows: boolean): void {
  const known = statements.get(sql);
  if (known && known.arrayRows !== arrayRows) {
    throw new Error('compiled queries: one SQL text is compiled for both row shapes');
  }
}

/** The prepared-statement name of a kept text, or undefined for any other SQL. */
export function statementName(sql: string): string | undefined {
  return statements.get(sql)?.name;
}

/** The texts kept so far, for checking their query plans. */
export function compiledSqlTexts(): string[] {
  return [...statements.keys()];
}

/** Whether the drivers must return the rows of this text as arrays. */
export function returnsArrayRows(sql: string): boolean {
  return statements.get(sql)?.arrayRows === true;
}
