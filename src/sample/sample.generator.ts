/**
 * Generates realistic published accounts (`EnergyAccount`, src/account/) one at a time, so a
 * million lines never need a million objects; a chosen fraction carries exactly one known defect.
 * `shape` says how much of the account is filled in (./shape.ts); each section is drawn by one
 * function of ./people.ts, ./supply.ts, ./money.ts or ./details.ts.
 */
import { addMonths, utcToday } from './calendar.js';
import { supplierMpids } from './codes.js';
import { pickDefect, type ExpectedError } from './defects.js';
import * as details from './details.js';
import * as money from './money.js';
import { fullCustomer, landlord, minimalCustomer, typicalCustomer, type Json } from './people.js';
import { lineRandom } from './prng.js';
import { DEFAULT_SHAPE, type SampleShape } from './shape.js';
import {
  electricityPoint,
  gasPoint,
  supplyAddress,
  type SmartType,
  type SupplyDraw,
} from './supply.js';
import { drawTimeline } from './timeline.js';
import * as uk from './uk-data.js';

export type { ExpectedError } from './defects.js';
export type { SampleShape } from './shape.js';

export interface SampleOptions {
  count: number;
  supplier: string;
  /** Fraction of lines (0–1) that carry one defect each. */
  invalidRatio?: number;
  seed: number;
  /** How much of the account to fill in; `typical` by default. */
  shape?: SampleShape;
  /** The day (`YYYY-MM-DD`) the accounts' dates are counted back from; today (UTC) by default. */
  asOf?: string;
}

export interface SampleLine {
  payload: Record<string, unknown>;
  /** Present on defective lines: the one error the service must report. */
  defect?: ExpectedError;
}

/** The external account number of line `index` (0-based): unique per supplier and seed. */
export function sampleAccountNumber(supplier: string, seed: number, index: number): string {
  return `${supplier}-${seed}-${String(index + 1).padStart(7, '0')}`;
}

/** The sample lines in order; defective lines are spread evenly, their kind drawn at random. */
export function* generateSample(options: SampleOptions): Generator<SampleLine> {
  const ratio = Math.min(1, Math.max(0, options.invalidRatio ?? 0));
  const shape = options.shape ?? DEFAULT_SHAPE;
  const today = options.asOf ?? utcToday();
  const mpids = supplierMpids(options.supplier);
  // An offset drawn from the seed, so the defective lines are not always the same indexes.
  const offset = lineRandom(options.seed, -1).next();
  for (let index = 0; index < options.count; index++) {
    const random = lineRandom(options.seed, index);
    const draw: AccountDraw = {
      random,
      t: drawTimeline(random, today),
      home: uk.address(random),
      mpids,
      shape,
      supplier: options.supplier,
      external: sampleAccountNumber(options.supplier, options.seed, index),
    };
    const payload = ACCOUNTS[shape](draw);
    // Exactly floor or ceil of count × ratio lines are defective, never a random number of them.
    if (Math.floor((index + 1) * ratio + offset) > Math.floor(index * ratio + offset)) {
      yield { payload, defect: pickDefect(payload, random, today) };
    } else {
      yield { payload };
    }
  }
}

/** What every section of one account draws on. */
interface AccountDraw extends SupplyDraw {
  supplier: string;
  external: string;
}

/** The fewest fields a useful account needs: who, where to bill, what is supplied on which tariff. */
function minimalAccount(d: AccountDraw): Json {
  return {
    import_supplier: d.supplier,
    external_account_number: d.external,
    customers: [minimalCustomer(d.random, d.random.pick(uk.FAMILY_NAMES))],
    billing_address: details.billingAddress(d.home),
    supply_addresses: [supplyAddress(d.home, d.t, [electricityPoint(d)])],
  };
}

/** An account as most extracts have them: one or two customers, electricity and often gas. */
function typicalAccount(d: AccountDraw): Json {
  const { random, t } = d;
  const family = random.pick(uk.FAMILY_NAMES);
  const fuels = { electricity: true, gas: random.chance(0.6) };
  const customers = [typicalCustomer(random, family, t, fuels)];
  if (random.chance(0.25)) {
    customers.push(typicalCustomer(random, random.pick(uk.FAMILY_NAMES), t, fuels));
  }
  const meterPoints = [electricityPoint(d)];
  if (fuels.gas) meterPoints.push(gasPoint(d));
  const history = money.billingHistory(random, t, 1);
  const account: Json = {
    import_supplier: d.supplier,
    external_account_number: d.external,
    account_type: 'DOMESTIC',
    date_of_sale: t.dateOfSale,
    communication_preference: random.pick(['ONLINE', 'ONLINE', 'PRINT']),
    billing_address: details.billingAddress(d.home),
    transfer_balance: money.pounds(random.int(-90_000, 60_000)),
    last_billed_to_date: t.lastBilledTo,
    customers,
    supply_addresses: [supplyAddress(d.home, t, meterPoints)],
    statements: money.statements(random, history, d.external, t),
    notes: details.notes(random, t, d.external, 1, false),
  };
  if (random.chance(0.5)) account.payment_instructions = [money.directDebitInstruction(random, t)];
  if (random.chance(0.3)) account.references = details.references(random, d.external, false);
  return account;
}

/**
 * An account using the whole published schema as the published full example does: ledger,
 * history and schedules, debts, priority needs, consumption history, a landlord, and a smart or
 * prepayment meter in some accounts. Sections that need the platform's own set-up (businesses,
 * portfolios, complaints, feed-in tariffs, commission contracts) are left out.
 */
function fullAccount(d: AccountDraw): Json {
  const { random, t } = d;
  const fuels = { electricity: true, gas: true };
  const family = random.pick(uk.FAMILY_NAMES);
  const customers = [fullCustomer(random, family, t, fuels, true)];
  if (random.chance(0.3)) {
    customers.push(fullCustomer(random, random.pick(uk.FAMILY_NAMES), t, fuels, false));
  }
  const first = customers[0] as Json;
  const smart: SmartType | undefined = random.chance(0.5)
    ? random.pick(['SMETS2', 'SMETS1'])
    : undefined;
  const prepay = random.chance(0.4);
  const supply = supplyAddress(d.home, t, [electricityPoint(d, smart), gasPoint(d, smart, prepay)]);
  Object.assign(supply, { is_landlord: false, property_administrators: [landlord(random, t)] });
  const history = money.billingHistory(random, t, random.int(2, 4));
  const { ledger, balance } = money.ledger(random, t, history);
  const billingName = `${String(first.given_name)} ${family}`;
  return {
    import_supplier: d.supplier,
    external_account_number: d.external,
    unknown_occupier: false,
    account_type: 'DOMESTIC',
    sales_channel: random.pick(uk.SALES_CHANNELS),
    date_of_sale: t.dateOfSale,
    language_preference: 'en-gb',
    customers,
    ...(random.chance(0.5)
      ? details.legacyBillingLines(d.home, billingName)
      : { billing_name: billingName, billing_address: details.billingAddress(d.home) }),
    supply_addresses: [supply],
    transfer_balance: money.pounds(balance),
    ledgers: [ledger],
    last_billed_to_date: t.lastBilledTo,
    payment_instructions: [money.directDebitInstruction(random, t)],
    payment_schedules: money.paymentSchedules(random, t, history),
    references: details.references(random, d.external, prepay),
    notes: details.notes(random, t, d.external, random.int(1, 3), true),
    statements: money.statements(random, history, d.external, t),
    warm_home_discount: money.warmHomeDiscount(random, t, prepay),
    dunning_path: money.dunningPath(random, t),
    debts: money.debts(random, t),
    last_payment_review_date: t.paymentReview,
    next_bill_due_date: addMonths(t.lastBilledTo, 1),
    ...(smart === undefined
      ? {}
      : {
          smart_read_frequency: random.pick(['HALF_HOURLY', 'DAILY', 'MONTHLY']),
          smart_read_cycle_day: t.paymentDay,
        }),
    communication_preference: random.pick(['ONLINE', 'ONLINE', 'PRINT']),
    ...(random.chance(0.15)
      ? { document_accessibility: random.pick(['LARGE_PRINT', 'BRAILLE', 'SPOKEN']) }
      : {}),
    account_campaigns: details.campaigns(random, t),
    metadata: details.metadata(random, t),
    consents: details.accountConsents(random, t),
  };
}

const ACCOUNTS: Readonly<Record<SampleShape, (d: AccountDraw) => Json>> = {
  minimal: minimalAccount,
  typical: typicalAccount,
  full: fullAccount,
};
