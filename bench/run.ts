/**
 * `npm run bench [-- --quick]`: the service against its baselines, on SQLite and (when
 * reachable) PostgreSQL, one server process and one scenario at a time; writes
 * bench/results/latest.json and latest.md. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { runEchoBaseline, startUpsertBaseline, type UpsertBaseline } from './baselines.js';
import { runLoader } from './loader.js';
import { parseOptions, selected, type BenchOptions, type DatabaseKind } from './options.js';
import { CLI, ROOT } from './paths.js';
import { createTempDatabase, postgresVersion } from './postgres.js';
import { logProblems, rowProblems } from './problems.js';
import { installExitHandlers, killAllChildren, peakRssMb, resetPeakRss } from './processes.js';
import {
  accountBodyTemplate,
  FULL_ACCOUNT_FILE,
  fullAccountBodyTemplate,
  scheduleBodyTemplate,
} from './payload.js';
import {
  loaderRow,
  requestRow,
  skippedRow,
  streamRow,
  textTable,
  writeResults,
  type Row,
} from './report.js';
import {
  LIST_KINDS,
  LIST_PAGE_ROWS,
  ServiceScenarios,
  listPath,
  measure,
  type AccountVariant,
  type Harness,
} from './scenarios.js';
import {
  BENCH_SUPPLIER,
  STREAM_SUPPLIER,
  obtainToken,
  setUpData,
  startService,
  type Service,
} from './service.js';
import { insertListRows, streamList } from './stream.js';
import { POST_IMPORT_SCENARIOS, TRANSACTIONS_SCENARIO } from './post-import.js';
import { EVENTS_PER_ACCOUNT, insertEvents, timelineRequests } from './events.js';

// The baselines get an Authorization header of a token's usual size, so requests weigh the same.
const BASELINE_TOKEN = 'x'.repeat(230);
/** Accounts staged at least before the status and list scenarios, which read them. */
const LIST_ROWS = 1_000;
/** Created accounts at least before the post-import scenarios, which add to them. */
const POST_IMPORT_ACCOUNTS = 500;
/** Created accounts the transactions scenario adds to. */
const TRANSACTION_ACCOUNTS = 200;
/** The scenarios that send the published full account instead of the typical one. */
const FULL_SCENARIOS = ['validate-full', 'stage-new-full', 'process-full'];

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const log = (message: string) =>
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })
      .toString()
      .trim();
    const dirty = execFileSync('git', ['status', '--porcelain', 'src'], { cwd: ROOT })
      .toString()
      .trim();
    return dirty ? `${head} (with uncommitted changes in src/)` : head;
  } catch {
    return 'unknown';
  }
}

class Bench {
  readonly rows: Row[] = [];
  readonly problems: string[] = [];
  failed = false;
  private readonly runId = Date.now().toString(36);

  constructor(
    private readonly options: BenchOptions,
    private readonly workDir: string,
  ) {}

  fail(problem: string): void {
    this.failed = true;
    this.problems.push(problem);
    console.error(`bench: ${problem}`);
  }

  private add(row: Row): Row {
    row.load_average_1m = Math.round((loadavg()[0] ?? 0) * 100) / 100;
    this.rows.push(row);
    if (row.skipped !== undefined) return row;
    const rate = row.requests_per_second ?? row.items_per_second ?? row.accounts_per_second ?? 0;
    log(
      `  ${row.scenario} (${row.database}): ${Math.round(rate)}/s, p99 ${row.latency_ms?.p99 ?? '—'} ms, errors ${row.errors}`,
    );
    return row;
  }

  /**
   * The echo baseline, measured in each database's pass just before its validate: the
   * machine's speed drifts over a run (background work of the database, other tenants), and a
   * ratio is only fair between two figures taken under the same conditions. The echo touches
   * no database; its row carries the pass's database to say which validate it is the floor of.
   */
  private async echoBaseline(kind: DatabaseKind, variant: AccountVariant): Promise<Row> {
    log(`baseline: bare JSON echo (${kind} pass)`);
    const result = await runEchoBaseline(this.options, this.workDir, BASELINE_TOKEN, variant);
    result.notes.push(
      `no database: measured in the ${kind} pass, just before its validate${variant.suffix}`,
    );
    return this.add(requestRow(result, kind));
  }

  async database(kind: DatabaseKind): Promise<void> {
    const temp =
      kind === 'postgres' ? await createTempDatabase(this.options.postgresUrl) : undefined;
    if (temp) log(`PostgreSQL: database ${temp.name}`);
    try {
      const serviceUrl = temp?.url ?? `sqlite:${join(this.workDir, 'service.db')}`;
      const baselineUrl = temp?.url ?? `sqlite:${join(this.workDir, 'baseline.db')}`;
      const upsert = ['stage-new', 're-stage', 'stage-new-full'].some((s) =>
        selected(this.options, s),
      )
        ? await startUpsertBaseline(this.options, this.workDir, kind, baselineUrl, BASELINE_TOKEN)
        : undefined;
      try {
        log(`service on ${kind}: setting up`);
        const apiKey = await setUpData(serviceUrl);
        const service = await startService(`service-${kind}`, serviceUrl, this.workDir);
        try {
          await this.serviceScenarios(kind, service, apiKey, upsert);
        } finally {
          await service.stop();
          this.problems.push(
            ...logProblems(join(this.workDir, `service-${kind}.log`), `service (${kind})`),
          );
        }
      } finally {
        await upsert?.stop();
      }
    } finally {
      await temp?.drop();
    }
  }

  private async serviceScenarios(
    kind: DatabaseKind,
    service: Service,
    apiKey: string,
    upsert: UpsertBaseline | undefined,
  ): Promise<void> {
    const { options } = this;
    const token = await obtainToken(service.url, apiKey);
    const headers = { authorization: `Token ${token}` };
    const harness: Harness = {
      options,
      baseUrl: service.url,
      headers,
      database: kind,
      pid: () => service.pid,
      around: async (scenario, work) => {
        if (options.profileDir === undefined) return work();
        await service.restart(join(options.profileDir, `${kind}-${scenario}`));
        try {
          return await work();
        } finally {
          await service.restart();
        }
      },
    };
    const typical: AccountVariant = { suffix: '', body: accountBodyTemplate(BENCH_SUPPLIER) };
    const scenarios = new ServiceScenarios(harness, BENCH_SUPPLIER, this.runId, typical);
    // A failed step is reported and the run goes on; a service that died is started again.
    const step = async (name: string, work: () => Promise<void>) => {
      if (!selected(options, name)) return;
      log(`${kind}: ${name}`);
      try {
        await work();
      } catch (error) {
        const exit = service.unexpectedExit();
        this.fail(`${kind}: ${name} failed: ${message(error)}${exit ? `; ${exit}` : ''}`);
        if (exit) {
          log(`${kind}: starting the service again`);
          await service.restart();
        }
      }
    };
    const needStaged = async (count: number, of = scenarios) => {
      const added = await of.stageUpTo(count);
      if (added > 0)
        log(`${kind}: staged ${added} more accounts (unmeasured) → ${of.staged.length}`);
    };

    const validate = async (of: ServiceScenarios) => {
      const echo = await this.echoBaseline(kind, of.variant);
      this.add(requestRow(await of.validate(), kind, echo));
    };
    // Each raw-upsert run is measured just before the stage it is the floor of (see echoBaseline).
    const fresh = new Map<string, Row>();
    const freshBaseline = async (variant: AccountVariant) => {
      if (upsert && !fresh.has(variant.suffix)) {
        log(`baseline: raw upsert of new keys on ${kind} (baseline-upsert-new${variant.suffix})`);
        fresh.set(variant.suffix, this.add(requestRow(await upsert.fresh(variant), kind)));
      }
      return fresh.get(variant.suffix);
    };
    /**
     * The stage-new row of each account variant: what scheduling and the post-import scenarios
     * compare with.
     */
    const staging = new Map<string, Row>();
    const stageNew = async (of: ServiceScenarios) => {
      const baseline = await freshBaseline(of.variant);
      staging.set(of.variant.suffix, this.add(requestRow(await of.stageNew(), kind, baseline)));
    };
    const processStaged = async (of: ServiceScenarios) => {
      const before = of.staged.length;
      await needStaged(options.processBudget, of);
      const result = await of.process();
      if (of.staged.length > before) {
        result.notes.push(`${of.staged.length - before} accounts staged beforehand, unmeasured`);
      }
      this.add(requestRow(result, kind));
    };

    await step('validate', () => validate(scenarios));
    await step('stage-new', () => stageNew(scenarios));
    await step('schedule-new', async () => {
      const result = await scenarios.scheduleNew(scheduleBodyTemplate(BENCH_SUPPLIER));
      this.add(requestRow(result, kind, staging.get(typical.suffix)));
    });
    await step('re-stage', async () => {
      await needStaged(Math.min(options.processBudget, 5_000));
      let baseline: Row | undefined;
      if (upsert) {
        // The same keys need a run with new keys first, when stage-new was not selected.
        await freshBaseline(typical);
        log(`baseline: raw upsert of the same keys on ${kind}`);
        baseline = this.add(requestRow(await upsert.same(typical), kind));
      }
      this.add(requestRow(await scenarios.reStage(), kind, baseline));
    });
    await step('process', () => processStaged(scenarios));
    for (const postImport of POST_IMPORT_SCENARIOS) {
      await step(postImport.name, async () => {
        await needStaged(LIST_ROWS);
        const processed = await scenarios.processUpTo(POST_IMPORT_ACCOUNTS);
        if (processed > 0) log(`${kind}: processed ${processed} accounts (unmeasured)`);
        const stage = staging.get(typical.suffix);
        this.add(requestRow(await scenarios.addTo(postImport), kind, stage));
      });
    }
    await step('transactions', async () => {
      // Requests spread over this many created accounts, each of them opened by its first one.
      await needStaged(TRANSACTION_ACCOUNTS);
      const processed = await scenarios.processUpTo(TRANSACTION_ACCOUNTS);
      if (processed > 0) log(`${kind}: processed ${processed} accounts (unmeasured)`);
      this.add(requestRow(await scenarios.addTo(TRANSACTIONS_SCENARIO), kind));
    });
    await step('status', async () => {
      await needStaged(LIST_ROWS);
      this.add(requestRow(await scenarios.status(), kind));
    });
    for (const list of LIST_KINDS) {
      await step(`list-${list}`, async () => {
        // Every list has more than a page of rows, even when the scenarios before it did not run.
        await needStaged(LIST_ROWS);
        const processed = await scenarios.processUpTo(LIST_PAGE_ROWS + 1);
        if (processed > 0) log(`${kind}: processed ${processed} accounts (unmeasured)`);
        this.add(requestRow(await scenarios.list(list), kind));
      });
    }
    // The published full account comes after the scenarios above, so that they run on the
    // database they always ran on; each of its scenarios beside its baseline of the same body.
    const fullBody = fullAccountBodyTemplate(BENCH_SUPPLIER);
    if (fullBody === undefined) {
      const reason = `the published full account ${FULL_ACCOUNT_FILE} is absent (set ACCOUNT_REFERENCE_DIR)`;
      for (const name of FULL_SCENARIOS.filter((s) => selected(options, s))) {
        log(`${kind}: ${name} skipped: ${reason}`);
        this.add(skippedRow(name, kind, reason));
      }
    } else {
      const full: AccountVariant = { suffix: '-full', body: fullBody };
      const fullScenarios = new ServiceScenarios(harness, BENCH_SUPPLIER, this.runId, full);
      await step('validate-full', () => validate(fullScenarios));
      await step('stage-new-full', () => stageNew(fullScenarios));
      await step('process-full', () => processStaged(fullScenarios));
    }
    await step('stream', async () => {
      log(`${kind}: inserting ${options.streamItems} processes with SQL`);
      const insertS = await insertListRows(
        service.databaseUrl,
        STREAM_SUPPLIER,
        options.streamItems,
      );
      await harness.around('stream', async () => {
        resetPeakRss(service.pid);
        const stream = await streamList(
          service.url + listPath('all', STREAM_SUPPLIER),
          headers,
          service.pid,
        );
        this.add(
          streamRow(kind, options.streamItems, stream, peakRssMb(service.pid), [
            `${options.streamItems} rows inserted in ${insertS.toFixed(1)} s`,
          ]),
        );
      });
    });
    await step('timeline', async () => {
      log(`${kind}: inserting ${options.streamItems} account events with SQL`);
      const insertS = await insertEvents(service.databaseUrl, STREAM_SUPPLIER, options.streamItems);
      const requests = () => timelineRequests(headers, STREAM_SUPPLIER, options.streamItems);
      const result = await measure(harness, 'timeline', [200], requests);
      result.notes.push(
        `${options.streamItems} events (${EVENTS_PER_ACCOUNT} per account) inserted in ${insertS.toFixed(1)} s`,
      );
      this.add(requestRow(result, kind));
    });
    if (kind === 'sqlite') {
      await step('loader', async () => {
        log(`${kind}: bulk loader over ${options.loaderAccounts} accounts`);
        resetPeakRss(service.pid);
        const result = await runLoader(
          service.url,
          apiKey,
          service.databaseUrl,
          options.loaderAccounts,
          this.workDir,
        );
        const row = this.add(loaderRow(result, result.skipped ? null : peakRssMb(service.pid)));
        if (result.skipped) this.problems.push(`bulk loader: skipped: ${result.skipped}`);
        else if (result.exitCode !== 'exit code 0') {
          this.problems.push(
            `bulk loader exited with ${result.exitCode}; see ${row.notes?.join(' ')}`,
          );
        }
      });
    }
  }
}

async function main(): Promise<number> {
  installExitHandlers();
  const options = parseOptions(process.argv.slice(2));
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const workDir = mkdtempSync(join(tmpdir(), 'account-import-bench-'));
  const started = performance.now();
  const loadAverageStart = loadavg().map((n) => Math.round(n * 100) / 100);
  const postgres = options.databases.includes('postgres')
    ? await postgresVersion(options.postgresUrl)
    : undefined;
  log(`${options.quick ? 'quick' : 'full'} run; work directory ${workDir}`);
  const bench = new Bench(options, workDir);
  for (const kind of options.databases) {
    if (kind === 'postgres' && postgres === undefined) {
      bench.problems.push(`PostgreSQL at ${options.postgresUrl} is not reachable: skipped`);
      continue;
    }
    try {
      await bench.database(kind);
    } catch (error) {
      bench.fail(`${kind} failed: ${message(error)}`);
    }
  }
  killAllChildren();
  bench.problems.push(...rowProblems(bench.rows));
  const cpu = cpus();
  writeResults(options.resultsDir, bench.rows, {
    mode: options.quick ? 'quick' : 'full',
    date: new Date().toISOString(),
    cpuModel: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${type()} ${release()}`,
    postgres: postgres ?? 'not used',
    commit: commit(),
    connections: options.connections,
    durationS: options.durationS,
    warmupS: options.warmupS,
    loadAverageStart,
    loadAverageEnd: loadavg().map((n) => Math.round(n * 100) / 100),
    wallS: (performance.now() - started) / 1000,
    sqliteSynchronous: 'NORMAL',
    problems: bench.problems,
  });
  console.log(`\n${textTable(bench.rows)}\n`);
  for (const problem of bench.problems) console.log(`problem: ${problem}`);
  console.log(`\nwrote ${join(options.resultsDir, 'latest.json')} and latest.md`);
  if (bench.problems.length > 0) console.log(`logs kept in ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
  return bench.failed ? 1 : 0;
}

process.exitCode = await main();
