/**
 * The targets of issue 5, those of the published full account (`-full` scenarios) and those of
 * the post-import endpoints (issue 34), as checks over one scenario's figures.
 */

export interface Figures {
  scenario: string;
  database: string;
  requestsPerSecond: number;
  p99: number;
  errors: number;
  ratio: number | null;
}

export interface Verdict {
  target: string;
  met: boolean;
}

interface Check {
  text: string;
  ok: boolean;
}

const P99_ANY_MS = 25;
const P99_QUERY_MS = 10;
/** Accounts per second the process scenarios must reach on SQLite. */
const PROCESS_PER_S = 2000;

/** The least ratio to its baseline (same body, same run) a scenario must reach, by database. */
const RATIO_TARGETS: Record<string, { of: string; sqlite: number; postgres: number }> = {
  validate: { of: 'echo', sqlite: 0.6, postgres: 0.6 },
  'stage-new': { of: 'raw upsert', sqlite: 0.8, postgres: 0.6 },
  're-stage': { of: 'raw upsert', sqlite: 0.8, postgres: 0.6 },
  'validate-full': { of: 'echo', sqlite: 1, postgres: 1 },
  'stage-new-full': { of: 'raw upsert', sqlite: 1, postgres: 1 },
  // Issue 35: scheduling (a stage with its schedule) is at least as fast as a v1 stage.
  'schedule-new': { of: 'stage-new', sqlite: 1, postgres: 1 },
  // Issue 34: adding to a created account is at least as fast as staging one.
  'add-statements': { of: 'stage-new', sqlite: 1, postgres: 1 },
  'add-notes': { of: 'stage-new', sqlite: 1, postgres: 1 },
  'add-payment-instruction': { of: 'stage-new', sqlite: 1, postgres: 1 },
};
const PROCESS_SCENARIOS = new Set(['process', 'process-full']);
/** Requests per second (of 50 transactions each) transactions/create must reach on SQLite. */
const TRANSACTIONS_PER_S = 1000;

function all(checks: Check[]): Verdict {
  return { target: checks.map((c) => c.text).join('; '), met: checks.every((c) => c.ok) };
}

function ratioCheck(ratio: number | null, min: number, of: string): Check {
  return { text: `≥ ${Math.round(min * 100)}% of ${of} req/s`, ok: ratio !== null && ratio >= min };
}

/** Targets of a request scenario of the service; undefined for baselines. */
export function requestVerdict(f: Figures): Verdict | undefined {
  if (f.scenario.startsWith('baseline')) return undefined;
  // The timeline's p99 target (issue 35) is the queries' 10 ms.
  const query =
    f.scenario === 'status' || f.scenario === 'timeline' || f.scenario.startsWith('list-');
  const p99Limit = query ? P99_QUERY_MS : P99_ANY_MS;
  const checks: Check[] = [];
  const ratio = RATIO_TARGETS[f.scenario];
  if (ratio) {
    const min = f.database === 'sqlite' ? ratio.sqlite : ratio.postgres;
    checks.push(ratioCheck(f.ratio, min, ratio.of));
  }
  if (PROCESS_SCENARIOS.has(f.scenario) && f.database === 'sqlite') {
    checks.push({
      text: `≥ ${PROCESS_PER_S.toLocaleString('en')} accounts/s`,
      ok: f.requestsPerSecond >= PROCESS_PER_S,
    });
  }
  if (f.scenario === 'transactions' && f.database === 'sqlite') {
    checks.push({
      text: `≥ ${TRANSACTIONS_PER_S.toLocaleString('en')} requests/s`,
      ok: f.requestsPerSecond >= TRANSACTIONS_PER_S,
    });
  }
  checks.push({ text: `p99 ≤ ${p99Limit} ms`, ok: f.p99 <= p99Limit });
  checks.push({ text: '0 unexpected errors', ok: f.errors === 0 });
  return all(checks);
}

export const STREAM_ITEMS_PER_S = 200_000;
export const STREAM_RSS_GROWTH_MB = 100;

export function streamVerdict(
  itemsPerSecond: number,
  rssGrowthMb: number,
  completeAndCounted: boolean,
): Verdict {
  return all([
    {
      text: `≥ ${STREAM_ITEMS_PER_S.toLocaleString('en')} items/s`,
      ok: itemsPerSecond >= STREAM_ITEMS_PER_S,
    },
    { text: `RSS growth ≤ ${STREAM_RSS_GROWTH_MB} MB`, ok: rssGrowthMb <= STREAM_RSS_GROWTH_MB },
    { text: 'every item, status 200', ok: completeAndCounted },
  ]);
}

/** 100,000 accounts in ≤ 90 s, scaled to the run's count (the quick run loads fewer). */
export function loaderVerdict(
  accounts: number,
  created: number,
  wallS: number,
  loaderRssMb: number,
): Verdict {
  const limitS = (90 * accounts) / 100_000;
  return all([
    {
      text: `≤ ${limitS.toLocaleString('en', { maximumFractionDigits: 1 })} s end to end (90 s per 100,000)`,
      ok: wallS <= limitS,
    },
    { text: 'loader RSS ≤ 150 MB', ok: loaderRssMb <= 150 },
    { text: 'every account created', ok: created === accounts },
  ]);
}
