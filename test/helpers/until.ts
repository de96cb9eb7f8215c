/** Waiting for a condition in tests, without fixed sleeps. */

/** Polls `condition` until it holds (no fixed sleeps: the run's own progress decides). */
export async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How many sessions of the current PostgreSQL database wait for a lock now (column `n`). */
export const LOCK_WAITS_QUERY = `select count(*)::int as n from pg_stat_activity
  where wait_event_type = 'Lock' and datname = current_database()`;
