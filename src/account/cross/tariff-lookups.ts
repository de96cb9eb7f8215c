/**
 * Rules across the account that compare its agreements with their tariffs' and products'
 * reference data: the meters a tariff suits, when a product is on sale, and which agreement a
 * supply charge belongs to.
 *
 * Readings chosen (the published example passes all of them):
 * - Active meters have no `removed_on`; active agreements have no end or end today or later.
 * - A tariff suits a meter point's type when it has as many rate bands as each active meter
 *   has settlement registers (`is_settlement` not false): the published example's second
 *   register is not a settlement one. Reported at the agreement's `tariff_code`.
 * - A tariff stating `prepay` suits meters whose `is_prepay` is the same; a tariff that does
 *   not state it is not checked. An active meter with no active agreement on a suitable tariff,
 *   among those stating it, is reported at its `is_prepay`.
 * - An agreement for a variable product may not start before the product's `available_from`.
 *   The platform bills a meter point from the day after its last billed to date (the
 *   account's when it has none; from the agreement's start when neither is given). When it
 *   would bill a day of the agreement before the product is on sale, the code is
 *   `agreement_effective_from_before_product_available_from`; when those days were all billed
 *   before, `agreement_cannot_start_before_product_available`. At the agreement's
 *   `effective_from`.
 * - A supply charge's period runs from its line items' earliest `start_date` to their latest
 *   `end_date`. One agreement of the meter point named by `supply_point_identifier` (of any
 *   meter point when none is named) must be for a tariff of the charge's product and run over
 *   the whole period, else the charge is reported at its `line_items`.
 * Agreements whose tariff is unknown, and fields refused by their own checks, are left alone.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { dayAfter } from '../periods.js';
import { referenceEntry } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import {
  dayStart,
  endOf,
  productOf,
  tariffOf,
  type Market,
  type Tariff,
} from './supply-lookups.js';

const itemsOf = (value: unknown): (Parent | undefined)[] =>
  Array.isArray(value) ? (value as (Parent | undefined)[]) : [];

const rawItemOf = (input: unknown, field: string, i: number): Parent => {
  const list = isObject(input) ? input[field] : undefined;
  const item: unknown = Array.isArray(list) ? list[i] : undefined;
  return isObject(item) ? item : {};
};

interface Agreement {
  readonly index: number;
  readonly from: string;
  /** null when open-ended. */
  readonly to: string | null;
  readonly tariff: Tariff;
}

interface Point {
  readonly at: string;
  readonly out: Parent;
  readonly market: Market;
  /** The agreements, or undefined when one of them cannot be read. */
  readonly agreements: Agreement[] | undefined;
}

function pointOf(run: Run, out: Parent, input: Parent, at: string): Point | undefined {
  const market = out.supply_type;
  if (market !== 'ELECTRICITY' && market !== 'GAS') return undefined;
  let agreements: Agreement[] | undefined = [];
  for (const [index, item] of itemsOf(out.agreements).entries()) {
    const tariff = tariffOf(run, item?.tariff_code, market);
    const from = item?.effective_from;
    const to =
      item === undefined
        ? undefined
        : endOf(item, rawItemOf(input, 'agreements', index), 'effective_to');
    if (tariff === undefined || typeof from !== 'string' || to === undefined) {
      agreements = undefined;
      break;
    }
    agreements.push({ index, from, to, tariff });
  }
  return { at, out, market, agreements };
}

const isActive = (a: Agreement, run: Run) => a.to === null || a.to >= run.today;

/** The active meters of a point, by index; meters whose removal date failed are left out. */
function activeMeters(p: Point, input: Parent): [number, Parent][] {
  return itemsOf(p.out.meters).flatMap((meter, m): [number, Parent][] => {
    if (meter === undefined) return [];
    const removed = endOf(meter, rawItemOf(input, 'meters', m), 'removed_on');
    return removed === null ? [[m, meter]] : [];
  });
}

const METER_POINT_TYPE = 'tariff_type_does_not_match_meter_point_type';
const METER_TYPE = 'tariff_type_does_not_match_meter_type';

function checkMeterTypes(p: Point, input: Parent, run: Run): void {
  if (p.agreements === undefined) return;
  const active = p.agreements.filter((a) => isActive(a, run));
  const meters = activeMeters(p, input);
  if (p.market === 'ELECTRICITY') {
    const settlement = meters.flatMap(([, meter]) => {
      const registers = itemsOf(meter.registers);
      if (registers.length === 0 || registers.includes(undefined)) return [];
      return [registers.filter((r) => r?.is_settlement !== false).length];
    });
    for (const a of active) {
      const bands = a.tariff.rate_bands?.length;
      if (bands === undefined || settlement.every((n) => n === 0 || n === bands)) continue;
      fail(
        run,
        `${p.at}agreements.${a.index}.tariff_code`,
        METER_POINT_TYPE,
        "The tariff's number of rates does not suit the meter point's registers.",
      );
    }
  }
  const stated = active.filter((a) => a.tariff.prepay !== undefined);
  if (stated.length === 0) return;
  for (const [m, meter] of meters) {
    if (typeof meter.is_prepay !== 'boolean') continue;
    if (stated.some((a) => a.tariff.prepay === meter.is_prepay)) continue;
    fail(
      run,
      `${p.at}meters.${m}.is_prepay`,
      METER_TYPE,
      meter.is_prepay
        ? 'A prepayment meter needs an agreement on a prepayment tariff.'
        : 'A credit meter needs an agreement on a tariff that is not for prepayment.',
    );
  }
}

const BEFORE_BILLED = 'agreement_effective_from_before_product_available_from';
const BEFORE_SALE = 'agreement_cannot_start_before_product_available';

function checkProductStarts(p: Point, billedTo: unknown, run: Run): void {
  for (const a of p.agreements ?? []) {
    const product = productOf(run, a.tariff);
    if (product?.variable !== true || product.available_from === undefined) continue;
    const onSale = Date.parse(product.available_from);
    if (dayStart(a.from) >= onSale) continue;
    const billsFrom = typeof billedTo === 'string' ? dayAfter(billedTo) : a.from;
    const firstBilled = billsFrom > a.from ? billsFrom : a.from;
    const billsEarly = (a.to === null || firstBilled <= a.to) && dayStart(firstBilled) < onSale;
    fail(
      run,
      `${p.at}agreements.${a.index}.effective_from`,
      billsEarly ? BEFORE_BILLED : BEFORE_SALE,
      'The agreement starts before its product is on sale.',
    );
  }
}

const TRANSACTION_LISTS = ['current_statement_transactions', 'historical_statement_transactions'];
const UNCOVERED = 'supply_charge_line_items_not_covered_by_single_agreement';

/** Each supply charge of `owner`'s transaction lists has one agreement covering it. */
function checkSupplyCharges(owner: Parent, at: string, points: Point[], run: Run): void {
  for (const list of TRANSACTION_LISTS) {
    for (const [i, charge] of itemsOf(owner[list]).entries()) {
      const product = charge?.product_code;
      // An unknown product is reported as such, not as a charge without an agreement.
      if (charge?.type !== 'SUPPLY_CHARGE' || typeof product !== 'string') continue;
      if (referenceEntry(run, 'product', product) === undefined) continue;
      const items = itemsOf(charge.line_items);
      if (items.length === 0 || items.includes(undefined)) continue;
      const starts = items.map((item) => item?.start_date);
      const ends = items.map((item) => item?.end_date);
      if (![...starts, ...ends].every((d) => typeof d === 'string')) continue;
      const start = (starts as string[]).reduce((a, b) => (b < a ? b : a));
      const end = (ends as string[]).reduce((a, b) => (b > a ? b : a));
      const spi = charge.supply_point_identifier;
      const named = points.filter((p) => spi === undefined || p.out.identifier === spi);
      if (named.some((p) => p.agreements === undefined)) continue;
      const covered = named.some((p) =>
        (p.agreements ?? []).some(
          (a) => a.tariff.product === product && a.from <= start && (a.to === null || a.to >= end),
        ),
      );
      if (covered) continue;
      fail(
        run,
        `${at}${list}.${i}.line_items`,
        UNCOVERED,
        'No single agreement for this product covers all of the charge.',
      );
    }
  }
}

const energyAccount: ObjectRule = {
  codes: [METER_POINT_TYPE, METER_TYPE, BEFORE_BILLED, BEFORE_SALE, UNCOVERED],
  check: (out, prefix, run, input) => {
    const points: Point[] = [];
    for (const [s, address] of itemsOf(out.supply_addresses).entries()) {
      const rawAddress = rawItemOf(input, 'supply_addresses', s);
      for (const [m, meterPoint] of itemsOf(address?.meter_points).entries()) {
        if (meterPoint === undefined) continue;
        const raw = rawItemOf(rawAddress, 'meter_points', m);
        const at = `${prefix}supply_addresses.${s}.meter_points.${m}.`;
        const p = pointOf(run, meterPoint, raw, at);
        if (p === undefined) continue;
        points.push(p);
        checkMeterTypes(p, raw, run);
        // A last billed to date refused by its own checks leaves the billing start unknown.
        const billedTo = endOf(meterPoint, raw, 'last_billed_to_date');
        const accountBilledTo = endOf(out, input, 'last_billed_to_date');
        if (billedTo !== undefined && (billedTo !== null || accountBilledTo !== undefined)) {
          checkProductStarts(p, billedTo ?? accountBilledTo, run);
        }
      }
    }
    checkSupplyCharges(out, prefix, points, run);
    for (const [l, ledger] of itemsOf(out.ledgers).entries()) {
      if (ledger !== undefined) checkSupplyCharges(ledger, `${prefix}ledgers.${l}.`, points, run);
    }
  },
};

export const TARIFF_LOOKUP_RULES: ObjectRules = { EnergyAccount: energyAccount };
