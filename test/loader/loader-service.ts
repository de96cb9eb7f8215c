/**
 * A real service for the loader's end-to-end tests: listening on a free port over a fresh
 * database of one dialect, with team Loaders, supplier ACME, supplier AUTO (which allocates its
 * accounts to Loaders) and an organisation's API key for both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import type { Db, Dialect } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { addOrganisation } from '../../src/operator/organisations.service.js';
import { addSupplier } from '../../src/operator/suppliers.service.js';
import { addTeam } from '../../src/operator/teams.service.js';
import { generateSample, type SampleLine } from '../../src/sample/sample.generator.js';
import { startServer } from '../../src/server.js';
import { CLI_PATH } from '../cli/run-cli.js';
import { createTestDatabase } from '../helpers/databases.js';

export const SUPPLIER = 'ACME';
export const TEAM = 'Loaders';
/** A supplier whose accounts go to TEAM by its own rule setting: process requests name none. */
export const AUTO_SUPPLIER = 'AUTO';

export interface LoaderService {
  url: string;
  apiKey: string;
  /** A connection of the test's own, to check what the service wrote. */
  db: Db;
  close(): Promise<void>;
}

export async function startLoaderService(
  dialect: Dialect,
  env: Record<string, string> = {},
): Promise<LoaderService> {
  const database = await createTestDatabase(dialect);
  const config = loadConfig({ DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'silent', ...env });
  const db = connect(database.url);
  // Set up before the service starts, so it seeds no demo data (and prints no instructions).
  await migrateToLatest(db);
  await addSupplier(db, SUPPLIER);
  await addTeam(db, TEAM);
  await addSupplier(db, AUTO_SUPPLIER, { ruleSettings: { auto_allocation_team: TEAM } });
  const { apiKey } = await addOrganisation(db, 'loader-org', [SUPPLIER, AUTO_SUPPLIER]);
  const server = await startServer(config, { log: false, handleSignals: false });
  return {
    url: server.url,
    apiKey,
    db,
    close: async () => {
      await server.close();
      await db.close();
      await database.destroy();
    },
  };
}

/** Writes a generated sample as NDJSON and returns its lines (with their expected defects). */
export function writeSampleFile(
  path: string,
  options: { count: number; seed: number; invalidRatio?: number; supplier?: string },
): SampleLine[] {
  const lines = [...generateSample({ supplier: SUPPLIER, ...options })];
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line.payload)}\n`).join(''));
  return lines;
}

/** External account number → service account number, for every account of ACME. */
export async function accountsOf(db: Db): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('accounts')
    .innerJoin('import_suppliers', 'import_suppliers.id', 'accounts.supplier_id')
    .where('import_suppliers.code', '=', SUPPLIER)
    .select(['accounts.external_account_number', 'accounts.number'])
    .execute();
  return new Map(rows.map((row) => [row.external_account_number, row.number]));
}

/** The number of accounts per external number, for numbers with more than one. */
export async function duplicateAccounts(db: Db): Promise<{ external: string; n: number }[]> {
  const rows = await db.kysely
    .selectFrom('accounts')
    .select(['external_account_number', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['supplier_id', 'external_account_number'])
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  return rows.map((row) => ({ external: row.external_account_number, n: Number(row.n) }));
}

export interface LoadRun {
  child: ChildProcess;
  done: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>;
}

/** Starts `account-import load …` (the built CLI) as a child process, against `service`. */
export function startLoad(
  service: Pick<LoaderService, 'url' | 'apiKey'>,
  ...args: string[]
): LoadRun {
  const env: NodeJS.ProcessEnv = { ...process.env, ACCOUNT_IMPORT_API_KEY: service.apiKey };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [CLI_PATH, 'load', '--url', service.url, ...args], { env });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}
