/**
 * The storage seam holds: code outside src/db/ never asks which engine it runs on. It calls
 * the storage strategy (src/db/storage.ts), or picks one variant per dialect from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** What asks for the engine: its name, the migrations' test, or Kysely's adapter classes. */
const DIALECT_TESTS = [
  /\.dialect\b/,
  /\bisPostgres\b/,
  /\b(Postgres|Sqlite)Adapter\b/,
  /getExecutor\(\)\s*\.adapter/,
  /db\/migrations\/dialect\.js/,
];

/** Files allowed a number of dialect tests for now, each with the reason it must go (none). */
const PENDING: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each line of the file that tests the dialect, with its number. */
function dialectTests(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, i) =>
      DIALECT_TESTS.some((test) => test.test(line)) ? [`${i + 1}: ${line.trim()}`] : [],
    );
}

describe('the dialect seam', () => {
  const outsideDb = sourceFiles(SRC)
    .map((path) => relative(SRC, path).split('\\').join('/'))
    .filter((path) => !path.startsWith('db/'));

  it('finds the source files', () => {
    expect(outsideDb).toContain('imports/queries/lists.repository.ts');
    expect(outsideDb.length).toBeGreaterThan(50);
  });

  it('keeps every dialect test inside src/db/', () => {
    const found = Object.fromEntries(
      outsideDb
        .map((path) => [path, dialectTests(join(SRC, path))] as const)
        .filter(([path, lines]) => lines.length > (PENDING[path] ?? 0)),
    );
    expect(found).toEqual({});
  });

  it('lists no pending file that has already lost its dialect tests', () => {
    const done = Object.entries(PENDING)
      .filter(([path, allowed]) => dialectTests(join(SRC, path)).length < allowed)
      .map(([path]) => path);
    expect(done).toEqual([]);
  });

  it('recognises the ways of testing the dialect', () => {
    const lines = [
      "if (db.dialect === 'postgres') {",
      "import { isPostgres } from './migrations/dialect.js';",
      'db.getExecutor().adapter instanceof PostgresAdapter',
    ];
    for (const line of lines) expect(DIALECT_TESTS.some((test) => test.test(line))).toBe(true);
    expect(DIALECT_TESTS.some((test) => test.test('db.storage.pick(PAGE_TEXT)'))).toBe(false);
  });
});
