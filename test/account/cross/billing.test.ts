/**
 * The rules on billing: billing options, the shape of billing and supply addresses, and the
 * periods supply charges cover. The factory account is domestic, billed to 2024-03-28.
 */
import { describe, expect, it } from 'vitest';
import { buildAccount, buildSupplyAddress, VALID_MPAN } from '../factory.js';
import { errorsOf, fullAccount, type Json } from '../full-account.js';
import { expectProblem, expectProblems, valueOf } from '../helpers.js';
import { HAS_REFERENCE } from '../reference.js';

function without(object: Json, ...names: string[]): Json {
  const copy = { ...object };
  for (const name of names) delete copy[name];
  return copy;
}

/** The factory account without a type (no rule of a type applies), with `fields`. */
const untyped = (fields: Json = {}) => without(buildAccount(fields), 'account_type');
const business = (fields: Json = {}) => buildAccount({ account_type: 'BUSINESS', ...fields });

describe.skipIf(!HAS_REFERENCE)('billing rules on the published account', () => {
  it('pass the published account, legacy billing lines and all', () => {
    expect(errorsOf(fullAccount())).toEqual([]);
  });
});

describe('billing options', () => {
  const OPTIONS = 'account_billing_options';

  it('refuse period data beside industry billing', () => {
    const code = 'account_billing_options_industry_billing_with_period_data';
    expectProblems(
      business({
        [OPTIONS]: { use_industry_billing: true, period_start_day: 1, period_start_month: 4 },
      }),
      [
        { code, attr: `${OPTIONS}.period_start_day` },
        { code, attr: `${OPTIONS}.period_start_month` },
      ],
    );
    expectProblem(
      untyped({ [OPTIONS]: { use_industry_billing: true, period_length: 'MONTHLY' } }),
      code,
      `${OPTIONS}.period_length`,
    );
    valueOf(business({ [OPTIONS]: { use_industry_billing: true } }));
    // A refused period field is not reported again.
    expectProblem(
      business({ [OPTIONS]: { use_industry_billing: true, period_start_day: 29 } }),
      'max_value',
      `${OPTIONS}.period_start_day`,
    );
  });

  it('want a period start day and length without industry billing', () => {
    const code = 'account_billing_options_period_data_required';
    expectProblem(
      untyped({ [OPTIONS]: { period_length: 'MONTHLY' } }),
      code,
      `${OPTIONS}.period_start_day`,
    );
    expectProblems(untyped({ [OPTIONS]: { use_industry_billing: false } }), [
      { code, attr: `${OPTIONS}.period_start_day` },
      { code, attr: `${OPTIONS}.period_length` },
    ]);
    valueOf(untyped({ [OPTIONS]: { period_start_day: 1, period_length: 'MONTHLY' } }));
  });

  it('report one error per missing field: the business code on a business account', () => {
    expectProblem(
      business({ [OPTIONS]: { period_length: 'MONTHLY' } }),
      'business_account_missing_billing_options',
      `${OPTIONS}.period_start_day`,
    );
    // A domestic account's options are refused whole, and not judged further.
    expectProblem(
      buildAccount({ [OPTIONS]: { use_industry_billing: true, period_start_day: 1 } }),
      'account_billing_options_provided_for_domestic_accounts',
      OPTIONS,
    );
  });
});

describe('addresses', () => {
  const LEGACY = { billing_address: undefined };

  it('refuse legacy billing lines without the first line or the postcode', () => {
    expectProblems(untyped({ ...LEGACY, billing_address2: 'Flat 2' }), [
      { code: 'invalid_address', attr: 'billing_address1' },
      { code: 'invalid_address', attr: 'billing_postcode' },
    ]);
    // On a typed account the missing lines are already billing_address_not_provided.
    expectProblems(buildAccount({ ...LEGACY, billing_address2: 'Flat 2' }), [
      { code: 'billing_address_not_provided', attr: 'billing_address1' },
      { code: 'billing_address_not_provided', attr: 'billing_postcode' },
    ]);
    valueOf(untyped({ ...LEGACY, billing_address1: '1 Road', billing_postcode: 'M1 1AE' }));
    valueOf(untyped(LEGACY));
  });

  it('refuse a legacy billing line with no letter or digit', () => {
    const lines = { billing_address1: '1 Road', billing_postcode: 'M1 1AE' };
    expectProblem(
      buildAccount({ ...LEGACY, ...lines, billing_address3: '-' }),
      'invalid_address',
      'billing_address3',
    );
    valueOf(buildAccount({ ...LEGACY, ...lines, billing_address3: 'Øster Allé' }));
  });

  it('want a first line and a postcode in a GB structured address', () => {
    const gb = (fields: Json) =>
      buildAccount({ billing_address: { country: 'GB', postal_code: 'M1 1AE', ...fields } });
    expectProblem(gb({}), 'invalid_address', 'billing_address.street_address');
    expectProblem(
      gb({ street_address: '...\n1 Road' }),
      'invalid_address',
      'billing_address.street_address',
    );
    expectProblem(
      gb({ street_address: '1 Road', postal_code: undefined }),
      'invalid_address',
      'billing_address.postal_code',
    );
    // A malformed postcode is its own error only.
    expectProblem(
      gb({ street_address: '1 Road', postal_code: 'M1' }),
      'invalid_postcode',
      'billing_address.postal_code',
    );
    valueOf(gb({ street_address: '1 Road' }));
  });

  it('want at least one line in a structured address elsewhere', () => {
    const fr = (fields: Json) =>
      buildAccount({ billing_address: { country: 'FR', locality: 'Paris', ...fields } });
    expectProblem(fr({}), 'invalid_address', 'billing_address.street_address');
    valueOf(fr({ street_address: '\n8 rue de la Paix' }));
    valueOf(fr({ structured_street_address: { street: 'rue de la Paix', number: '8' } }));
  });

  it('refuse a supply address line with no letter or digit', () => {
    const account = buildAccount({
      supply_addresses: [buildSupplyAddress({ supply_address2: '.' })],
    });
    expectProblem(account, 'invalid_address', 'supply_addresses.0.supply_address2');
  });
});

describe('supply charge periods', () => {
  const lineItem = (start: string, end: string, extra: Json = {}): Json => ({
    start_date: start,
    end_date: end,
    net_amount: '10.00',
    number_of_units: '100',
    price_per_unit: '0.1',
    rate_band: 'STANDARD',
    ...extra,
  });
  const charge = (id: string, items: Json[], extra: Json = {}): Json => ({
    type: 'SUPPLY_CHARGE',
    transaction_id: id,
    transaction_date: '2024-04-29',
    amount: String(10 * items.length),
    product_code: 'VAR-22-11-01',
    supply_point_identifier: VALID_MPAN,
    line_items: items,
    ...extra,
  });
  /** Historical charges dated on the closing date; the current ones make the balance. */
  const account = (historical: Json[], current: Json[] = []) => {
    const units = current.flatMap((c) => c.line_items as Json[]).length;
    return buildAccount({
      last_billed_to_date: '2024-02-28',
      last_statement_closing_date: '2024-02-28',
      transfer_balance: `-${10 * units}.00`,
      historical_statement_transactions: historical.map((c) => ({
        ...c,
        transaction_date: '2024-02-28',
      })),
      current_statement_transactions: current,
    });
  };
  const code = 'line_items_overlap_already_charged_period';

  it('refuse a day charged by two supply charges of one supply point', () => {
    expectProblem(
      account(
        [charge('SC-1', [lineItem('2024-01-01', '2024-01-31')])],
        [charge('SC-2', [lineItem('2024-01-31', '2024-02-27')])],
      ),
      code,
      'current_statement_transactions.0.line_items.0.start_date',
    );
    // The later-starting item is at fault, wherever it is listed.
    expectProblem(
      account([
        charge('SC-1', [lineItem('2024-01-10', '2024-01-20')]),
        charge('SC-2', [lineItem('2024-01-01', '2024-01-31')]),
      ]),
      code,
      'historical_statement_transactions.0.line_items.0.start_date',
    );
  });

  it('take consecutive periods, several items of one charge and other supply points', () => {
    valueOf(
      account([
        charge('SC-1', [lineItem('2024-01-01', '2024-01-31')]),
        charge('SC-2', [lineItem('2024-02-01', '2024-02-28')]),
      ]),
    );
    valueOf(
      account([
        charge('SC-1', [
          lineItem('2024-01-01', '2024-01-31'),
          lineItem('2024-01-01', '2024-01-31', { rate_band: 'NIGHT' }),
        ]),
      ]),
    );
    valueOf(
      account([
        charge('SC-1', [lineItem('2024-01-01', '2024-01-31')]),
        charge('SC-2', [lineItem('2024-01-01', '2024-01-31')], {
          supply_point_identifier: '3240865509',
        }),
      ]),
    );
  });
});
