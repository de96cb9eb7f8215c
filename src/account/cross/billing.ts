/**
 * Rules on how an account is billed: its billing options, the shape of its billing and supply
 * addresses, and the periods its supply charges cover. Readings taken where the publication
 * leaves room (the published full account, the test factory and the samples pass them):
 *
 * - Billing options are judged on the account, which knows its type. A domestic account's are
 *   refused whole (./account-types.ts) and not judged further. With `use_industry_billing`
 *   true, any period field given (start day, length, start month, length multiplier) is
 *   refused. Without it, a missing period start day or length is
 *   `business_account_missing_billing_options` on a business account and
 *   `account_billing_options_period_data_required` on any other: one error per field missing.
 * - An address line says something when it holds a letter or a digit; a line of punctuation
 *   alone (`.`, `-`) is `invalid_address`, at the line.
 * - A structured address (`Address`) in GB needs a first line of `street_address` and a
 *   postal code (whose shape is `invalid_postcode`'s); in another country, a line of
 *   `street_address` or a `structured_street_address`.
 * - Legacy billing lines, when any is given and `billing_address` is not: every line says
 *   something, and `billing_address1` and `billing_postcode` are given. On a typed account that
 *   is not an occupier's, their absence is already `billing_address_not_provided`.
 * - Supply address lines given say something (line 1 and the postcode are required fields).
 * - Supply charges: the publication compares line items with the periods already charged on
 *   the platform; within the payload, the line items of two supply charges for the same
 *   `supply_point_identifier` (anywhere among the account's and the ledgers' transactions) may
 *   not share a day. A line item runs from `start_date` to `end_date`, both included. The line
 *   items of one charge may share days (a charge bills several rates over one period). The
 *   later-starting line item is at fault, at its start date; charges without a supply point
 *   identifier are not compared.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { rule, type Check, type ObjectRules } from './object-rule.js';
import {
  accountType,
  holdsData,
  indexed,
  isBusiness,
  isDomestic,
  isOccupier,
  itemsOf,
  str,
} from './shared.js';

const INVALID_ADDRESS = 'invalid_address';

// ---------------------------------------------------------------- billing options

const PERIOD_FIELDS = [
  'period_start_day',
  'period_length',
  'period_start_month',
  'period_length_multiplier',
];
const REQUIRED_PERIOD_FIELDS = ['period_start_day', 'period_length'];

const billingOptions: Check = (out, prefix, run, input) => {
  const [options, raw] = [out.account_billing_options, input.account_billing_options];
  const type = accountType(out);
  if (!isObject(options) || !isObject(raw) || isDomestic(type)) return;
  // A refused use_industry_billing leaves the choice unknown.
  if (holdsData(raw.use_industry_billing) && options.use_industry_billing === undefined) return;
  const at = `${prefix}account_billing_options.`;
  if (options.use_industry_billing === true) {
    for (const field of PERIOD_FIELDS) {
      if (options[field] !== undefined && options[field] !== null) {
        fail(
          run,
          `${at}${field}`,
          'account_billing_options_industry_billing_with_period_data',
          'Industry billing sets the billing period: leave this out.',
        );
      }
    }
    return;
  }
  const code = isBusiness(type)
    ? 'business_account_missing_billing_options'
    : 'account_billing_options_period_data_required';
  for (const field of REQUIRED_PERIOD_FIELDS) {
    if (raw[field] === undefined || raw[field] === null) {
      fail(
        run,
        `${at}${field}`,
        code,
        'Billing options without industry billing need a period start day and length.',
      );
    }
  }
};

const quarterlyBilling: Check = (out, prefix, run, input) => {
  const options = out.account_billing_options;
  if (!isObject(options) || options.use_industry_billing === true) return;
  const due = input.next_bill_due_date;
  if (options.period_length === 'QUARTERLY' && (due === undefined || due === null)) {
    fail(
      run,
      `${prefix}next_bill_due_date`,
      'next_bill_to_date_not_provided_for_quarterly_billing',
      'Quarterly billing without industry billing needs the next bill due date.',
    );
  }
};

// ---------------------------------------------------------------- addresses

const SAYS_SOMETHING = /[\p{L}\p{N}]/u;

/** Each line given (a checked string, not blank) holds a letter or a digit. */
function checkLines(out: Parent, fields: readonly string[], prefix: string, run: Run): void {
  for (const field of fields) {
    const line = out[field];
    if (typeof line === 'string' && line.trim() !== '' && !SAYS_SOMETHING.test(line)) {
      fail(run, `${prefix}${field}`, INVALID_ADDRESS, 'An address line needs a letter or a digit.');
    }
  }
}

const LEGACY_LINES = [
  'billing_address1',
  'billing_address2',
  'billing_address3',
  'billing_address4',
  'billing_address5',
];
const LEGACY_NEEDED = ['billing_address1', 'billing_postcode'];

const legacyBillingAddress: Check = (out, prefix, run, input) => {
  if (input.billing_address !== undefined) return;
  if (![...LEGACY_LINES, 'billing_postcode'].some((field) => holdsData(input[field]))) return;
  checkLines(out, LEGACY_LINES, prefix, run);
  if (accountType(out) !== undefined && !isOccupier(out)) return;
  for (const field of LEGACY_NEEDED) {
    if (!holdsData(input[field])) {
      fail(
        run,
        `${prefix}${field}`,
        INVALID_ADDRESS,
        'Legacy billing lines need the first line and the postcode.',
      );
    }
  }
};

const structuredAddress: Check = (out, prefix, run, input) => {
  const country = out.country;
  if (typeof country !== 'string') return;
  // A street address refused by its own checks is not judged again.
  if (holdsData(input.street_address) && out.street_address === undefined) return;
  const lines = (str(out.street_address) ?? '').split('\n');
  if (country === 'GB') {
    if (!SAYS_SOMETHING.test(lines[0] ?? '')) {
      fail(
        run,
        `${prefix}street_address`,
        INVALID_ADDRESS,
        'An address in GB needs a first line of street address.',
      );
    }
    if (!holdsData(input.postal_code)) {
      fail(run, `${prefix}postal_code`, INVALID_ADDRESS, 'An address in GB needs a postcode.');
    }
    return;
  }
  const structured = out.structured_street_address;
  const hasStructured = isObject(structured) && Object.keys(structured).length > 0;
  if (!hasStructured && !lines.some((line) => SAYS_SOMETHING.test(line))) {
    fail(
      run,
      `${prefix}street_address`,
      INVALID_ADDRESS,
      'An address needs at least one line of street address.',
    );
  }
};

const SUPPLY_LINES = [
  'supply_address1',
  'supply_address2',
  'supply_address3',
  'supply_address4',
  'supply_address5',
];

const supplyAddressLines: Check = (out, prefix, run) => checkLines(out, SUPPLY_LINES, prefix, run);

// ---------------------------------------------------------------- supply charge periods

const TRANSACTION_LISTS = ['current_statement_transactions', 'historical_statement_transactions'];

/** One line item of a supply charge, with where it sits. */
interface ChargedDays {
  readonly point: string;
  /** The charge it belongs to (its place in the account). */
  readonly charge: number;
  readonly start: string;
  readonly end: string;
  readonly order: number;
  readonly at: () => string;
}

function chargedDays(out: Parent, prefix: string): ChargedDays[] {
  const found: ChargedDays[] = [];
  const scopes: [Parent, string][] = [[out, '']];
  for (const [l, ledger] of indexed(itemsOf(out.ledgers))) scopes.push([ledger, `ledgers.${l}.`]);
  let charge = 0;
  for (const [scope, scopeAt] of scopes) {
    for (const list of TRANSACTION_LISTS) {
      for (const [t, tx] of indexed(itemsOf(scope[list]))) {
        const point = str(tx.supply_point_identifier);
        if (tx.type !== 'SUPPLY_CHARGE' || point === undefined) continue;
        charge++;
        for (const [i, item] of indexed(itemsOf(tx.line_items))) {
          const [start, end] = [str(item.start_date), str(item.end_date)];
          if (start === undefined || end === undefined) continue;
          found.push({
            point,
            charge,
            start,
            end,
            order: found.length,
            at: () => `${prefix}${scopeAt}${list}.${t}.line_items.${i}.start_date`,
          });
        }
      }
    }
  }
  return found;
}

const byPointThenStart = (a: ChargedDays, b: ChargedDays) =>
  a.point < b.point
    ? -1
    : a.point > b.point
      ? 1
      : a.start < b.start
        ? -1
        : a.start > b.start
          ? 1
          : a.order - b.order;

/**
 * Line items taken by start date, per supply point: one starting on or before the last day
 * reached by another charge's items so far shares a day with it. The two furthest-reaching
 * items of different charges are kept, so that an item is compared with another charge's.
 */
const chargedPeriods: Check = (out, prefix, run) => {
  const items = chargedDays(out, prefix).sort(byPointThenStart);
  let point: string | undefined;
  let first: ChargedDays | undefined;
  let second: ChargedDays | undefined;
  for (const item of items) {
    if (item.point !== point) [point, first, second] = [item.point, undefined, undefined];
    const other = first?.charge !== item.charge ? first : second;
    if (other !== undefined && item.start <= other.end) {
      fail(
        run,
        item.at(),
        'line_items_overlap_already_charged_period',
        `Another supply charge of this supply point already covers days to ${other.end}.`,
      );
    }
    if (first === undefined || item.end > first.end) {
      if (first?.charge !== item.charge) second = first;
      first = item;
    } else if (item.charge !== first.charge && (second === undefined || item.end > second.end)) {
      second = item;
    }
  }
};

export const BILLING_RULES: ObjectRules = {
  EnergyAccount: rule(
    [
      'account_billing_options_industry_billing_with_period_data',
      'account_billing_options_period_data_required',
      'business_account_missing_billing_options',
      'next_bill_to_date_not_provided_for_quarterly_billing',
      INVALID_ADDRESS,
      'line_items_overlap_already_charged_period',
    ],
    billingOptions,
    quarterlyBilling,
    legacyBillingAddress,
    chargedPeriods,
  ),
  Address: rule([INVALID_ADDRESS], structuredAddress),
  EnergyLegacySupplyAddress: rule([INVALID_ADDRESS], supplyAddressLines),
};
