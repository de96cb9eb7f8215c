/**
 * The benchmark's verdicts and output (bench/targets.ts, bench/report.ts, bench/options.ts):
 * the targets of issue 5 at their boundaries, and the files a run writes. The measuring itself
 * runs only in `npm run bench`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/options.js';
import {
  loaderRow,
  requestRow,
  skippedRow,
  streamRow,
  textTable,
  writeResults,
  type Row,
  type RunInfo,
} from '../../bench/report.js';
import type { ScenarioResult } from '../../bench/scenarios.js';
import { loaderVerdict, requestVerdict, streamVerdict, type Figures } from '../../bench/targets.js';

const figures = (overrides: Partial<Figures>): Figures => ({
  scenario: 'validate',
  database: 'sqlite',
  requestsPerSecond: 10_000,
  p99: 5,
  errors: 0,
  ratio: 1,
  ...overrides,
});

const met = (overrides: Partial<Figures>) => requestVerdict(figures(overrides))?.met;

describe('bench targets', () => {
  it('sets no target for a baseline', () => {
    expect(requestVerdict(figures({ scenario: 'baseline-echo' }))).toBeUndefined();
    expect(requestVerdict(figures({ scenario: 'baseline-upsert-new' }))).toBeUndefined();
    expect(requestVerdict(figures({ scenario: 'baseline-echo-full' }))).toBeUndefined();
    expect(requestVerdict(figures({ scenario: 'baseline-upsert-new-full' }))).toBeUndefined();
  });

  it('wants validate at 60 % of the echo baseline or more, on either database', () => {
    for (const database of ['sqlite', 'postgres']) {
      expect(met({ database, ratio: 0.6 })).toBe(true);
      expect(met({ database, ratio: 0.599 })).toBe(false);
      expect(met({ database, ratio: null })).toBe(false);
    }
  });

  it('wants stages at 80 % of the raw upsert on SQLite and 60 % on PostgreSQL', () => {
    for (const scenario of ['stage-new', 're-stage']) {
      expect(met({ scenario, database: 'sqlite', ratio: 0.8 })).toBe(true);
      expect(met({ scenario, database: 'sqlite', ratio: 0.79 })).toBe(false);
      expect(met({ scenario, database: 'postgres', ratio: 0.6 })).toBe(true);
      expect(met({ scenario, database: 'postgres', ratio: 0.59 })).toBe(false);
    }
  });

  it('wants 2,000 accounts/s from SQLite process, and no rate from PostgreSQL', () => {
    const process = { scenario: 'process', ratio: null };
    expect(met({ ...process, database: 'sqlite', requestsPerSecond: 2000 })).toBe(true);
    expect(met({ ...process, database: 'sqlite', requestsPerSecond: 1999 })).toBe(false);
    expect(met({ ...process, database: 'postgres', requestsPerSecond: 500 })).toBe(true);
  });

  it('wants the full account validated and staged at least as fast as its baselines, on either database', () => {
    for (const database of ['sqlite', 'postgres']) {
      for (const [scenario, of] of [
        ['validate-full', 'echo'],
        ['stage-new-full', 'raw upsert'],
      ] as const) {
        expect(met({ scenario, database, ratio: 1 })).toBe(true);
        expect(met({ scenario, database, ratio: 0.99 })).toBe(false);
        expect(met({ scenario, database, ratio: null })).toBe(false);
        expect(requestVerdict(figures({ scenario, database }))?.target).toContain(
          `≥ 100% of ${of} req/s`,
        );
      }
    }
  });

  it('wants 2,000 full accounts/s from SQLite process-full within p99 25 ms; PostgreSQL reported', () => {
    const process = { scenario: 'process-full', ratio: null };
    expect(met({ ...process, database: 'sqlite', requestsPerSecond: 2000, p99: 25 })).toBe(true);
    expect(met({ ...process, database: 'sqlite', requestsPerSecond: 1999, p99: 5 })).toBe(false);
    expect(met({ ...process, database: 'sqlite', requestsPerSecond: 3000, p99: 26 })).toBe(false);
    expect(requestVerdict(figures({ ...process, database: 'sqlite' }))?.target).toBe(
      '≥ 2,000 accounts/s; p99 ≤ 25 ms; 0 unexpected errors',
    );
    expect(requestVerdict(figures({ ...process, database: 'postgres' }))?.target).toBe(
      'p99 ≤ 25 ms; 0 unexpected errors',
    );
  });

  it('holds status and lists to p99 10 ms and every other endpoint to 25 ms', () => {
    for (const scenario of ['status', 'list-all', 'list-pending', 'list-imported']) {
      expect(met({ scenario, ratio: null, p99: 10 })).toBe(true);
      expect(met({ scenario, ratio: null, p99: 11 })).toBe(false);
    }
    for (const scenario of [
      'validate',
      'stage-new',
      're-stage',
      'process',
      'validate-full',
      'stage-new-full',
      'process-full',
    ]) {
      expect(met({ scenario, p99: 25 })).toBe(true);
      expect(met({ scenario, p99: 26 })).toBe(false);
    }
  });

  it('fails any scenario with an unexpected error', () => {
    expect(met({ errors: 1 })).toBe(false);
    expect(requestVerdict(figures({ errors: 1 }))?.target).toContain('0 unexpected errors');
  });

  it('wants the unpaged list at 200,000 items/s, within 100 MB of RSS growth, complete', () => {
    expect(streamVerdict(200_000, 100, true).met).toBe(true);
    expect(streamVerdict(199_999, 10, true).met).toBe(false);
    expect(streamVerdict(900_000, 101, true).met).toBe(false);
    expect(streamVerdict(900_000, 10, false).met).toBe(false);
  });

  it('wants the loader at 90 s per 100,000 accounts, scaled, within 150 MB, every one created', () => {
    expect(loaderVerdict(100_000, 100_000, 90, 150).met).toBe(true);
    expect(loaderVerdict(100_000, 100_000, 90.1, 120).met).toBe(false);
    expect(loaderVerdict(100_000, 100_000, 60, 151).met).toBe(false);
    expect(loaderVerdict(100_000, 99_999, 60, 120).met).toBe(false);
    // The quick run's 2,000 accounts get 1.8 s.
    expect(loaderVerdict(2_000, 2_000, 1.8, 100).met).toBe(true);
    expect(loaderVerdict(2_000, 2_000, 1.9, 100).met).toBe(false);
  });
});

describe('bench rows and files', () => {
  const scenario = (name: string, requestsPerSecond: number, p99: number): ScenarioResult => ({
    scenario: name,
    load: {
      requests: requestsPerSecond * 10,
      durationS: 10,
      requestsPerSecond,
      latencyMs: { p50: 2, p99, max: p99 * 2 },
      errors: 0,
      statusCodes: { '200': requestsPerSecond * 10 },
    },
    peakRssMb: 140.04,
    cpuUsPerRequest: { server: 90, postgres: 10, loadGenerator: 40 },
    notes: [],
  });

  const echo = requestRow(scenario('baseline-echo', 15_000, 4), 'postgres');
  const validate = requestRow(scenario('validate', 9_000, 5), 'postgres', echo);
  const stream = streamRow(
    'postgres',
    1_000,
    {
      status: 200,
      items: 1_000,
      bytes: 108_000,
      seconds: 0.004,
      firstByteMs: 1.26,
      complete: true,
      rssBeforeMb: 200,
      rssPeakMb: 210,
    },
    210,
    [],
  );
  const loader = loaderRow(
    {
      accounts: 2_000,
      created: 2_000,
      wallS: 1.5,
      accountsPerSecond: 1_333,
      loaderPeakRssMb: 90,
      exitCode: 'exit code 0',
      sampleSource: 'account-import sample',
      summary: '{}',
    },
    200,
  );
  const echoFull = requestRow(scenario('baseline-echo-full', 10_000, 6), 'sqlite');
  const validateFull = requestRow(scenario('validate-full', 9_000, 8), 'sqlite', echoFull);
  const reason = 'the published full account /nowhere/full-account.json is absent';
  const skipped = skippedRow('process-full', 'postgres', reason);
  const rows: Row[] = [echo, validate, stream, loader, echoFull, validateFull, skipped];

  it('compares a scenario with its baseline of the same run', () => {
    expect(echo).toMatchObject({ baseline: null, ratio_to_baseline: null, target_met: null });
    expect(validate).toMatchObject({
      scenario: 'validate',
      database: 'postgres',
      requests_per_second: 9_000,
      latency_ms: { p50: 2, p99: 5, max: 10 },
      errors: 0,
      peak_rss_mb: 140,
      baseline: 'baseline-echo (postgres)',
      ratio_to_baseline: 0.6,
      target_met: true,
    });
  });

  it('compares a full-account scenario with the baseline of the same body', () => {
    expect(validateFull).toMatchObject({
      scenario: 'validate-full',
      baseline: 'baseline-echo-full (sqlite)',
      ratio_to_baseline: 0.9,
      target: '≥ 100% of echo req/s; p99 ≤ 25 ms; 0 unexpected errors',
      target_met: false,
    });
  });

  it('reports a skipped scenario with its reason, no figures and no target', () => {
    expect(skipped).toMatchObject({
      scenario: 'process-full',
      database: 'postgres',
      requests_per_second: null,
      latency_ms: null,
      errors: 0,
      target: null,
      target_met: null,
      skipped: reason,
      notes: [`skipped: ${reason}`],
    });
    const line = textTable([skipped]).split('\n')[2] ?? '';
    expect(line).toMatch(/^process-full\s+postgres\s+skipped\s/);
    const loaderSkipped = loaderRow(
      {
        accounts: 2_000,
        created: 0,
        wallS: 0,
        accountsPerSecond: 0,
        loaderPeakRssMb: 0,
        exitCode: 'not run',
        sampleSource: 'none',
        summary: '',
        skipped: 'the build has no load command',
      },
      null,
    );
    expect(loaderSkipped).toMatchObject({
      scenario: 'bulk-loader-2000',
      accounts: 2_000,
      skipped: 'the build has no load command',
      target_met: null,
    });
  });

  it('reports the unpaged list by items and the loader by accounts', () => {
    expect(stream).toMatchObject({
      scenario: 'list-all-unpaged-1000',
      items_per_second: 250_000,
      rss_growth_mb: 10,
      target_met: true,
    });
    expect(loader).toMatchObject({
      scenario: 'bulk-loader-2000',
      accounts_created: 2_000,
      loader_peak_rss_mb: 90,
      target_met: true,
    });
  });

  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('writes latest.json with one object per scenario and a markdown copy', () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    const info: RunInfo = {
      mode: 'quick',
      date: '2026-11-26T00:00:00.000Z',
      cpuModel: 'test CPU',
      cores: 2,
      memoryGb: 24,
      node: 'v20',
      os: 'Linux',
      postgres: '15',
      commit: 'abc1234',
      connections: 32,
      durationS: 2,
      warmupS: 1,
      loadAverageStart: [1, 1, 1],
      loadAverageEnd: [2, 1, 1],
      wallS: 100,
      sqliteSynchronous: 'NORMAL',
      problems: [],
    };
    writeResults(dir, rows, info);
    const written = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as Row[];
    expect(written).toEqual(rows);
    for (const row of written) {
      for (const field of [
        'requests_per_second',
        'latency_ms',
        'errors',
        'peak_rss_mb',
        'ratio_to_baseline',
        'target_met',
      ]) {
        expect(row).toHaveProperty(field);
      }
    }
    const markdown = readFileSync(join(dir, 'latest.md'), 'utf8');
    expect(markdown).toContain('# Benchmark results (quick run)');
    expect(markdown).toContain('| validate | postgres | 9,000 |');
    expect(markdown).toContain('| validate-full | sqlite | 9,000 |');
    expect(markdown).toContain('| process-full | postgres | skipped |');
    expect(markdown).toContain(`- **process-full** (postgres): skipped: ${reason}`);
    // A skipped scenario has no target to meet.
    const targets = markdown.slice(markdown.indexOf('## Targets'), markdown.indexOf('## Details'));
    expect(targets).toContain('| validate-full | sqlite |');
    expect(targets).not.toContain('process-full');
    expect(markdown).toContain('synchronous NORMAL');
    expect(textTable(rows)).toContain('validate');
  });
});

describe('bench options', () => {
  it('runs short and small with --quick', () => {
    const quick = parseOptions(['--quick']);
    const full = parseOptions([]);
    expect(quick).toMatchObject({ quick: true, connections: 32, durationS: 2, warmupS: 1 });
    expect(full).toMatchObject({ quick: false, connections: 32, durationS: 10, warmupS: 3 });
    expect(full.streamItems).toBe(1_000_000);
    expect(full.loaderAccounts).toBe(100_000);
    expect(quick.streamItems).toBeLessThan(full.streamItems);
    expect(quick.loaderAccounts).toBeLessThan(full.loaderAccounts);
  });

  it('takes the databases and scenarios asked for, and refuses an unknown database', () => {
    expect(parseOptions(['--db', 'sqlite']).databases).toEqual(['sqlite']);
    expect(parseOptions([]).databases).toEqual(['sqlite', 'postgres']);
    expect([...(parseOptions(['--only', 'validate, process']).only ?? [])]).toEqual([
      'validate',
      'process',
    ]);
    expect([...(parseOptions(['--only', 'validate-full,process-full']).only ?? [])]).toEqual([
      'validate-full',
      'process-full',
    ]);
    expect(() => parseOptions(['--db', 'mysql'])).toThrow('--db: unknown database mysql');
  });
});
