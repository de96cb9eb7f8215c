/** Command-line options of `npm run bench` and the sizes of a full and a quick run. */
import { parseArgs } from 'node:util';
import { DEFAULT_RESULTS_DIR } from './paths.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface BenchOptions {
  quick: boolean;
  connections: number;
  durationS: number;
  warmupS: number;
  /** Accounts staged before the process scenario; each is processed at most once. */
  processBudget: number;
  streamItems: number;
  loaderAccounts: number;
  databases: DatabaseKind[];
  /** Scenario names to run (undefined: all); baselines run when a scenario needs them. */
  only: Set<string> | undefined;
  /** With --profile DIR, the service is run with --cpu-prof for each selected scenario. */
  profileDir: string | undefined;
  resultsDir: string;
  postgresUrl: string;
}

const USAGE = `usage: npm run bench -- [--quick] [--db sqlite|postgres] [--only a,b] [--profile DIR] [--out DIR]
  --quick        short durations and small counts (a smoke check, under two minutes)
  --db KIND      only this database (repeatable); default: SQLite, and PostgreSQL when reachable
  --only LIST    only these scenarios: validate, stage-new, schedule-new, re-stage, process, transactions, status,
                 add-statements, add-notes, add-payment-instruction, list-all,
                 list-pending, list-imported, validate-full, stage-new-full, process-full,
                 stream, timeline, loader
  --profile DIR  run the service with --cpu-prof, restarted around each selected scenario;
                 profiles land in DIR/<database>-<scenario>/
  --out DIR      write latest.json and latest.md here (default bench/results)
  --connections N  autocannon connections (default 32; 1 measures unloaded latency)
  environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)`;

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      db: { type: 'string', multiple: true },
      only: { type: 'string' },
      profile: { type: 'string' },
      out: { type: 'string' },
      connections: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const databases = (values.db ?? ['sqlite', 'postgres']).map((db) => {
    if (db !== 'sqlite' && db !== 'postgres') throw new Error(`--db: unknown database ${db}`);
    return db;
  });
  const quick = values.quick === true;
  const connections = values.connections === undefined ? 32 : Number(values.connections);
  if (!Number.isInteger(connections) || connections < 1 || connections > 1024) {
    throw new Error(`--connections: expected a whole number from 1 to 1024`);
  }
  return {
    quick,
    connections,
    durationS: quick ? 2 : 10,
    warmupS: quick ? 1 : 3,
    processBudget: quick ? 4_000 : 40_000,
    streamItems: quick ? 100_000 : 1_000_000,
    loaderAccounts: quick ? 2_000 : 100_000,
    databases,
    only:
      values.only === undefined ? undefined : new Set(values.only.split(',').map((s) => s.trim())),
    profileDir: values.profile,
    resultsDir: values.out ?? DEFAULT_RESULTS_DIR,
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

/** True when the scenario is selected by --only (or there is no --only). */
export function selected(options: BenchOptions, scenario: string): boolean {
  return options.only === undefined || options.only.has(scenario);
}
