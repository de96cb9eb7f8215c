/**
 * The money of a sample account: monthly bills and direct debits up to the last billed-to date
 * (statements and the ledger's historical transactions), what happened since (current
 * transactions), the payment schedules that took the direct debits, debts, the Warm Home
 * Discount and the dunning path. Amounts are counted in pence and written as decimals; the
 * ledger's balance is the sum of its transactions, and the account's transfer balance is the
 * ledger's.
 */
import { addDays, addMonths } from './calendar.js';
import * as codes from './codes.js';
import type { Json } from './people.js';
import type { Prng } from './prng.js';
import { dateBetween, type Timeline } from './timeline.js';

/** Pence as a decimal of pounds: `-1234` → `"-12.34"`. */
export function pounds(pence: number): string {
  return `${pence < 0 ? '-' : ''}${(Math.abs(pence) / 100).toFixed(2)}`;
}

interface BillPeriod {
  from: string;
  /** The next period's first day, as the published example writes a statement's end. */
  to: string;
  charge: number;
}

export interface BillingHistory {
  /** Oldest first; the last one ends on the last billed-to date. */
  periods: BillPeriod[];
  /** The monthly direct debit since the last payment review, in pence. */
  monthlyPayment: number;
  /** The monthly direct debit before it. */
  previousPayment: number;
}

/** `count` monthly bills up to the last billed-to date and the direct debits that paid them. */
export function billingHistory(random: Prng, t: Timeline, count: number): BillingHistory {
  const monthlyPayment = random.int(45, 180) * 100;
  const periods: BillPeriod[] = [];
  for (let k = count; k >= 1; k--) {
    const from = addMonths(t.lastBilledTo, -k);
    const to = k === 1 ? t.lastBilledTo : addMonths(t.lastBilledTo, 1 - k);
    periods.push({ from, to, charge: Math.round(monthlyPayment * (0.7 + random.next() * 0.6)) });
  }
  const previousPayment = monthlyPayment + random.int(-20, 20) * 100;
  return { periods, monthlyPayment, previousPayment };
}

/** One statement per bill, each under the account's own folder of the document store. */
export function statements(
  random: Prng,
  history: BillingHistory,
  external: string,
  t: Timeline,
): Json[] {
  return history.periods.map((period, i) => ({
    statement_id: `ST-${random.digits(8)}`,
    bill_period_from_date: period.from,
    bill_period_to_date: period.to,
    issued_date:
      i === history.periods.length - 1
        ? t.lastStatementIssued
        : addDays(period.to, random.int(0, 3)),
    gross_amount: period.charge,
    statement_path: `/statements/${period.from.slice(0, 4)}/${external}-${i + 1}.pdf`,
  }));
}

/** The regular payment day's dates from `from` to `to`, both included. */
function paymentDates(day: number, from: string, to: string): string[] {
  const dates: string[] = [];
  let date = `${from.slice(0, 8)}${String(day).padStart(2, '0')}`;
  if (date < from) date = addMonths(date, 1);
  for (; date <= to; date = addMonths(date, 1)) dates.push(date);
  return dates;
}

const CREDIT_REASONS = ['DIRECT_DEBIT_DISCOUNT', 'GOODWILL_PAYMENT', 'LOYALTY_REWARD'];

/** One transaction; credits and payments add to the balance, charges and repayments take from it. */
interface Entry {
  json: Json;
  signed: number;
}

function directDebit(id: string, date: string, pence: number): Entry {
  const json = {
    transaction_id: id,
    transaction_date: date,
    amount: pounds(pence),
    type: 'PAYMENT',
    reason: 'REGULAR_SCHEDULE',
    payment_type: 'DD_REGULAR_COLLECTION',
  };
  return { json, signed: pence };
}

function oneOff(random: Prng, id: string, date: string): Entry {
  const pence = random.int(5, 60) * 100;
  if (random.chance(0.7)) {
    const reason = random.pick(CREDIT_REASONS);
    return {
      json: {
        transaction_id: id,
        transaction_date: date,
        amount: pounds(pence),
        type: 'CREDIT',
        reason,
      },
      signed: pence,
    };
  }
  const json = {
    transaction_id: id,
    transaction_date: date,
    amount: pounds(pence),
    type: 'REPAYMENT',
    reason: 'PARTIAL_CREDIT_REFUND',
    payment_type: 'BACS',
  };
  return { json, signed: -pence };
}

function billCharge(id: string, date: string, pence: number): Entry {
  const json = {
    transaction_id: id,
    transaction_date: date,
    amount: pounds(pence),
    type: 'CHARGE',
    reason: 'IMPORTED_CHARGE',
  };
  return { json, signed: -pence };
}

const byDate = (a: Entry, b: Entry) =>
  String(a.json.transaction_date).localeCompare(String(b.json.transaction_date));

/** The billed months: each month's direct debit, its bill on its last day, now and then a one-off. */
function historicalEntries(random: Prng, t: Timeline, history: BillingHistory, id: () => string) {
  const entries: Entry[] = [];
  for (const period of history.periods) {
    const end = addDays(period.to, -1);
    for (const date of paymentDates(t.paymentDay, period.from, end)) {
      const pence = date < t.paymentReview ? history.previousPayment : history.monthlyPayment;
      entries.push(directDebit(id(), date, pence));
    }
    entries.push(billCharge(id(), end, period.charge));
  }
  if (random.chance(0.3)) {
    const first = history.periods[0]?.from ?? t.lastStatementClosing;
    entries.push(oneOff(random, id(), dateBetween(random, first, t.lastStatementClosing)));
  }
  return entries.sort(byDate);
}

/** Since the last bill: the direct debits taken, and a one-off (always when there was no debit). */
function currentEntries(random: Prng, t: Timeline, history: BillingHistory, id: () => string) {
  const sinceBill = addDays(t.lastBilledTo, 1);
  const entries = paymentDates(t.paymentDay, sinceBill, t.today).map((date) =>
    directDebit(id(), date, history.monthlyPayment),
  );
  if (entries.length === 0 || random.chance(0.4)) {
    entries.push(oneOff(random, id(), dateBetween(random, sinceBill, t.today)));
  }
  return entries.sort(byDate);
}

const sum = (entries: Entry[]) => entries.reduce((total, entry) => total + entry.signed, 0);

/**
 * The account's one ledger: the bills and direct debits of the billed months as historical
 * transactions, and what came after the last bill as current ones. Returns it with its balance.
 */
export function ledger(
  random: Prng,
  t: Timeline,
  history: BillingHistory,
): { ledger: Json; balance: number } {
  let sequence = random.int(100_000, 900_000);
  const id = () => `TX${sequence++}`;
  const historical = historicalEntries(random, t, history, id);
  const current = currentEntries(random, t, history, id);
  const lastStatementBalance = sum(historical);
  const balance = lastStatementBalance + sum(current);
  return {
    ledger: {
      current_statement_transactions: current.map((entry) => entry.json),
      historical_statement_transactions: historical.map((entry) => entry.json),
      last_statement_closing_date: t.lastStatementClosing,
      last_statement_balance: pounds(lastStatementBalance),
      last_statement_issue_date: t.lastStatementIssued,
      ledger_balance: pounds(balance),
    },
    balance,
  };
}

/**
 * The monthly direct debit schedules: the one before the last payment review, ended the day
 * before it, and the running one, which may also repay a debt.
 */
export function paymentSchedules(random: Prng, t: Timeline, history: BillingHistory): Json[] {
  const regular = { day_of_month: t.paymentDay, frequency: 'MONTHLY', means: 'DD' };
  const running: Json = {
    amount: pounds(history.monthlyPayment),
    ...regular,
    start_date: t.paymentReview,
  };
  if (random.chance(0.5)) {
    Object.assign(running, {
      is_debt_repayment_plan: true,
      debt_repayment_element: pounds(random.int(5, 25) * 100),
      debt_repayment_end_date: addMonths(t.paymentReview, random.int(12, 24)),
    });
  }
  return [
    {
      amount: pounds(history.previousPayment),
      ...regular,
      start_date: t.supplyStart,
      end_date: addDays(t.paymentReview, -1),
    },
    running,
  ];
}

/** The direct debit mandate, set up when the account was sold. */
export function directDebitInstruction(random: Prng, t: Timeline): Json {
  return {
    type: 'DIRECT_DEBIT',
    vendor: 'BOTTOMLINE_PTX',
    reference: `DD${random.digits(10)}`,
    valid_from: t.dateOfSale,
  };
}

/** A debt passed to a collection agency, with the overdue amounts it was made of. */
export function debts(random: Prng, t: Timeline): Json[] {
  const start = dateBetween(random, addDays(t.supplyStart, 120), addDays(t.today, -60));
  const agedDebt: Json[] = [];
  for (let i = random.int(1, 3); i >= 1; i--) {
    agedDebt.push({
      debt_amount: pounds(random.int(2_000, 40_000)),
      due_date: addMonths(start, -i - 1),
    });
  }
  return [
    {
      agency_name: random.pick(codes.DEBT_AGENCIES),
      start_date: start,
      is_insolvent: random.chance(0.05),
      aged_debt: agedDebt,
    },
  ];
}

/** The Warm Home Discount for one or two past tax years (`2024/25`) during this supply. */
export function warmHomeDiscount(random: Prng, t: Timeline, prepay: boolean): Json[] {
  const lastYear = Number(t.today.slice(0, 4)) - 1;
  const firstYear = Math.max(Number(t.supplyStart.slice(0, 4)), lastYear - 3);
  const years = new Set([random.int(firstYear, lastYear), random.int(firstYear, lastYear)]);
  return [...years]
    .sort((a, b) => b - a)
    .map((year) => ({
      tax_year: `${year}/${String((year + 1) % 100).padStart(2, '0')}`,
      account_type: prepay ? 'PREPAY' : 'CREDIT',
      group: random.pick(['CORE', 'CORE', 'BROADER']),
    }));
}

/** The dunning path the account is to follow; it may not start in the past, so it starts soon. */
export function dunningPath(random: Prng, t: Timeline): Json {
  return {
    path_name: random.pick(codes.DUNNING_PATHS),
    start_date: addDays(t.today, random.int(14, 60)),
  };
}
