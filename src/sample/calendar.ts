/**
 * Calendar dates (`YYYY-MM-DD`, UTC) for sample accounts. Every date of an account is counted
 * from the day the sample is written as of, so that what must lie in the past does, whenever
 * the file is made.
 */

/**
 * The earliest day a sample may be written as of. An account's history reaches up to about 90
 * years further back (a customer born 88 years before, a move in 19 years before), which must
 * stay within four-digit years; and the sample's reference data (tariffs, industry codes, the
 * Warm Home Discount) is of this century, so an older day gives no more realistic a file.
 */
export const EARLIEST_AS_OF = '2000-01-01';

/** Today's date in UTC. */
export function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

// Days from 1970-01-01 and back by arithmetic on the civil calendar (H. Hinnant's algorithm):
// Date.parse and toISOString cost a microsecond each, and a full account needs hundreds.
function dayNumber(date: string): number {
  const month = Number(date.slice(5, 7));
  const year = Number(date.slice(0, 4)) - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear =
    Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + Number(date.slice(8, 10)) - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function fromDayNumber(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The date `days` after `date` (before it when negative). */
export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/** The same day of the month `months` later (earlier when negative), the 28th at the latest. */
export function addMonths(date: string, months: number): string {
  const total = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
  const day = Math.min(Number(date.slice(8, 10)), 28);
  return `${pad(Math.floor(total / 12), 4)}-${pad((total % 12) + 1, 2)}-${pad(day, 2)}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}
