import { describe, expect, it } from 'vitest';
import {
  buildAccount,
  buildLineItem,
  buildMeterPoint,
  buildStatement,
  buildSupplyAddress,
  buildSupplyCharge,
  mpanWithCheckDigit,
  VALID_MPAN,
} from '../factory.js';
import { errorsOf, fullAccount, type Json } from '../full-account.js';
import { expectProblem, expectProblems, valueOf } from '../helpers.js';

// The factory account was billed to 2024-03-28 and validated on 2025-06-15; its transfer
// balance is -12.34 and it has no prepay meter.

const REASONS: Record<string, string | undefined> = {
  CHARGE: 'DEFAULT',
  CREDIT: 'DIRECT_DEBIT_DISCOUNT',
};

/** A transaction of `type` (a payment unless said otherwise) for `amount`. */
function tx(id: string, date: string, amount = '10.00', type = 'PAYMENT', extra: Json = {}): Json {
  const reason = REASONS[type];
  return {
    transaction_id: id,
    transaction_date: date,
    amount,
    type,
    ...(reason === undefined ? {} : { reason }),
    ...extra,
  };
}

function without(object: Json, ...names: string[]): Json {
  const copy = { ...object };
  for (const name of names) delete copy[name];
  return copy;
}

/**
 * The factory account on one half-hourly electricity point (its meters need no billed-to date of
 * their own) without billed-to dates, the point built from `point`.
 */
function halfHourlyAccount(point: Json, fields: Json = {}): Json {
  const meterPoint = without(
    buildMeterPoint({ measurement_class: 'C', ...point }),
    'last_billed_to_date',
  );
  return buildAccount({
    supply_addresses: [buildSupplyAddress({ meter_points: [meterPoint] })],
    ...fields,
  });
}

const ledgerOf = (account: Json) => (account.ledgers as Json[])[0] as Json;

describe('statement dates', () => {
  it('pass the published full account, ledger and all', () => {
    expect(errorsOf(fullAccount())).toEqual([]);
  });

  it('refuse a last statement closing after today', () => {
    expectProblem(
      buildAccount({ last_statement_closing_date: '2025-06-16' }),
      'historical_statement_period_end_in_future',
      'last_statement_closing_date',
    );
    valueOf(buildAccount({ last_statement_closing_date: '2025-06-15' }));
  });

  it('refuse historical transactions with no closing date and no last billed-to date', () => {
    const account = halfHourlyAccount(
      {},
      {
        historical_statement_transactions: [tx('H1', '2024-01-01')],
        last_statement_balance: '10.00',
        transfer_balance: '10.00',
      },
    );
    expectProblem(
      without(account, 'last_billed_to_date'),
      'historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date',
      'historical_statement_transactions',
    );
    valueOf(account);
    valueOf({
      ...without(account, 'last_billed_to_date'),
      last_statement_closing_date: '2024-01-31',
    });
  });

  it('refuse a historical transaction after the closing date, given or inferred', () => {
    const historical = (date: string) => [tx('H0', '2024-01-01'), tx('H1', date)];
    expectProblem(
      buildAccount({
        last_statement_closing_date: '2024-02-28',
        historical_statement_transactions: historical('2024-03-01'),
      }),
      'historical_statement_transaction_after_last_statement_closing_date',
      'historical_statement_transactions.1.transaction_date',
    );
    // Without a closing date, the last billed-to date (2024-03-28) closes the statement.
    expectProblem(
      buildAccount({ historical_statement_transactions: historical('2024-03-29') }),
      'historical_statement_transaction_after_last_statement_closing_date',
      'historical_statement_transactions.1.transaction_date',
    );
    valueOf(buildAccount({ historical_statement_transactions: historical('2024-03-28') }));
  });

  it('refuse a last statement issued before it closed', () => {
    expectProblem(
      buildAccount({
        last_statement_closing_date: '2024-03-28',
        last_statement_issue_date: '2024-03-27',
      }),
      'last_statement_issued_before_closing_date',
      'last_statement_issue_date',
    );
    // Inferred from the last billed-to date.
    expectProblem(
      buildAccount({ last_statement_issue_date: '2024-03-27' }),
      'last_statement_issued_before_closing_date',
      'last_statement_issue_date',
    );
    valueOf(buildAccount({ last_statement_issue_date: '2024-03-28' }));
  });

  it('refuse a current transaction before the current statement opened', () => {
    const account = (date: string) =>
      buildAccount({
        last_statement_closing_date: '2024-02-29',
        current_statement_transactions: [tx('C1', date)],
        transfer_balance: '10.00',
      });
    expectProblem(
      account('2024-02-29'),
      'current_statement_transaction_before_current_statement_opening_date',
      'current_statement_transactions.0.transaction_date',
    );
    // Opened on 2024-03-01, but billed to 2024-03-28.
    expectProblem(
      account('2024-03-27'),
      'current_statement_transaction_before_last_billed_to_date',
      'current_statement_transactions.0.transaction_date',
    );
    valueOf(account('2024-03-28'));
    // Without a closing date, the statement opens the day after the last billed-to date.
    expectProblem(
      buildAccount({
        current_statement_transactions: [tx('C1', '2024-03-28')],
        transfer_balance: '10.00',
      }),
      'current_statement_transaction_before_current_statement_opening_date',
      'current_statement_transactions.0.transaction_date',
    );
  });

  it('count meter and register billed-to dates against current transactions', () => {
    const point = buildMeterPoint();
    const meter = (point.meters as Json[])[0] as Json;
    const register = (meter.registers as Json[])[0] as Json;
    register.last_billed_to_date = '2024-03-20';
    ((meter.transfer_readings as Json[])[0] as Json).reading_date = '2024-03-20';
    const account = (date: string) =>
      without(
        buildAccount({
          last_statement_closing_date: '2024-02-29',
          supply_addresses: [buildSupplyAddress({ meter_points: [point] })],
          current_statement_transactions: [tx('C1', date)],
          transfer_balance: '10.00',
        }),
        'last_billed_to_date',
      );
    expectProblem(
      account('2024-03-19'),
      'current_statement_transaction_before_last_billed_to_date',
      'current_statement_transactions.0.transaction_date',
    );
    valueOf(account('2024-03-20'));
  });

  it('refuse a historical transaction dated after a current one', () => {
    // Only a prepay vend may be dated in the closed statement, so it takes one to show it.
    const account = fullAccount();
    const ledger = ledgerOf(account);
    ledger.last_statement_closing_date = '2019-08-03';
    ledger.last_statement_issue_date = '2019-08-03';
    const historical = [tx('3', '2019-08-03'), tx('4', '2019-07-05', '10.00', 'CREDIT')];
    ledger.historical_statement_transactions = historical;
    ledger.current_statement_transactions = [
      tx('1', '2019-08-04', '10.00', 'REPAYMENT'),
      tx('2', '2019-08-02', '20.00', 'PAYMENT', { to_prepay_meter_serial_number: '54BV' }),
      tx('5', '2019-08-05', '20.00'),
    ];
    expect(errorsOf(account)).toEqual([
      {
        attr: 'ledgers.0.historical_statement_transactions.0.transaction_date',
        code: 'historical_statement_transaction_after_current_statement_transaction',
      },
    ]);
    historical[0] = tx('3', '2019-08-02');
    expect(errorsOf(account)).toEqual([]);
  });
});

describe('statement balances', () => {
  it('refuse a transfer balance that is not the last balance plus the current transactions', () => {
    const account = (transfer: string) =>
      buildAccount({
        last_statement_balance: '100.00',
        transfer_balance: transfer,
        current_statement_transactions: [
          tx('C1', '2024-04-01', '50'),
          tx('C2', '2024-04-02', '5.5', 'CREDIT'),
          tx('C3', '2024-04-03', '20.25', 'CHARGE'),
          tx('C4', '2024-04-04', '0.25', 'REPAYMENT'),
        ],
      });
    valueOf(account('135.0000'));
    expectProblem(account('135.01'), 'balance_mismatch_on_transfer_balance', 'transfer_balance');
  });

  it('check each ledger against its own balance, prepay vends aside', () => {
    const account = fullAccount();
    const ledger = ledgerOf(account);
    (ledger.current_statement_transactions as Json[]).push(
      tx('9', '2019-08-06', '5.00', 'PAYMENT', { to_prepay_meter_serial_number: '54bv' }),
    );
    expect(errorsOf(account)).toEqual([]);
    ledger.ledger_balance = '31.00';
    account.transfer_balance = '31.00';
    expect(errorsOf(account)).toEqual([
      { attr: 'ledgers.0.ledger_balance', code: 'balance_mismatch_on_transfer_balance' },
    ]);
  });

  it('refuse a last statement balance that is not the sum of the historical transactions', () => {
    const account = (last: string) =>
      buildAccount({
        last_statement_balance: last,
        transfer_balance: last,
        historical_statement_transactions: [
          tx('H1', '2024-01-01', '10.00'),
          tx('H2', '2024-02-01', '5.00', 'CHARGE'),
        ],
      });
    valueOf(account('5'));
    expectProblem(
      account('15.00'),
      'historical_statement_transactions_balance_mismatch',
      'last_statement_balance',
    );
  });

  it('say nothing of sums whose parts failed their own checks', () => {
    const account = fullAccount();
    ledgerOf(account).last_statement_balance = '£20';
    expect(errorsOf(account)).toEqual([
      { attr: 'ledgers.0.last_statement_balance', code: 'invalid_decimal' },
    ]);
  });
});

describe('transactions', () => {
  it('refuse a transaction for a prepay meter the account does not have', () => {
    const account = buildAccount({
      transfer_balance: '0',
      current_statement_transactions: [
        tx('C1', '2024-04-01', '10.00', 'PAYMENT', { to_prepay_meter_serial_number: 'P123' }),
      ],
    });
    expectProblem(
      account,
      'transactions_target_non_initialised_prepay_meter',
      'current_statement_transactions.0.to_prepay_meter_serial_number',
    );
  });

  it('refuse a billing document identifier on a current transaction', () => {
    expectProblem(
      buildAccount({
        transfer_balance: '10.00',
        current_statement_transactions: [
          tx('C1', '2024-04-01', '10.00', 'PAYMENT', { billing_document_identifier: 'B-1' }),
        ],
      }),
      'billing_document_identifier_not_allowed_for_current_statement_transactions',
      'current_statement_transactions.0.billing_document_identifier',
    );
  });

  it('want one billing document identifier on all historical transactions or none', () => {
    const account = (...identifiers: (string | undefined)[]) =>
      buildAccount({
        last_statement_balance: '30.00',
        transfer_balance: '30.00',
        historical_statement_transactions: identifiers.map((identifier, i) =>
          tx(`H${i}`, '2024-01-01', '10.00', 'PAYMENT', {
            ...(identifier === undefined ? {} : { billing_document_identifier: identifier }),
          }),
        ),
      });
    valueOf(account(undefined, undefined, undefined));
    valueOf(account('B-1', 'B-1', 'B-1'));
    expectProblems(account('B-1', undefined, 'B-2'), [
      {
        code: 'historical_statement_billing_document_identifier_missing',
        attr: 'historical_statement_transactions.1.billing_document_identifier',
      },
      {
        code: 'historical_statement_billing_document_identifier_mismatch',
        attr: 'historical_statement_transactions.2.billing_document_identifier',
      },
    ]);
  });

  it('refuse a transaction id given twice, across lists and ledgers', () => {
    const account = fullAccount();
    const current = ledgerOf(account).current_statement_transactions as Json[];
    (current[1] as Json).transaction_id = '3';
    expect(errorsOf(account)).toEqual([
      {
        attr: 'ledgers.0.historical_statement_transactions.0.transaction_id',
        code: 'duplicate_transaction_ids',
      },
    ]);
  });
});

describe('ledgers', () => {
  const otherMpan = mpanWithCheckDigit('200012345678');

  it('refuse a ledger code or identifier given twice, and an identifier of no meter point', () => {
    expectProblems(
      buildAccount({
        ledgers: [
          { ledger_code: 'ENERGY', ledger_identifier: VALID_MPAN },
          { ledger_code: 'ENERGY', ledger_identifier: otherMpan },
          { ledger_code: 'SERVICES', ledger_identifier: VALID_MPAN },
          { ledger_code: 'EV_CHARGING', ledger_identifier: '1234' },
        ],
      }),
      [
        { code: 'duplicate_ledger_entries_found', attr: 'ledgers.1.ledger_code' },
        { code: 'duplicate_identifiers_entries_found', attr: 'ledgers.2.ledger_identifier' },
        { code: 'unknown_ledger_identifiers', attr: 'ledgers.3.ledger_identifier' },
      ],
    );
  });

  it('refuse ledger balances that do not add up to the transfer balance', () => {
    const account = (second: string) =>
      buildAccount({
        ledgers: [
          { ledger_code: 'ENERGY', ledger_balance: '-10.00' },
          { ledger_code: 'SERVICES', ledger_balance: second },
        ],
      });
    valueOf(account('-2.34'));
    expectProblem(
      account('-2.00'),
      'ledger_balances_not_equal_to_transfer_balance',
      'transfer_balance',
    );
  });
});

describe('payment preferences', () => {
  const ledgers = [{ ledger_identifier: VALID_MPAN }];

  it('refuse a preference for an unknown ledger, or for a ledger already given one', () => {
    const passive = (ledger_identifier: string) => ({ type: 'PASSIVE', ledger_identifier });
    valueOf(buildAccount({ ledgers, payment_preferences: [passive(VALID_MPAN)] }));
    expectProblems(
      buildAccount({
        ledgers,
        payment_preferences: [passive(VALID_MPAN), passive(VALID_MPAN), passive('L-9')],
      }),
      [
        {
          code: 'duplicate_ledger_in_payment_preferences',
          attr: 'payment_preferences.1.ledger_identifier',
        },
        {
          code: 'invalid_payment_preference_ledger_identifier',
          attr: 'payment_preferences.2.ledger_identifier',
        },
      ],
    );
  });

  it('want an ACTIVE_NEW preference to name one of the payment instructions', () => {
    const account = (instruction_identifier: string) =>
      buildAccount({
        ledgers,
        payment_instructions: [
          {
            type: 'DIRECT_DEBIT',
            vendor: 'STRIPE',
            reference: 'MD-1',
            instruction_identifier: 'I-1',
          },
        ],
        payment_preferences: [
          {
            type: 'ACTIVE_NEW',
            ledger_identifier: VALID_MPAN,
            instruction_reference_params: { instruction_identifier },
          },
        ],
      });
    valueOf(account('I-1'));
    expectProblem(
      account('I-2'),
      'active_new_payment_preference_invalid_instruction_identifier',
      'payment_preferences.0.instruction_reference_params.instruction_identifier',
    );
  });
});

describe('payment plans and billing start', () => {
  it('refuse payment schedules on the ledger of a payment plan', () => {
    const account = fullAccount();
    account.payment_plans = [
      {
        accepted_at: '2026-01-01T00:00:00Z',
        schedule_means: 'DD',
        strategy_name: 'standard',
        payments: [
          {
            payment_date: '2026-12-01',
            total_amount: 10,
            amount_components: [{ amount: 10, component_type: 'ENERGY' }],
          },
        ],
      },
    ];
    const code = 'payment_plan_and_payment_schedule_not_allowed_on_same_ledger';
    expect(errorsOf(account)).toEqual([
      { attr: 'payment_schedules.0', code },
      { attr: 'payment_schedules.1', code },
    ]);
    delete account.payment_schedules;
    expect(errorsOf(account)).toEqual([]);
  });

  it('refuse an account with nothing to start billing from', () => {
    // A meter point on supply without agreements is refused on its own account as well.
    const account = without(halfHourlyAccount({ agreements: [] }), 'last_billed_to_date');
    const noAgreement = {
      code: 'meter_point_with_no_agreement',
      attr: 'supply_addresses.0.meter_points.0.agreements',
    };
    expectProblems(account, [
      { code: 'cannot_determine_responsible_for_billing_from_date', attr: null },
      noAgreement,
    ]);
    expectProblems({ ...account, last_statement_closing_date: '2024-03-28' }, [noAgreement]);
    expectProblems({ ...account, last_billed_to_date: '2024-03-28' }, [
      noAgreement,
      { ...noAgreement, code: 'no_agreement_covering_last_billed_to_date' },
    ]);
    valueOf(without(halfHourlyAccount({}), 'last_billed_to_date'));
  });
});

describe('statements', () => {
  it('want the path of each statement', () => {
    expectProblem(
      buildAccount({
        statements: [buildStatement(1), without(buildStatement(2), 'statement_path')],
      }),
      'missing_statement_path_or_pdf_context',
      'statements.1.statement_path',
    );
  });
});

describe('supply charges', () => {
  const lineItem = buildLineItem;
  const charge = (extra: Json = {}, item: Json = lineItem()): Json =>
    buildAccount({
      transfer_balance: `-${String(extra.amount ?? '12.00')}`,
      current_statement_transactions: [buildSupplyCharge(extra, item)],
    });
  const at = 'current_statement_transactions.0';

  it('pass a charge whose amount is its line items and taxes', () => {
    valueOf(charge());
  });

  it('refuse an amount other than the line items and taxes', () => {
    expectProblem(
      charge({ amount: '13.00' }),
      'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
      `${at}.amount`,
    );
  });

  it('want the supply point of a charge with a rate specification code', () => {
    const item = without(lineItem({ rate_specification_code: 'E-STANDARD' }), 'rate_band');
    const account = charge({}, item);
    valueOf(account);
    const transaction = (account.current_statement_transactions as Json[])[0] as Json;
    delete transaction.supply_point_identifier;
    expectProblem(
      account,
      'supply_point_identifier_required_for_rate_specification_code',
      `${at}.supply_point_identifier`,
    );
  });

  it('refuse a net amount other than the price per unit times the units', () => {
    expectProblem(
      charge({ amount: '12.01' }, lineItem({ net_amount: '10.01' })),
      'incorrect_line_item_net_amount',
      `${at}.line_items.0.net_amount`,
    );
    // 0.1234567 × 3 = 0.3703701, written to its own places or rounded to two.
    const priced = (net: string) => {
      const amount = (Number(net) + 2).toFixed(net.split('.')[1]?.length ?? 2);
      return charge(
        { amount },
        lineItem({ net_amount: net, price_per_unit: '0.1234567', number_of_units: '3' }),
      );
    };
    valueOf(priced('0.37'));
    valueOf(priced('0.3703701'));
    expectProblem(
      priced('0.38'),
      'incorrect_line_item_net_amount',
      `${at}.line_items.0.net_amount`,
    );
  });

  it('want exactly one rate specification on each line item', () => {
    expectProblem(
      charge({}, lineItem({ time_series_specification_code: 'TS-1' })),
      'conflicting_rate_band_specification',
      `${at}.line_items.0`,
    );
    expectProblem(
      charge({}, without(lineItem(), 'rate_band')),
      'conflicting_rate_band_specification',
      `${at}.line_items.0`,
    );
  });
});
