/** One validation run: its clock, its context and the wrapping of its outcome. */
import type { FieldError } from '../errors.js';
import {
  EMPTY,
  EMPTY_PLATFORM,
  INVALID,
  type PlatformView,
  type Run,
  type Type,
} from './validators.js';

export interface PayloadContext {
  /** ISO 3166-1 alpha-2 region for nationally written phone numbers, e.g. 'GB'. */
  phoneRegion: string;
  /** Whether `import_supplier` names a supplier the caller may use (looked up beforehand). */
  supplierFound: boolean;
  /** 'YYYY-MM-DD' (UTC) to judge future dates against; defaults to the current date. */
  today?: string;
  /** What lookup rules read; a platform with no reference data unless given. */
  platform?: PlatformView;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

let clockSecond = -1;
let clockIso = '';

// Formatting the clock costs about a microsecond; once a second is enough for day granularity.
function isoNow(): string {
  const ms = Date.now();
  const second = Math.floor(ms / 1000);
  if (second !== clockSecond) {
    clockSecond = second;
    clockIso = new Date(ms).toISOString();
  }
  return clockIso;
}

/** Starts a validation run with an empty error list. */
export function startRun(context: Partial<PayloadContext> = {}): Run {
  const now = isoNow();
  return {
    errors: [],
    today: context.today ?? now.slice(0, 10),
    // With a fixed `today` (tests, replays) a datetime counts as future only after that day.
    now: context.today === undefined ? `${now.slice(0, 19)}Z` : `${context.today}T23:59:59Z`,
    phoneRegion: (context.phoneRegion ?? 'GB').toUpperCase(),
    supplierFound: context.supplierFound ?? false,
    platform: context.platform ?? EMPTY_PLATFORM,
    paths: false,
  };
}

/**
 * Checks a whole input with `t` and wraps the outcome as a ValidationResult. A valid input is
 * checked once, without error paths; an invalid one is checked again with them (Run.paths).
 * Checks are pure functions of the input and the run, so both runs find the same errors.
 */
export function runType<T>(t: Type<T>, input: unknown, run: Run): ValidationResult<T> {
  const value = t.check(input, '', run, {});
  if (run.errors.length === 0 && value !== INVALID && value !== EMPTY) return { ok: true, value };
  if (run.paths) return { ok: false, errors: run.errors };
  return runType(t, input, { ...run, errors: [], paths: true });
}
