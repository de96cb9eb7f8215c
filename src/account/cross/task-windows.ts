/**
 * The scheduling window of a v2 creation (`TaskParameters`, src/schedules/). Readings taken:
 *
 * - A missing start (left out, null or blank, as any blank field is read as absent) is now; a
 *   missing end is the latest end allowed, now plus MAX_WINDOW_AHEAD_MS, so a window left open
 *   is as wide as it may be. The defaults are filled in the normalised value, so what is
 *   stored is always a whole window.
 * - "In the past" and "more than 4 days ahead" allow WINDOW_TOLERANCE_MS of clock skew between
 *   the caller and the service: a start a few seconds old, computed by a client just before
 *   sending, is accepted.
 * - A start at or after its end leaves no time to create the account: refused.
 * - Each bound is checked only when it was read as a datetime (a malformed one has its own
 *   error); the order of the two only when both are.
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import type { ObjectRules } from './object-rule.js';

/** How far ahead a window may end (the published 4 days). */
export const MAX_WINDOW_AHEAD_MS = 4 * 24 * 3600 * 1000;
/** The clock skew allowed on either bound. */
export const WINDOW_TOLERANCE_MS = 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The epoch ms of a normalised datetime, or undefined when the field was not read as one. */
const instantOf = (value: unknown): number | undefined =>
  typeof value === 'string' ? Date.parse(value) : undefined;

/** Whether a bound was sent as nothing: left out, null or a blank string. */
const absent = (value: unknown): boolean =>
  value == null || (typeof value === 'string' && value.trim() === '');

/** Fills in the bounds sent as nothing (the object's output is its own, new object). */
function windowDefaults(out: Record<string, unknown>, input: Parent, now: number): void {
  // A malformed bound is not replaced: it keeps its own error.
  if (absent(input.schedule_window_start)) out.schedule_window_start = iso(now);
  if (absent(input.schedule_window_end)) out.schedule_window_end = iso(now + MAX_WINDOW_AHEAD_MS);
}

function windowChecks(out: Parent, prefix: string, run: Run, now: number): void {
  const start = instantOf(out.schedule_window_start);
  const end = instantOf(out.schedule_window_end);
  if (start !== undefined && start < now - WINDOW_TOLERANCE_MS) {
    fail(
      run,
      `${prefix}schedule_window_start`,
      'schedule_window_start_in_past',
      'The window may not start in the past.',
    );
  }
  if (end !== undefined && end > now + MAX_WINDOW_AHEAD_MS + WINDOW_TOLERANCE_MS) {
    fail(
      run,
      `${prefix}schedule_window_end`,
      'schedule_window_end_too_far_in_future',
      'The window may end at most 4 days from now.',
    );
  }
  if (start !== undefined && end !== undefined && start >= end) {
    fail(
      run,
      `${prefix}schedule_window_start`,
      'schedule_window_start__after_end',
      'The window must start before it ends.',
    );
  }
}

export const TASK_WINDOW_RULES: ObjectRules = {
  TaskParameters: {
    codes: [
      'schedule_window_start_in_past',
      'schedule_window_end_too_far_in_future',
      'schedule_window_start__after_end',
    ],
    check: (out, prefix, run, input) => {
      const now = Date.parse(run.now);
      // A default is a datetime the service writes: whole seconds (docs/interface.md).
      windowDefaults(out as Record<string, unknown>, input, now - (now % 1000));
      windowChecks(out, prefix, run, now);
    },
  },
};
