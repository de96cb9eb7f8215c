/**
 * The dates one sample account's history hangs on, drawn backwards from the day the sample is
 * written as of, so that the sections of the account agree with each other: the customer moves
 * in, the sale is made, supply starts, bills follow monthly up to the last billed-to date, and
 * what happened since is the current statement's.
 */
import { addDays, addMonths, daysBetween } from './calendar.js';
import type { Prng } from './prng.js';

export interface Timeline {
  /** The day the sample is written as of. */
  today: string;
  movedIn: string;
  dateOfSale: string;
  /** At least 400 days ago: a year of readings and consumption lies between it and today. */
  supplyStart: string;
  /** 8 to 35 days ago. */
  lastBilledTo: string;
  /** The day before the last billed-to date, as the published example has them. */
  lastStatementClosing: string;
  /** The day the last statement was issued: the last billed-to date or up to 3 days later. */
  lastStatementIssued: string;
  /** The day of the month regular payments are taken (1–28). */
  paymentDay: number;
  /** When the current payment amount was set (the last payment review). */
  paymentReview: string;
}

/** A date from `from` to `to`, both included. */
export function dateBetween(random: Prng, from: string, to: string): string {
  return addDays(from, random.int(0, Math.max(0, daysBetween(from, to))));
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A moment of the given day, in UTC. */
export function momentOn(random: Prng, date: string): string {
  return `${date}T${pad2(random.int(7, 20))}:${pad2(random.int(0, 59))}:${pad2(random.int(0, 59))}Z`;
}

/** The dates of one account, from the sample's as-of date. */
export function drawTimeline(random: Prng, today: string): Timeline {
  const supplyStart = addDays(today, -random.int(400, 3000));
  const movedIn = random.chance(0.4) ? supplyStart : addDays(supplyStart, -random.int(30, 4000));
  const lastBilledTo = addDays(today, -random.int(8, 35));
  const reviewFrom = addDays(supplyStart, 60);
  return {
    today,
    movedIn,
    dateOfSale: addDays(supplyStart, -random.int(14, 35)),
    supplyStart,
    lastBilledTo,
    lastStatementClosing: addDays(lastBilledTo, -1),
    lastStatementIssued: addDays(lastBilledTo, random.int(0, 3)),
    paymentDay: random.int(1, 28),
    paymentReview: dateBetween(random, reviewFrom, addMonths(lastBilledTo, -2)),
  };
}
