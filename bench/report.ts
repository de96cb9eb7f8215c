/** Result rows, the printed table, and bench/results/latest.json and latest.md. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { LoaderResult } from './loader.js';
import type { ScenarioResult } from './scenarios.js';
import type { StreamResult } from './stream.js';
import { loaderVerdict, requestVerdict, streamVerdict } from './targets.js';

export interface Row {
  scenario: string;
  database: string;
  requests_per_second: number | null;
  latency_ms: { p50: number; p99: number; max: number } | null;
  errors: number;
  peak_rss_mb: number | null;
  /** CPU time per completed request in the measured run, µs (request scenarios only). */
  cpu_us_per_request?: { server: number; postgres: number | null; load_generator: number };
  /**
   * Requests per second at which the CPU a request costs (server, PostgreSQL and load
   * generator together) would keep every core of the machine busy: no arrangement of the work
   * goes faster on this machine.
   */
  cpu_ceiling_per_second?: number;
  baseline: string | null;
  ratio_to_baseline: number | null;
  target: string | null;
  target_met: boolean | null;
  /** Details beyond the common fields. */
  requests?: number;
  duration_s?: number;
  status_codes?: Record<string, number>;
  items?: number;
  items_per_second?: number;
  rss_growth_mb?: number;
  accounts?: number;
  accounts_created?: number;
  accounts_per_second?: number;
  wall_s?: number;
  loader_peak_rss_mb?: number;
  /** The machine's 1-minute load average when the scenario ended: other work skews figures. */
  load_average_1m?: number;
  /** Why the scenario was not measured; a skipped row has no figures and no target. */
  skipped?: string;
  notes?: string[];
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A request scenario's row; `baseline` is the row it is compared with, if any. */
export function requestRow(result: ScenarioResult, database: string, baseline?: Row): Row {
  const { load, cpuUsPerRequest: cpu } = result;
  const ratio = baseline?.requests_per_second
    ? load.requestsPerSecond / baseline.requests_per_second
    : null;
  const verdict = requestVerdict({
    scenario: result.scenario,
    database,
    requestsPerSecond: load.requestsPerSecond,
    p99: load.latencyMs.p99,
    errors: load.errors,
    ratio,
  });
  return {
    scenario: result.scenario,
    database,
    requests_per_second: round(load.requestsPerSecond),
    latency_ms: load.latencyMs,
    errors: load.errors,
    peak_rss_mb: round(result.peakRssMb),
    cpu_us_per_request: {
      server: round(cpu.server),
      postgres: cpu.postgres === null ? null : round(cpu.postgres),
      load_generator: round(cpu.loadGenerator),
    },
    cpu_ceiling_per_second: round(
      (availableParallelism() * 1e6) / (cpu.server + (cpu.postgres ?? 0) + cpu.loadGenerator),
      0,
    ),
    baseline: baseline ? `${baseline.scenario} (${baseline.database})` : null,
    ratio_to_baseline: ratio === null ? null : round(ratio, 3),
    target: verdict?.target ?? null,
    target_met: verdict?.met ?? null,
    requests: load.requests,
    duration_s: round(load.durationS, 2),
    status_codes: load.statusCodes,
    ...(result.notes.length > 0 ? { notes: result.notes } : {}),
  };
}

export function streamRow(
  database: string,
  expected: number,
  stream: StreamResult,
  peakRssMb: number,
  notes: string[],
): Row {
  const itemsPerSecond = stream.items / stream.seconds;
  const growth = stream.rssPeakMb - stream.rssBeforeMb;
  const ok = stream.status === 200 && stream.complete && stream.items === expected;
  const verdict = streamVerdict(itemsPerSecond, growth, ok);
  return {
    scenario: `list-all-unpaged-${expected}`,
    database,
    requests_per_second: null,
    latency_ms: {
      p50: round(stream.firstByteMs),
      p99: round(stream.firstByteMs),
      max: round(stream.seconds * 1000),
    },
    errors: ok ? 0 : 1,
    peak_rss_mb: round(peakRssMb),
    baseline: null,
    ratio_to_baseline: null,
    target: verdict.target,
    target_met: verdict.met,
    items: stream.items,
    items_per_second: Math.round(itemsPerSecond),
    rss_growth_mb: round(growth),
    duration_s: round(stream.seconds, 2),
    notes: [
      'latency_ms: p50 = p99 = time to first byte, max = whole stream',
      `${round(stream.bytes / 1e6)} MB body; service RSS ${round(stream.rssBeforeMb)} MB before, ${round(stream.rssPeakMb)} MB peak`,
      ...notes,
    ],
  };
}

/** A scenario that was not measured, and why: not a failure of the run. */
export function skippedRow(scenario: string, database: string, reason: string): Row {
  return {
    scenario,
    database,
    requests_per_second: null,
    latency_ms: null,
    errors: 0,
    peak_rss_mb: null,
    baseline: null,
    ratio_to_baseline: null,
    target: null,
    target_met: null,
    skipped: reason,
    notes: [`skipped: ${reason}`],
  };
}

export function loaderRow(result: LoaderResult, servicePeakRssMb: number | null): Row {
  const scenario = `bulk-loader-${result.accounts}`;
  if (result.skipped !== undefined) {
    return { ...skippedRow(scenario, 'sqlite', result.skipped), accounts: result.accounts };
  }
  const base = {
    scenario,
    database: 'sqlite',
    requests_per_second: null,
    latency_ms: null,
    baseline: null,
    ratio_to_baseline: null,
    accounts: result.accounts,
  };
  const verdict = loaderVerdict(
    result.accounts,
    result.created,
    result.wallS,
    result.loaderPeakRssMb,
  );
  return {
    ...base,
    errors: result.accounts - result.created,
    peak_rss_mb: servicePeakRssMb === null ? null : round(servicePeakRssMb),
    target: verdict.target,
    target_met: verdict.met,
    accounts_created: result.created,
    accounts_per_second: Math.round(result.accountsPerSecond),
    wall_s: round(result.wallS, 2),
    loader_peak_rss_mb: round(result.loaderPeakRssMb),
    notes: [
      'peak_rss_mb is the service; loader_peak_rss_mb the loader process',
      `accounts from ${result.sampleSource}; loader ${result.exitCode}`,
      ...(result.summary ? [`loader summary: ${result.summary}`] : []),
    ],
  };
}

const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined
    ? '—'
    : value.toLocaleString('en', { maximumFractionDigits: digits });

function rate(row: Row): string {
  if (row.skipped !== undefined) return 'skipped';
  if (row.requests_per_second !== null) return num(row.requests_per_second, 0);
  if (row.items_per_second !== undefined) return `${num(row.items_per_second, 0)} items/s`;
  if (row.accounts_per_second !== undefined) return `${num(row.accounts_per_second, 0)} acc/s`;
  return '—';
}

const HEADERS = [
  'scenario',
  'database',
  'req/s',
  'p50 ms',
  'p99 ms',
  'max ms',
  'errors',
  'peak RSS MB',
  'CPU µs/req',
  'load gen µs/req',
  'CPU ceiling req/s',
  'vs baseline',
  'target met',
];

/** The server's CPU per request, and PostgreSQL's after a plus sign. */
function cpuCell(cpu: Row['cpu_us_per_request']): string {
  if (cpu === undefined) return '—';
  return cpu.postgres === null
    ? num(cpu.server, 0)
    : `${num(cpu.server, 0)} + ${num(cpu.postgres, 0)}`;
}

function cells(row: Row): string[] {
  const met = row.target_met === null ? '—' : row.target_met ? 'yes' : 'NO';
  return [
    row.scenario,
    row.database,
    rate(row),
    num(row.latency_ms?.p50, 2),
    num(row.latency_ms?.p99, 2),
    num(row.latency_ms?.max, 0),
    String(row.errors),
    num(row.peak_rss_mb),
    cpuCell(row.cpu_us_per_request),
    num(row.cpu_us_per_request?.load_generator, 0),
    num(row.cpu_ceiling_per_second, 0),
    row.ratio_to_baseline === null ? '—' : `${Math.round(row.ratio_to_baseline * 100)}%`,
    met,
  ];
}

/** The rows as an aligned text table, for the terminal. */
export function textTable(rows: Row[]): string {
  const body = rows.map(cells);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function markdownTable(headers: string[], rows: string[][]): string {
  const escape = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `| ${headers.join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(escape).join(' | ')} |`),
  ].join('\n');
}

export interface RunInfo {
  mode: 'full' | 'quick';
  date: string;
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  postgres: string;
  commit: string;
  connections: number;
  durationS: number;
  warmupS: number;
  loadAverageStart: number[];
  loadAverageEnd: number[];
  wallS: number;
  sqliteSynchronous: string;
  problems: string[];
}

function markdown(rows: Row[], info: RunInfo): string {
  const targets = rows
    .filter((r) => r.target !== null)
    .map((r) => [r.scenario, r.database, r.target ?? '', r.target_met ? 'yes' : 'NO']);
  const details = rows.map((r) => {
    const codes = r.status_codes
      ? Object.entries(r.status_codes)
          .map(([code, n]) => `${code}×${n}`)
          .join(', ')
      : '';
    return `- **${r.scenario}** (${r.database}): ${[
      codes && `statuses ${codes}`,
      r.load_average_1m !== undefined && `load average ${r.load_average_1m}`,
      ...(r.notes ?? []),
    ]
      .filter(Boolean)
      .join('; ')}`;
  });
  return `# Benchmark results (${info.mode} run)

Generated by \`npm run bench${info.mode === 'quick' ? ' -- --quick' : ''}\`. Figures are only comparable within this one run.

| machine | |
|---|---|
| date | ${info.date} |
| CPU | ${info.cpuModel} |
| cores | ${info.cores} |
| memory | ${info.memoryGb} GB |
| OS | ${info.os} |
| Node.js | ${info.node} |
| PostgreSQL | ${info.postgres} |
| commit | ${info.commit} |
| load average (1, 5, 15 min) at start / end | ${info.loadAverageStart.join(', ')} / ${info.loadAverageEnd.join(', ')} |
| run | ${info.connections} connections, keep-alive, ${info.warmupS} s warm-up + ${info.durationS} s per scenario; ${Math.round(info.wallS)} s in all |
| SQLite | WAL, synchronous ${info.sqliteSynchronous} (service and baseline) |

## Results

${markdownTable(HEADERS, rows.map(cells))}

"req/s" is completed requests per second (items/s for the unpaged list, accounts/s for the bulk
loader; "skipped" when the scenario was not measured, the details saying why); errors are
responses other than the scenario's expected statuses plus connection errors and timeouts; peak
RSS is the server process's high-water mark during the scenario; "CPU µs/req" is the CPU time
the server process used per completed request in the measured run, plus, on PostgreSQL, the CPU
time of the PostgreSQL processes; "load gen µs/req" is the load generator's own CPU time per
request; "CPU ceiling req/s" is the rate at which the three together would keep every core busy.

## Targets

${markdownTable(['scenario', 'database', 'target', 'met'], targets)}

## Details

${details.join('\n')}
${info.problems.length > 0 ? `\n## Problems seen\n\n${info.problems.map((p) => `- ${p}`).join('\n')}\n` : ''}`;
}

/** Writes latest.json and latest.md into `dir`. */
export function writeResults(dir: string, rows: Row[], info: RunInfo): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(rows, null, 2)}\n`);
  writeFileSync(join(dir, 'latest.md'), markdown(rows, info));
}
