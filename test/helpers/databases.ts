/**
 * The dialect matrix: every storage test runs once on SQLite (a temp file) and once on
 * PostgreSQL (a fresh database on 127.0.0.1). PostgreSQL is skipped locally when it cannot be
 * reached; with CI=true an unreachable PostgreSQL fails the run instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect } from '../../src/db/connect.js';
import type { Db, Dialect } from '../../src/db/database.js';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.js';

export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let postgresReachable: Promise<boolean> | undefined;

async function checkPostgres(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (process.env.CI === 'true') {
      throw new Error(
        `PostgreSQL is unreachable at ${POSTGRES_ADMIN_URL} and CI=true: ${String(error)}`,
      );
    }
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** True when PostgreSQL tests should run; throws under CI when PostgreSQL is down. */
export function postgresAvailable(): Promise<boolean> {
  postgresReachable ??= checkPostgres();
  return postgresReachable;
}

export interface TestDatabase {
  dialect: Dialect;
  url: string;
  /** Drops or deletes the database. */
  destroy(): Promise<void>;
}

/** How PostgreSQL creates the database (SQLite ignores it). */
export interface DatabaseOptions {
  /**
   * An ICU locale for the database's default collation, e.g. `en-US`, instead of the server's
   * default (C.UTF-8 here, whose order is byte order).
   */
  icuLocale?: string;
}

/** Creates an empty database of the dialect and returns its URL (nothing migrated). */
export async function createTestDatabase(
  dialect: Dialect,
  options: DatabaseOptions = {},
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'account-import-test-'));
    return {
      dialect,
      url: `sqlite:${join(dir, 'test.db')}`,
      destroy: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `account_import_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(
    options.icuLocale === undefined
      ? `create database ${name}`
      : `create database ${name} template template0 locale_provider icu
          icu_locale '${options.icuLocale}' locale 'C.UTF-8'`,
  );
  // Sessions run in a time zone off UTC by a fraction of an hour, so that nothing the service
  // writes may depend on the server's time zone (dates and times are always UTC).
  await admin.query(`alter database ${name} set timezone = 'America/St_Johns'`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    dialect,
    url: url.toString(),
    destroy: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * Creates and opens a database of the dialect, migrated to the latest schema or, for the
 * tests of a migration, up to the one named `migration`.
 */
export async function openTestDb(
  dialect: Dialect,
  migration?: string,
  options: DatabaseOptions = {},
): Promise<{ db: Db; url: string; destroy(): Promise<void> }> {
  const database = await createTestDatabase(dialect, options);
  const db = connect(database.url);
  await (migration === undefined ? migrateToLatest(db) : migrateTo(db, migration));
  return {
    db,
    url: database.url,
    destroy: async () => {
      await db.close();
      await database.destroy();
    },
  };
}

export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/** Whether tests of this dialect run here (decided once per process). */
export async function dialectEnabled(dialect: Dialect): Promise<boolean> {
  return dialect === 'sqlite' ? true : postgresAvailable();
}

/** Declares the suite once per dialect; usage: `await describeEachDialect('stage', (dialect) => { ... })`. */
export async function describeEachDialect(
  title: string,
  body: (dialect: Dialect) => void,
): Promise<void> {
  const { describe } = await import('vitest');
  for (const dialect of DIALECTS) {
    const enabled = await dialectEnabled(dialect);
    describe.skipIf(!enabled)(`${title} [${dialect}]`, () => body(dialect));
  }
}
