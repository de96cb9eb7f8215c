/**
 * What a schedule's `latest_error` carries when a worker ends it ERRORED or DRY_RUN_ERRORED:
 * a published code, a detail in our words, and the domain the failure belongs to
 * (docs/interface.md, "Scheduled creation: the queue").
 */
import type { ServiceError } from '../../errors.js';
import { refusalCodes } from '../../events/refusals.js';

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
  /**
   * What its ERRORED (or DRY_RUN_ERRORED) event keeps, as a refused process request's does:
   * the refusal's top-level code and each field error's code and place.
   */
  codes: ReturnType<typeof refusalCodes>;
}

/** The codes of a failure that is not a refusal: its own code, no field errors. */
const own = (code: string) => ({ code, errors: [] });

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
  codes: own('schedule_window_closed'),
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
    const detail = `${field}${more}`;
    return { code: first.code, detail, domain: 'VALIDATION', codes: refusalCodes(refusal) };
  }
  const domain = SCHEDULING_REFUSALS.has(refusal.code) ? 'SCHEDULING' : 'CREATION';
  return { code: refusal.code, detail: refusal.message, domain, codes: refusalCodes(refusal) };
}

/** The error of a creation that failed for a reason of ours (the detail discloses nothing). */
export const INTERNAL_ERROR: ScheduleError = {
  code: 'internal_error',
  detail: 'The account could not be created.',
  domain: 'INTERNAL',
  codes: own('internal_error'),
};
