/**
 * The bulk loader end to end: `account-import sample` writes N accounts, `account-import load`
 * stages and processes them against the running SQLite service, as a child process under
 * /usr/bin/time -v (its "Maximum resident set size" is the loader's peak RSS).
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { accountBodyTemplate } from './payload.js';
import { CLI, ROOT } from './paths.js';
import { startChild, stopChild, type Child } from './processes.js';
import { LOADER_SUPPLIER, TEAM } from './service.js';

const run = promisify(execFile);
const TIME = '/usr/bin/time';

export interface LoaderResult {
  /** Undefined when the step ran; otherwise why it did not. */
  skipped?: string;
  accounts: number;
  created: number;
  wallS: number;
  accountsPerSecond: number;
  loaderPeakRssMb: number;
  exitCode: string;
  sampleSource: string;
  summary: string;
}

async function commandHelp(command: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(process.execPath, [CLI, command, '--help'], { cwd: ROOT });
    return stdout;
  } catch {
    return undefined;
  }
}

/** Writes `count` NDJSON accounts: the project's sample generator when it is there. */
async function writeAccounts(file: string, count: number): Promise<string> {
  const help = await commandHelp('sample');
  if (help !== undefined) {
    const args = [CLI, 'sample', '--count', String(count), '--supplier', LOADER_SUPPLIER];
    if (help.includes('--invalid-ratio')) args.push('--invalid-ratio', '0');
    if (help.includes('--seed')) args.push('--seed', '20261122');
    const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve, reject) => {
      proc.on('error', reject);
      proc.on('exit', (code) => resolve(code));
    });
    await pipeline(proc.stdout, createWriteStream(file));
    const code = await exited;
    if (code !== 0) throw new Error(`account-import sample exited with ${code}`);
    return 'account-import sample';
  }
  const body = accountBodyTemplate(LOADER_SUPPLIER);
  const out = createWriteStream(file);
  for (let i = 1; i <= count; i++) {
    if (!out.write(`${body(`L-${String(i).padStart(7, '0')}`)}\n`)) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return 'bench account template (account-import sample not available)';
}

function countCreated(databaseUrl: string): number {
  const db = new SQLite(databaseUrl.slice('sqlite:'.length), { readonly: true });
  try {
    const row = db
      .prepare(
        `SELECT count(*) AS n FROM import_processes p JOIN import_suppliers s ON s.id = p.supplier_id
         WHERE s.code = ? AND p.state = 'completed'`,
      )
      .get(LOADER_SUPPLIER) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

function skipped(reason: string, accounts: number): LoaderResult {
  return {
    skipped: reason,
    accounts,
    created: 0,
    wallS: 0,
    accountsPerSecond: 0,
    loaderPeakRssMb: 0,
    exitCode: 'not run',
    sampleSource: '',
    summary: '',
  };
}

/** Loads `count` generated accounts into the service at `url` (SQLite at `databaseUrl`). */
export async function runLoader(
  url: string,
  apiKey: string,
  databaseUrl: string,
  count: number,
  workDir: string,
): Promise<LoaderResult> {
  if ((await commandHelp('load')) === undefined) {
    return skipped('loader not available (account-import load is not in this build)', count);
  }
  const file = join(workDir, 'loader-accounts.ndjson');
  const sampleSource = await writeAccounts(file, count);
  const loadArgs = [CLI, '--json', 'load', file, '--url', url, '--api-key', apiKey, '--team', TEAM];
  const timed = existsSync(TIME);
  const started = performance.now();
  const child: Child = startChild(
    'loader',
    timed ? TIME : process.execPath,
    timed ? ['-v', process.execPath, ...loadArgs] : loadArgs.slice(),
    { cwd: ROOT, logFile: join(workDir, 'loader.log') },
  );
  // A loader that hangs is stopped after ten times its target time (at least two minutes).
  const limitS = Math.max(120, (10 * 90 * count) / 100_000);
  const watchdog = setTimeout(() => void stopChild(child, 5000), limitS * 1000);
  const exitCode = await child.exited;
  clearTimeout(watchdog);
  const wallS = (performance.now() - started) / 1000;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderrTail());
  const created = countCreated(databaseUrl);
  return {
    accounts: count,
    created,
    wallS,
    accountsPerSecond: created / wallS,
    loaderPeakRssMb: rss ? Number(rss[1]) / 1024 : NaN,
    exitCode,
    sampleSource,
    summary: child.stdoutTail().trim().slice(0, 2000),
  };
}
