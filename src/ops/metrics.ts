/** A small Prometheus text exposition: process figures and import processes by state. */
import type { AppContext } from '../context.js';

function line(name: string, value: number, labels = ''): string {
  return `${name}${labels ? `{${labels}}` : ''} ${value}`;
}

export async function metricsText(ctx: AppContext): Promise<string> {
  const rows = await ctx.db.kysely
    .selectFrom('import_processes')
    .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('state')
    .execute();
  const memory = process.memoryUsage();
  return [
    '# HELP account_import_processes Import processes by state.',
    '# TYPE account_import_processes gauge',
    ...rows.map((row) =>
      line('account_import_processes', Number(row.count), `state="${row.state}"`),
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
