/** What every command shares: global options, configuration, the database and output. */
import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.js';
import type { Db } from '../db/database.js';

/** A command group adds its commands to the program; main.ts lists the groups. */
export type CommandGroup = (program: Command) => void;

/** Options of the program itself, accepted before or after any command. */
export interface GlobalOptions {
  json?: boolean;
  databaseUrl?: string;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/**
 * The environment's configuration with the command-line flags laid over it. `overrides` are a
 * command's own flags, as the variables they replace: a flag given replaces its variable before
 * the configuration is checked, so a bad value in the variable it replaces is never read.
 */
export function commandConfig(
  command: Command,
  overrides: Record<string, string | undefined> = {},
): Config {
  const { databaseUrl } = globalOptions(command);
  const env: NodeJS.ProcessEnv = { ...process.env };
  const given: string[] = [];
  for (const [name, value] of Object.entries({ ...overrides, DATABASE_URL: databaseUrl })) {
    if (value === undefined) continue;
    env[name] = value;
    given.push(name);
  }
  try {
    return loadConfig(env);
  } catch (error) {
    // A bad value given as a flag is reported under the flag's name, not the variable's.
    const variable = given.find((name) => (error as Error).message.startsWith(`${name} `));
    if (!(error instanceof ConfigError) || variable === undefined) throw error;
    throw new ConfigError(`${flagOf(variable)}${error.message.slice(variable.length)}`);
  }
}

/** `DATABASE_URL` → `--database-url`: the flag that replaces a variable. */
const flagOf = (variable: string) => `--${variable.toLowerCase().replaceAll('_', '-')}`;

/**
 * Opens the database with one connection, all a single command needs. The drivers are loaded
 * here, not at the top: `load`, `sample` and `--help` never need them.
 */
export async function openDatabase(config: Config): Promise<Db> {
  const { connect } = await import('../db/connect.js');
  return connect(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous, poolSize: 1 });
}

/**
 * Opens the configured database, migrates it to the newest schema (so operator commands work
 * on a fresh database), runs the work and always closes the database.
 */
export async function withDatabase<T>(command: Command, work: (db: Db) => Promise<T>): Promise<T> {
  const config = commandConfig(command);
  const db = await openDatabase(config);
  const { migrateToLatest, onMigrationConnection } = await import('../db/migrate.js');
  try {
    await onMigrationConnection(db, config.databaseUrl, migrateToLatest);
    return await work(db);
  } finally {
    await db.close();
  }
}

/** Prints the JSON value with --json, else the human text. */
export function print(command: Command, json: unknown, human: string): void {
  process.stdout.write(globalOptions(command).json ? `${JSON.stringify(json)}\n` : `${human}\n`);
}

/** Columns padded to their widest cell; the last column is not padded. */
export function formatTable(headers: readonly string[], rows: readonly string[][]): string {
  // A loop, not Math.max(...cells): a list of a few hundred thousand rows would pass more
  // arguments than the stack holds.
  const widths = headers.map((header, i) =>
    rows.reduce((widest, row) => Math.max(widest, (row[i] ?? '').length), header.length),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/**
 * Prints a list: a JSON array with --json, a table or the empty message otherwise (the table is
 * only laid out when it is printed).
 */
export function printList(
  command: Command,
  json: unknown[],
  headers: readonly string[],
  rows: readonly string[][],
  empty: string,
): void {
  if (globalOptions(command).json) print(command, json, '');
  else print(command, json, rows.length === 0 ? empty : formatTable(headers, rows));
}

export { isoTime } from '../datetime.js';
