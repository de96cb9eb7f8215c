/**
 * How long the event log keeps events: `account-import events prune --older-than DAYS`, and,
 * with EVENT_RETENTION_DAYS set, the same prune run by `serve` every hour.
 */
import type { Db } from '../db/database.js';
import { OperatorError } from '../shared/operator-error.js';
import { pruneEvents } from './feed.repository.js';

const DAY_MS = 86_400_000;
/** The longest retention one may ask for: about 100 years. */
const MAX_DAYS = 36_500;

/** DAYS as given to `--older-than`: a whole number of days from 0 to MAX_DAYS. */
export function retentionDays(raw: string): number {
  const days = /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(days <= MAX_DAYS)) {
    throw new OperatorError(
      `invalid number of days "${raw}": use a whole number from 0 to ${MAX_DAYS}`,
    );
  }
  return days;
}

/**
 * Deletes the events that occurred more than `days` days before `now` (the newest event of the
 * log is always kept: feed.repository.ts, pruneEvents); how many were deleted.
 */
export function pruneOlderThan(db: Db, days: number, now = Date.now()): Promise<number> {
  return pruneEvents(db.kysely, now - days * DAY_MS);
}

/** How often `serve` prunes when EVENT_RETENTION_DAYS is set. */
export const PRUNE_EVERY_MS = 3_600_000;

/**
 * Prunes the log now and then every PRUNE_EVERY_MS, keeping `days` days of events, until the
 * returned function is called. A failed prune is reported to `onError` and tried again at the
 * next turn. Every instance may run one: two prunes at once delete each row once.
 */
export function prunePeriodically(
  db: Db,
  days: number,
  onPruned: (deleted: number) => void,
  onError: (error: unknown) => void,
): () => void {
  let running: Promise<void> | undefined;
  const prune = () => {
    running ??= pruneOlderThan(db, days)
      .then(onPruned, onError)
      .finally(() => (running = undefined));
  };
  const first = setTimeout(prune, 1_000);
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
