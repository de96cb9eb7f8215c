/** The targets of issue 5, as checks over one scenario's figures. */

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

function all(checks: Check[]): Verdict {
  return { target: checks.map((c) => c.text).join('; '), met: checks.every((c) => c.ok) };
}

function ratioCheck(ratio: number | null, min: number, of: string): Check {
  return { text: `≥ ${Math.round(min * 100)}% of ${of} req/s`, ok: ratio !== null && ratio >= min };
}

/** Targets of a request scenario of the service; undefined for baselines. */
export function requestVerdict(f: Figures): Verdict | undefined {
  if (f.scenario.startsWith('baseline')) return undefined;
  const query = f.scenario === 'status' || f.scenario.startsWith('list-');
  const p99Limit = query ? P99_QUERY_MS : P99_ANY_MS;
  const checks: Check[] = [];
  if (f.scenario === 'validate') checks.push(ratioCheck(f.ratio, 0.6, 'echo'));
  if (f.scenario === 'stage-new' || f.scenario === 're-stage') {
    checks.push(ratioCheck(f.ratio, f.database === 'sqlite' ? 0.8 : 0.6, 'raw upsert'));
  }
  if (f.scenario === 'process' && f.database === 'sqlite') {
    checks.push({ text: '≥ 2,000 accounts/s', ok: f.requestsPerSecond >= 2000 });
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
