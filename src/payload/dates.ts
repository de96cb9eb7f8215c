/**
 * Dates (`YYYY-MM-DD`) and datetimes (`YYYY-MM-DDTHH:MM:SSZ`) as real calendar values. Both
 * formats sort as strings, so comparisons with today and with siblings are string compares.
 */
import { text } from './scalars.js';
import { fail, type, type Run, type Type } from './validators.js';

function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True for a `YYYY-MM-DD` string naming a real day (year 0001 onwards). */
export function isCalendarDate(s: string): boolean {
  if (s.length !== 10 || s[4] !== '-' || s[7] !== '-') return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 7);
  const day = digits(s, 8, 10);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** True for a `YYYY-MM-DDTHH:MM:SSZ` string naming a real UTC instant. */
export function isCalendarDatetime(s: string): boolean {
  if (s.length !== 20 || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== 'Z') {
    return false;
  }
  const hour = digits(s, 11, 13);
  const minute = digits(s, 14, 16);
  const second = digits(s, 17, 19);
  return (
    isCalendarDate(s.slice(0, 10)) &&
    hour >= 0 &&
    hour <= 23 &&
    minute >= 0 &&
    minute <= 59 &&
    second >= 0 &&
    second <= 59
  );
}

export interface DateRules {
  /** `date_in_future` when after today (UTC). */
  notFuture?: boolean;
  /** `start_date_later_than_end_date` when before this sibling (declared earlier). */
  notBefore?: string;
}

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const DATETIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$';

function ordering(
  s: string,
  rules: DateRules,
  limit: string,
  path: string,
  run: Run,
  from: unknown,
) {
  if (rules.notFuture === true && s > limit) {
    return fail(run, path, 'date_in_future', 'This date may not be in the future.');
  }
  if (rules.notBefore !== undefined && typeof from === 'string' && s < from) {
    return fail(
      run,
      path,
      'start_date_later_than_end_date',
      `This date may not be before ${rules.notBefore}.`,
    );
  }
  return s;
}

/** A calendar date, optionally not in the future and not before a sibling date. */
export function date(rules: DateRules = {}): Type<string> {
  const sibling = rules.notBefore;
  return type(
    (value, path, run, parent) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      if (!isCalendarDate(s)) {
        return fail(run, path, 'invalid_date', 'Expected a real date as YYYY-MM-DD.');
      }
      return ordering(s, rules, run.today, path, run, sibling && parent[sibling]);
    },
    { type: 'string', format: 'date', pattern: DATE_PATTERN },
  );
}

/** A calendar datetime in UTC, optionally not in the future. */
export function datetime(rules: Pick<DateRules, 'notFuture'> = {}): Type<string> {
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      if (!isCalendarDatetime(s)) {
        return fail(
          run,
          path,
          'invalid_datetime',
          'Expected a real UTC datetime as YYYY-MM-DDTHH:MM:SSZ.',
        );
      }
      return ordering(s, rules, run.now, path, run, undefined);
    },
    { type: 'string', format: 'date-time', pattern: DATETIME_PATTERN },
  );
}

const MAX_AGE_YEARS = 130;

/** A date of birth: a real date in the past, of a customer at most 130 years old (`invalid_date`). */
export const birthDate: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    if (!isCalendarDate(s)) {
      return fail(run, path, 'invalid_date', 'Expected a real date as YYYY-MM-DD.');
    }
    if (s >= run.today)
      return fail(run, path, 'invalid_date', 'A date of birth must be in the past.');
    // Born on or before this day MAX_AGE_YEARS + 1 years ago, the customer is older than allowed.
    const year = String(Number(run.today.slice(0, 4)) - MAX_AGE_YEARS - 1).padStart(4, '0');
    if (s <= year + run.today.slice(4)) {
      return fail(
        run,
        path,
        'invalid_date',
        `The customer may be at most ${MAX_AGE_YEARS} years old.`,
      );
    }
    return s;
  },
  {
    type: 'string',
    format: 'date',
    pattern: DATE_PATTERN,
    description: `In the past; the customer at most ${MAX_AGE_YEARS} years old.`,
  },
);

// RFC 3339 (seconds, fraction and offset optional), or a bare date read as midnight UTC.
const INSTANT =
  /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

function utcOf(match: RegExpExecArray): string | undefined {
  const [, day, hour = '00', minute = '00', second = '00', fraction = '', offset = 'Z'] = match;
  if (!isCalendarDate(day as string) || Number(hour) > 23 || Number(minute) > 59) return undefined;
  if (Number(second) > 59) return undefined;
  const zone = offset === 'Z' || offset === 'z' ? 'Z' : offset;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(-2)) > 59)) {
    return undefined;
  }
  if (zone === 'Z' && fraction === '') return `${day}T${hour}:${minute}:${second}Z`;
  const ms = Date.parse(`${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone}`);
  if (Number.isNaN(ms)) return undefined;
  const date = new Date(ms);
  // An offset can carry a date at either end of the calendar out of four-digit years.
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  const iso = date.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
}

/**
 * A published `date-time`: RFC 3339 with any offset and fraction, or a bare date (midnight
 * UTC, as the published examples write some of them); normalised to UTC, `…THH:MM:SSZ`.
 */
export function instant(): Type<string> {
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      const match = INSTANT.exec(s);
      const utc = match === null ? undefined : utcOf(match);
      return (
        utc ??
        fail(
          run,
          path,
          'invalid_datetime',
          'Expected a real datetime such as 2024-01-31T10:00:00Z.',
        )
      );
    },
    { type: 'string', format: 'date-time' },
  );
}
