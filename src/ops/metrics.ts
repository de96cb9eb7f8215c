/** A small Prometheus text exposition: process figures and import processes by state. */
import { sql } from 'kysely';
import type { AppContext } from '../context.js';

function line(name: string, value: number, labels = ''): string {
  return `${name}${labels ? `{${labels}}` : ''} ${value}`;
}

/**
 * Import processes by state as the status endpoint reports them: a claim whose lease ran out
 * counts as pending (docs/interface.md, States), and every state is reported, 0 included.
 */
async function processesByState(ctx: AppContext): Promise<Record<string, number>> {
  const now = Date.now();
  const { rows } = await sql<Record<'total' | 'in_progress' | 'completed', unknown>>`
    select count(*) as total,
      sum(case when state = 'in_progress' and lease_until >= ${now} then 1 else 0 end)
        as in_progress,
      sum(case when state = 'completed' then 1 else 0 end) as completed
    from import_processes`.execute(ctx.db.kysely);
  const total = Number(rows[0]?.total ?? 0);
  const inProgress = Number(rows[0]?.in_progress ?? 0);
  const completed = Number(rows[0]?.completed ?? 0);
  // Pending is everything else: staged, or claimed by a holder whose lease ran out.
  return { pending: total - inProgress - completed, in_progress: inProgress, completed };
}

/**
 * How long counted states are served again. Counting reads every process (about 100 ms for a
 * million on SQLite, where it holds up every other request), and /metrics needs no token, so
 * a scrape counts at most once per this many milliseconds whoever asks, and concurrent scrapes
 * share one count.
 */
export const COUNT_MAX_AGE_MS = 10_000;

interface Count {
  at: number;
  byState: Promise<Record<string, number>>;
}

const counts = new WeakMap<AppContext, Count>();

/** Processes by state, counted at most `maxAgeMs` ago; a failed count is not kept. */
function recentProcessesByState(
  ctx: AppContext,
  maxAgeMs: number,
): Promise<Record<string, number>> {
  const now = Date.now();
  const cached = counts.get(ctx);
  if (cached && now - cached.at < maxAgeMs) return cached.byState;
  const count: Count = { at: now, byState: processesByState(ctx) };
  counts.set(ctx, count);
  count.byState.catch(() => {
    if (counts.get(ctx) === count) counts.delete(ctx);
  });
  return count.byState;
}

export async function metricsText(
  ctx: AppContext,
  maxAgeMs: number = COUNT_MAX_AGE_MS,
): Promise<string> {
  const byState = await recentProcessesByState(ctx, maxAgeMs);
  const memory = process.memoryUsage();
  return [
    '# HELP account_import_processes Import processes by state.',
    '# TYPE account_import_processes gauge',
    ...Object.entries(byState).map(([state, count]) =>
      line('account_import_processes', count, `state="${state}"`),
    ),
    '# HELP process_resident_memory_bytes Resident memory size in bytes.',
    '# TYPE process_resident_memory_bytes gauge',
    line('process_resident_memory_bytes', memory.rss),
    '# HELP process_uptime_seconds Seconds since the process started.',
    '# TYPE process_uptime_seconds gauge',
    line('process_uptime_seconds', Math.round(process.uptime())),
    '',
  ].join('\n');
}
