/**
 * Builders of the rules on lists of dated items (AQ history, tax exemptions, configuration
 * periods, payment schedules, …): how the periods of a list may lie against each other.
 * The publication marks a period's end in two ways, so each list says which one it uses.
 */
import { fail, type Parent, type Run } from '../payload/validators.js';
import { listRule, type FieldRule, type Items } from './rules.js';

/** Where the items of a list keep their period. */
export interface PeriodFields {
  readonly from: string;
  readonly to: string;
  /**
   * `last-day`: the end date is the period's last day (the next period starts the day after);
   * `day-after`: it is the first day after the period (the next period starts on it).
   */
  readonly end: 'last-day' | 'day-after';
}

/** The problems a list is checked for, each with its code; a problem without a code is allowed. */
export interface PeriodCodes {
  /** A period starting before an earlier-starting one has ended (or one is open-ended). */
  readonly overlaps?: string;
  /** A period starting after the earlier periods have ended, leaving days uncovered. */
  readonly gaps?: string;
  /** Gaps matter only before a period starting after today (the past cannot be billed again). */
  readonly futureGapsOnly?: boolean;
  /** More than one open-ended period (the second and later, in list order). */
  readonly openEnded?: string;
  /** A period ending where it starts (`day-after` ends only). */
  readonly zeroLength?: string;
  /** A period starting after today. */
  readonly futureStart?: string;
  /** The latest-starting period has an end. */
  readonly latestHasEnd?: string;
  /** The periods are compared within groups (ledger, scheme); one group for all by default. */
  readonly groupBy?: (item: Parent) => string;
  /** Only these items are compared (e.g. schedules that are not debt repayment plans). */
  readonly include?: (item: Parent) => boolean;
}

interface Period {
  readonly index: number;
  readonly from: string;
  readonly to: string | undefined;
  /** The first day after the period; undefined when open-ended. */
  readonly until: string | undefined;
}

/** The day after a `YYYY-MM-DD` date. */
export function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** The periods of the included items, by group, in list order; items without a start are left out. */
function periodGroups(items: Items<Parent>, fields: PeriodFields, codes: PeriodCodes): Period[][] {
  const groups = new Map<string, Period[]>();
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item === undefined || codes.include?.(item) === false) continue;
    const from = item[fields.from];
    if (typeof from !== 'string') continue;
    const end = item[fields.to];
    const to = typeof end === 'string' ? end : undefined;
    const until = to === undefined || fields.end === 'day-after' ? to : dayAfter(to);
    const key = codes.groupBy?.(item) ?? '';
    const group = groups.get(key) ?? [];
    group.push({ index, from, to, until });
    groups.set(key, group);
  }
  return [...groups.values()];
}

const byStart = (a: Period, b: Period) =>
  a.from < b.from ? -1 : a.from > b.from ? 1 : a.index - b.index;

/**
 * Walks the periods by start date, each compared with how far the earlier ones reach: one
 * starting before that is an overlap, one starting after it a gap.
 */
function checkSequence(
  sorted: readonly Period[],
  at: (p: Period, field: 'from' | 'to') => string,
  run: Run,
  codes: PeriodCodes,
): void {
  let reach: string | undefined;
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i] as Period;
    if (i > 0) {
      if (reach === undefined || p.from < reach) {
        if (codes.overlaps !== undefined) {
          fail(run, at(p, 'from'), codes.overlaps, 'This period overlaps an earlier one.');
        }
      } else if (p.from > reach && codes.gaps !== undefined) {
        if (codes.futureGapsOnly !== true || p.from > run.today) {
          fail(
            run,
            at(p, 'from'),
            codes.gaps,
            'This period does not follow on from the one before.',
          );
        }
      }
    }
    if (i === 0 || (reach !== undefined && (p.until === undefined || p.until > reach))) {
      reach = p.until;
    }
  }
}

/** The rule checking a list of periods for the problems `codes` names. */
export function periods(fields: PeriodFields, codes: PeriodCodes): FieldRule {
  const reported = [
    codes.overlaps,
    codes.gaps,
    codes.openEnded,
    codes.zeroLength,
    codes.futureStart,
    codes.latestHasEnd,
  ].filter((code): code is string => code !== undefined);
  return listRule<Parent>([...new Set(reported)], (items, path, run) => {
    const at = (p: Period, field: 'from' | 'to') =>
      `${path}.${p.index}.${field === 'from' ? fields.from : fields.to}`;
    for (const group of periodGroups(items, fields, codes)) {
      let openEnded = 0;
      for (const p of group) {
        if (p.to === undefined && ++openEnded > 1 && codes.openEnded !== undefined) {
          fail(run, at(p, 'to'), codes.openEnded, 'Only one period may be open-ended.');
        }
        if (p.to === p.from && fields.end === 'day-after' && codes.zeroLength !== undefined) {
          fail(run, at(p, 'to'), codes.zeroLength, 'This period ends on the day it starts.');
        }
        if (p.from > run.today && codes.futureStart !== undefined) {
          fail(run, at(p, 'from'), codes.futureStart, 'This period may not start in the future.');
        }
      }
      const sorted = [...group].sort(byStart);
      const latest = sorted[sorted.length - 1];
      if (latest?.to !== undefined && codes.latestHasEnd !== undefined) {
        fail(run, at(latest, 'to'), codes.latestHasEnd, 'The latest period must be open-ended.');
      }
      checkSequence(sorted, at, run, codes);
    }
  });
}
