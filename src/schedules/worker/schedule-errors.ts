/**
 * What a schedule's `latest_error` carries when a worker ends it ERRORED or DRY_RUN_ERRORED:
 * a published code, a detail in our words, and the domain the failure belongs to
 * (docs/interface.md, "Scheduled creation: the queue").
 */
import type { ServiceError } from '../../errors.js';

/**
 * Where a failure arose (docs/interface.md, "Scheduled creation: the queue"): the payload's
 * rules, the creating write, the schedule's own conditions (its window, a skip mark, the
 * supplier's status), or the service itself.
 */
export type ErrorDomain = 'VALIDATION' | 'CREATION' | 'SCHEDULING' | 'INTERNAL';

/** The refusals that are conditions of the schedule, not of the creating write. */
const SCHEDULING_REFUSALS: ReadonlySet<string> = new Set([
  'account_import_process_skipped',
  'import_supplier_migration_not_ongoing',
]);

export interface ScheduleError {
  code: string;
  detail: string;
  domain: ErrorDomain;
}

/**
 * The codes only workers report, as a schedule's error: they answer no request, so they are
 * not in the HTTP catalogue (src/errors.ts), but they are published all the same.
 */
export const WORKER_ERROR_CODES = {
  schedule_window_closed: 'The schedule window ended before a worker could start the creation.',
} as const;

export const WINDOW_CLOSED: ScheduleError = {
  code: 'schedule_window_closed',
  detail: WORKER_ERROR_CODES.schedule_window_closed,
  domain: 'SCHEDULING',
};

/**
 * The error a refusal leaves on its schedule. A payload that fails validation reports its first
 * field error's code (`tariff_code_not_found`, say), the one a supplier acts on, with the field
 * in the detail; every other refusal reports its own top-level code.
 */
export function scheduleErrorOf(refusal: ServiceError): ScheduleError {
  const [first] = refusal.errors;
  if (refusal.code === 'account_failed_validation' && first) {
    const field = first.attr === null ? first.detail : `${first.attr}: ${first.detail}`;
    const others = refusal.errors.length - 1;
    const more = others > 0 ? ` (and ${others} more; ${refusal.message})` : '';
    return { code: first.code, detail: `${field}${more}`, domain: 'VALIDATION' };
  }
  const domain = SCHEDULING_REFUSALS.has(refusal.code) ? 'SCHEDULING' : 'CREATION';
  return { code: refusal.code, detail: refusal.message, domain };
}

/** The error of a creation that failed for a reason of ours (the detail discloses nothing). */
export const INTERNAL_ERROR: ScheduleError = {
  code: 'internal_error',
  detail: 'The account could not be created.',
  domain: 'INTERNAL',
};
