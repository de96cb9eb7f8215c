/** What went wrong in the service during a run: warnings and errors in its log, 5xx answers. */
import { existsSync, readFileSync } from 'node:fs';
import type { Row } from './report.js';

/** Summarises the log lines at level warn (40) or above, grouped by message. */
export function logProblems(logFile: string, label: string): string[] {
  if (!existsSync(logFile)) return [];
  const counts = new Map<string, number>();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let key: string;
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { message?: string };
      };
      if ((entry.level ?? 0) < 40) continue;
      key = `level ${entry.level}: ${entry.msg ?? ''}${entry.err?.message ? ` (${entry.err.message})` : ''}`;
    } catch {
      key = `non-JSON output: ${line.slice(0, 200)}`;
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([message, n]) => `${label} log: ${n}× ${message}`);
}

/** One line per row with unexpected answers, naming the statuses. */
export function rowProblems(rows: Row[]): string[] {
  return rows
    .filter((row) => row.errors > 0 && row.status_codes)
    .map(
      (row) =>
        `${row.scenario} (${row.database}): ${row.errors} unexpected answers or connection errors; statuses ${JSON.stringify(row.status_codes)}`,
    );
}
