/**
 * `npm run bench:schedules`: scheduled creation (issue 35). Staged published full accounts are
 * scheduled at once, and `account-import worker` processes (no HTTP) drain the queue; the
 * figure is accounts created per second, from the schedules' commit to the last PROCESSED.
 * SQLite with one worker process; PostgreSQL with one and with two (two instances sharing the
 * queue). Writes bench/results/schedules.json and schedules.md. See bench/README.md.
 *
 *   npm run bench:schedules -- [--accounts N] [--db sqlite|postgres] [--concurrency C]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, DEFAULT_RESULTS_DIR, ROOT } from './paths.js';
import { createTempDatabase } from './postgres.js';
import {
  cpuSeconds,
  installExitHandlers,
  killAllChildren,
  postgresCpuSeconds,
  postgresCpuSecondsBetween,
  startChild,
  stopChild,
  type Child,
} from './processes.js';
import { fullAccountBodyTemplate } from './payload.js';
import { BENCH_SUPPLIER, obtainToken, setUpData, startService } from './service.js';
import { STAGE_PATH } from './scenarios.js';

interface Options {
  accounts: number;
  databases: ('sqlite' | 'postgres')[];
  concurrency: number;
}

function parse(argv: string[]): Options {
  const options: Options = { accounts: 10_000, databases: ['sqlite', 'postgres'], concurrency: 32 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1] ?? '';
    if (argv[i] === '--accounts') options.accounts = Number(value);
    else if (argv[i] === '--concurrency') options.concurrency = Number(value);
    else if (argv[i] === '--db') options.databases = [value as 'sqlite' | 'postgres'];
    else continue;
    i++;
  }
  return options;
}

interface Row {
  database: string;
  instances: number;
  concurrency: number;
  accounts: number;
  seconds: number;
  accounts_per_second: number;
  worker_cpu_us_per_account: number;
  postgres_cpu_us_per_account: number | null;
  errored: number;
  load_average_1m: number;
}

/** The database's queries the benchmark itself runs (through the service's own connect). */
interface Queries {
  run(text: string): Promise<void>;
  count(text: string): Promise<number>;
  close(): Promise<void>;
}

async function openQueries(databaseUrl: string): Promise<Queries> {
  const { connect } = (await import(
    pathToFileURL(join(ROOT, 'dist', 'db', 'connect.js')).href
  )) as {
    connect(url: string): { kysely: unknown; close(): Promise<void> };
  };
  const { sql } = await import('kysely');
  const db = connect(databaseUrl);
  const kysely = db.kysely as Parameters<ReturnType<typeof sql.raw>['execute']>[0];
  return {
    run: async (text) => {
      await sql.raw(text).execute(kysely);
    },
    count: async (text) => {
      const { rows } = await sql.raw<{ n: number | string }>(text).execute(kysely);
      return Number(rows[0]?.n ?? 0);
    },
    close: () => db.close(),
  };
}

/** Stages `count` full accounts numbered `<prefix><i>` through the service, 32 at a time. */
async function stage(url: string, token: string, prefix: string, count: number): Promise<void> {
  const body = fullAccountBodyTemplate(BENCH_SUPPLIER);
  if (!body) throw new Error('the published full account is missing (ACCOUNT_REFERENCE_DIR)');
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const number = `${prefix}${next++}`;
      const response = await fetch(`${url}${STAGE_PATH}`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: body(number),
      });
      if (response.status >= 300) {
        throw new Error(`stage ${number}: ${response.status} ${await response.text()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, lane));
}

function startWorker(name: string, databaseUrl: string, concurrency: number, dir: string): Child {
  // BENCH_PROFILE_DIR: each worker writes a CPU profile there when it stops.
  const profile = process.env.BENCH_PROFILE_DIR;
  const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  return startChild(name, process.execPath, [...flags, CLI, 'worker'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      WORKER_CONCURRENCY: String(concurrency),
      WORKER_POLL_MS: '50',
      PROCESS_CONCURRENCY_LIMIT: '0',
      SQLITE_SYNCHRONOUS: 'NORMAL',
    },
    logFile: join(dir, `${name}.log`),
  });
}

async function started(child: Child): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!child.stdoutTail().includes('worker pool started')) {
    if (Date.now() > deadline)
      throw new Error(`${child.name} did not start: ${child.stderrTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Schedules every staged account numbered `<prefix>…` at once, window open now. */
const scheduleAll = (prefix: string) => {
  const now = Date.now();
  return `insert into creation_schedules (process_id, supplier_id, external_account_number,
      status, is_dry_run, window_start, window_end, team_id, attempts, created_at, modified_at)
    select p.id, p.supplier_id, p.external_account_number, 'PENDING', 0, ${now}, ${now + 3_600_000},
      (select id from operations_teams where name = 'Migrations'), 0, ${now}, ${now}
    from import_processes p where p.external_account_number like '${prefix}%'`;
};

async function measure(
  database: string,
  databaseUrl: string,
  prefix: string,
  instances: number,
  options: Options,
  dir: string,
): Promise<Row> {
  const workers = Array.from({ length: instances }, (_, i) =>
    startWorker(`worker-${database}-${instances}-${i}`, databaseUrl, options.concurrency, dir),
  );
  const queries = await openQueries(databaseUrl);
  try {
    await Promise.all(workers.map(started));
    const cpuBefore = workers.map((worker) => cpuSeconds(worker.pid));
    const pgBefore = database === 'postgres' ? postgresCpuSeconds() : undefined;
    await queries.run(scheduleAll(prefix));
    const t0 = performance.now();
    const open = `select count(*) as n from creation_schedules
      where external_account_number like '${prefix}%' and status in ('PENDING', 'IN_PROGRESS')`;
    while ((await queries.count(open)) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (performance.now() - t0) / 1000;
    const workerCpu = workers.reduce(
      (sum, w, i) => sum + cpuSeconds(w.pid) - (cpuBefore[i] ?? 0),
      0,
    );
    const pgCpu = pgBefore && postgresCpuSecondsBetween(pgBefore, postgresCpuSeconds());
    const errored = await queries.count(`select count(*) as n from creation_schedules
      where external_account_number like '${prefix}%' and status <> 'PROCESSED'`);
    const perAccount = (cpu: number) => Math.round((cpu * 1e6) / options.accounts);
    return {
      database,
      instances,
      concurrency: options.concurrency,
      accounts: options.accounts,
      seconds: Number(seconds.toFixed(2)),
      accounts_per_second: Math.round(options.accounts / seconds),
      worker_cpu_us_per_account: perAccount(workerCpu),
      postgres_cpu_us_per_account: pgCpu === undefined ? null : perAccount(pgCpu),
      errored,
      load_average_1m: Number((loadavg()[0] ?? 0).toFixed(2)),
    };
  } finally {
    await queries.close();
    await Promise.all(workers.map((worker) => stopChild(worker)));
  }
}

async function benchDatabase(database: 'sqlite' | 'postgres', options: Options): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'account-import-bench-schedules-'));
  const temp =
    database === 'postgres'
      ? await createTempDatabase(
          process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
        )
      : undefined;
  const databaseUrl = temp?.url ?? `sqlite:${join(dir, 'bench.db')}`;
  const runs = database === 'postgres' ? [1, 2] : [1];
  try {
    const apiKey = await setUpData(databaseUrl);
    // The service only stages (unmeasured); its own pool is off, so only the workers create.
    process.env.WORKER_CONCURRENCY = '0';
    const service = await startService(`serve-${database}`, databaseUrl, dir);
    try {
      const token = await obtainToken(service.url, apiKey);
      for (const instances of runs) {
        await stage(service.url, token, `S${instances}-`, options.accounts);
      }
    } finally {
      await service.stop();
    }
    const rows: Row[] = [];
    for (const instances of runs) {
      const row = await measure(database, databaseUrl, `S${instances}-`, instances, options, dir);
      console.log(JSON.stringify(row));
      rows.push(row);
    }
    return rows;
  } finally {
    await temp?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function markdown(rows: Row[]): string {
  const header =
    '| database | worker processes | concurrency each | accounts | seconds | accounts/s | worker CPU µs/account | PostgreSQL CPU µs/account | not PROCESSED | load avg |\n' +
    '|---|---|---|---|---|---|---|---|---|---|\n';
  return (
    header +
    rows
      .map(
        (r) =>
          `| ${r.database} | ${r.instances} | ${r.concurrency} | ${r.accounts} | ${r.seconds} | ${r.accounts_per_second.toLocaleString('en')} | ${r.worker_cpu_us_per_account} | ${r.postgres_cpu_us_per_account ?? '—'} | ${r.errored} | ${r.load_average_1m} |`,
      )
      .join('\n') +
    '\n'
  );
}

installExitHandlers();
const options = parse(process.argv.slice(2));
try {
  execFileSync(process.execPath, [CLI, '--help'], { stdio: 'ignore' });
  const rows: Row[] = [];
  for (const database of options.databases) rows.push(...(await benchDatabase(database, options)));
  writeFileSync(join(DEFAULT_RESULTS_DIR, 'schedules.json'), `${JSON.stringify(rows, null, 2)}\n`);
  writeFileSync(join(DEFAULT_RESULTS_DIR, 'schedules.md'), markdown(rows));
  process.stdout.write(markdown(rows));
} finally {
  killAllChildren();
}
