/**
 * Balances and amounts: each scope's balance against its last statement balance and current
 * transactions, the historical sum, a supply charge's amount and a line item's net amount.
 * Readings:
 *
 * - Balances are checked when a scope has current transactions or a last statement balance, and
 *   its balance is given; the historical sum only when both the transactions and the balance are
 *   given. Payments and credits add, charges, repayments and supply charges take away; prepay
 *   transactions are left out. A ledger's own balance mismatch is reported with the account's
 *   code, at its `ledger_balance`.
 * - A line item's net amount is its price per unit times its units, rounded half away from zero
 *   to the places the net amount is written with (at least two).
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import type { Items } from '../rules.js';
import type { ObjectRule } from './object-rule.js';
import { holdsData, itemsOf, objectPath, scaled, str } from './shared.js';
import { balanceOf, CURRENT, failed, HISTORICAL, type Scope } from './statement-scopes.js';

export function checkBalances(scope: Scope, prefix: string, run: Run): void {
  const { fields } = scope;
  const at = `${prefix}${scope.at}`;
  const current = itemsOf(fields[CURRENT]);
  const historical = itemsOf(fields[HISTORICAL]);
  if ([CURRENT, HISTORICAL, 'last_statement_balance'].some((name) => failed(scope, name))) return;
  const last = str(fields.last_statement_balance);
  const balance = str(fields[scope.balance]);
  const currentSum = balanceOf(current);
  if (
    balance !== undefined &&
    currentSum !== undefined &&
    (current.length > 0 || last !== undefined)
  ) {
    if ((last === undefined ? 0n : scaled(last)) + currentSum !== scaled(balance)) {
      fail(
        run,
        `${at}${scope.balance}`,
        'balance_mismatch_on_transfer_balance',
        'The balance is not the last statement balance plus the current transactions.',
      );
    }
  }
  const historicalSum = balanceOf(historical);
  if (
    last !== undefined &&
    historical.length > 0 &&
    historicalSum !== undefined &&
    historicalSum !== scaled(last)
  ) {
    fail(
      run,
      `${at}last_statement_balance`,
      'historical_statement_transactions_balance_mismatch',
      'The last statement balance is not the sum of the historical transactions.',
    );
  }
}

/** A supply charge's amount is its line items' net amounts plus its taxes. */
export const supplyCharge: ObjectRule = {
  codes: [
    'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
    'supply_point_identifier_required_for_rate_specification_code',
  ],
  check: (out, prefix, run, input) => {
    const items = out.line_items as Items<Parent> | undefined;
    if (
      items?.some((item) => item?.rate_specification_code !== undefined) === true &&
      out.supply_point_identifier === undefined
    ) {
      fail(
        run,
        `${prefix}supply_point_identifier`,
        'supply_point_identifier_required_for_rate_specification_code',
        'A line item with a rate specification code needs the supply point.',
      );
    }
    const amount = str(out.amount);
    const parts = [...(items ?? []), ...((out.tax_items as Items<Parent> | undefined) ?? [])];
    const values = parts.map((part) => str(part?.net_amount ?? part?.amount));
    const taxesFailed = holdsData(input.tax_items) && out.tax_items === undefined;
    if (amount === undefined || items === undefined || taxesFailed) return;
    if (values.some((v) => v === undefined)) return;
    const total = values.reduce((sum, v) => sum + scaled(v as string), 0n);
    if (total !== scaled(amount)) {
      fail(
        run,
        `${prefix}amount`,
        'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
        'The amount is not the line items net amounts plus the tax amounts.',
      );
    }
  },
};

export const PRICE_PLACES = 7;
export const UNIT_PLACES = 4;

/** `value` (of `from` places) rounded half away from zero to `to` places. */
export function rounded(value: bigint, from: number, to: number): bigint {
  const divisor = 10n ** BigInt(from - to);
  const magnitude = value < 0n ? -value : value;
  const result = (magnitude + divisor / 2n) / divisor;
  return value < 0n ? -result : result;
}

export const RATE_FIELDS = [
  'rate_band',
  'rate_specification_code',
  'time_series_specification_code',
];

export const lineItem: ObjectRule = {
  codes: ['conflicting_rate_band_specification', 'incorrect_line_item_net_amount'],
  check: (out, prefix, run, input) => {
    const given = RATE_FIELDS.filter((name) => holdsData(input[name]));
    if (given.length !== 1) {
      fail(
        run,
        objectPath(prefix),
        'conflicting_rate_band_specification',
        'A line item needs exactly one of rate_band, rate_specification_code and time_series_specification_code.',
      );
    }
    const [price, units, net] = [
      str(out.price_per_unit),
      str(out.number_of_units),
      str(out.net_amount),
    ];
    if (price === undefined || units === undefined || net === undefined) return;
    const places = Math.max(2, net.split('.')[1]?.length ?? 0);
    const product = scaled(price, PRICE_PLACES) * scaled(units, UNIT_PLACES);
    if (rounded(product, PRICE_PLACES + UNIT_PLACES, places) !== scaled(net, places)) {
      fail(
        run,
        `${prefix}net_amount`,
        'incorrect_line_item_net_amount',
        'The net amount is not the price per unit times the number of units.',
      );
    }
  },
};
