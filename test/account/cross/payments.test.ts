/**
 * The rules across the fields of the payment objects: schedules, plans, payment adequacy
 * changes, deposits, feed-in tariff payments, commission contracts, complaints, contribution
 * schemes and debts.
 */
import { describe, expect, it } from 'vitest';
import { buildAccount, buildAdequacyChange, VALID_MPAN } from '../factory.js';
import { expectProblem, expectProblems, valueOf } from '../helpers.js';

type Json = Record<string, unknown>;

/** A regular monthly direct debit from 2024-01-01 (no trigger: a regular schedule). */
const schedule = (more: Json = {}): Json => ({
  amount: '50.00',
  day_of_month: 1,
  frequency: 'MONTHLY',
  means: 'DD',
  start_date: '2024-01-01',
  ...more,
});
const withSchedule = (more: Json) => buildAccount({ payment_schedules: [schedule(more)] });
const AT = 'payment_schedules.0';

describe('payment schedules', () => {
  it('accepts a regular schedule with an amount, a day and a frequency', () => {
    expect(valueOf(withSchedule({})).payment_schedules).toHaveLength(1);
  });

  it('refuses a fixed schedule of nothing, sent or left to its default', () => {
    expectProblem(withSchedule({ amount: '0.00' }), 'zero_payment_schedule_amount', `${AT}.amount`);
    const account = buildAccount({ payment_schedules: [{ ...schedule(), amount: undefined }] });
    expectProblem(account, 'zero_payment_schedule_amount', `${AT}.amount`);
    const onBills = {
      trigger: 'BILL',
      amount: undefined,
      day_of_month: null,
      frequency: undefined,
    };
    expect(valueOf(withSchedule(onBills)).payment_schedules).toHaveLength(1);
  });

  it('refuses a negative amount on a fixed schedule', () => {
    expectProblem(
      withSchedule({ trigger: 'BALANCE', amount: '-5.00', balance_threshold: '10.00' }),
      'fixed_payment_schedule_amount_out_of_range',
      `${AT}.amount`,
    );
  });

  it('refuses a regular schedule without a frequency or a day', () => {
    expectProblems(withSchedule({ trigger: 'REGULAR', frequency: undefined, day_of_month: null }), [
      { code: 'fixed_payment_schedule_missing_frequency', attr: `${AT}.frequency` },
      { code: 'fixed_payment_schedule_missing_day_of_month', attr: `${AT}.day_of_month` },
    ]);
    const balance = { trigger: 'BALANCE', frequency: undefined, balance_threshold: '10.00' };
    expect(valueOf(withSchedule(balance)).payment_schedules).toHaveLength(1);
  });

  it('refuses a balance-triggered schedule without a threshold', () => {
    expectProblem(
      withSchedule({ trigger: 'BALANCE' }),
      'balance_triggered_schedule_missing_threshold',
      `${AT}.balance_threshold`,
    );
  });

  it('reads nothing into a trigger refused by its own check', () => {
    expectProblem(
      withSchedule({ trigger: 'SOMETIMES', amount: '0' }),
      'invalid_choice',
      `${AT}.trigger`,
    );
  });

  it('refuses a debt repayment element without an end date, or ending after the schedule', () => {
    expectProblem(
      withSchedule({ debt_repayment_element: '5.00' }),
      'debt_repayment_missing_end_date',
      `${AT}.debt_repayment_end_date`,
    );
    const debt = { debt_repayment_element: '5.00', end_date: '2024-12-31' };
    expectProblem(
      withSchedule({ ...debt, debt_repayment_end_date: '2025-01-01' }),
      'debt_repayment_end_date_after_schedule_end_date',
      `${AT}.debt_repayment_end_date`,
    );
    expect(valueOf(withSchedule({ ...debt, debt_repayment_end_date: '2024-12-31' }))).toBeTruthy();
  });

  it('exempts only a regular schedule from payment adequacy', () => {
    expectProblem(
      withSchedule({ trigger: 'BILL', exempt_from_payment_adequacy: true }),
      'invalid_payment_schedule_to_exempt_from_payment_adequacy',
      `${AT}.exempt_from_payment_adequacy`,
    );
    expect(valueOf(withSchedule({ exempt_from_payment_adequacy: true }))).toBeTruthy();
  });

  describe('instalments', () => {
    const plan = (amount: string, ...instalments: [string, string][]) =>
      withSchedule({
        trigger: 'PLAN',
        amount,
        end_date: '2024-06-30',
        instalments: instalments.map(([payment_date, paid]) => ({ payment_date, amount: paid })),
      });

    it('refuses a plan schedule without instalments', () => {
      expectProblem(plan('30.00'), 'payment_instalments_not_provided', `${AT}.instalments`);
      const none = withSchedule({ trigger: 'PLAN' });
      expectProblem(none, 'payment_instalments_not_provided', `${AT}.instalments`);
    });

    it("sums the instalments exactly to the schedule's amount", () => {
      expect(valueOf(plan('30.10', ['2024-02-01', '10.1'], ['2024-03-01', '20']))).toBeTruthy();
      expectProblem(
        plan('30.00', ['2024-02-01', '10.1'], ['2024-03-01', '20']),
        'payment_instalments_do_not_sum_to_total',
        `${AT}.instalments`,
      );
    });

    it("keeps each instalment within the schedule's first and last days", () => {
      expect(valueOf(plan('30.00', ['2024-01-01', '10'], ['2024-06-30', '20']))).toBeTruthy();
      expectProblems(plan('30.00', ['2023-12-31', '10'], ['2024-07-01', '20']), [
        {
          code: 'payment_instalments_date_outside_of_payment_schedule_active_period',
          attr: `${AT}.instalments.0.payment_date`,
        },
        {
          code: 'payment_instalments_date_outside_of_payment_schedule_active_period',
          attr: `${AT}.instalments.1.payment_date`,
        },
      ]);
    });
  });

  it('delays only a bill-triggered schedule, and by a number of days', () => {
    const onBills = { trigger: 'BILL', day_of_month: null, delay_strategy: 'WORKING_DAYS' };
    expectProblem(
      withSchedule(onBills),
      'payment_schedule_delay_strategy_missing_delay_days',
      `${AT}.delay_days`,
    );
    expect(valueOf(withSchedule({ ...onBills, delay_days: 3 }))).toBeTruthy();
    expectProblem(
      withSchedule({ delay_strategy: 'FIXED', delay_days: 3 }),
      'payment_schedule_delay_must_have_bill_trigger',
      `${AT}.delay_strategy`,
    );
  });
});

describe('payment adequacy changes', () => {
  const change = (more: Json = {}) =>
    buildAccount({ payment_adequacy_changes: [buildAdequacyChange(more)] });
  const AT_CHANGE = 'payment_adequacy_changes.0';

  it('accepts a consistent change', () => {
    expect(valueOf(change()).payment_adequacy_changes).toHaveLength(1);
  });

  it('needs an application date or a reason not to apply, not both', () => {
    expectProblem(
      change({ applied_at: null }),
      'payment_adequacy_missing_reason',
      `${AT_CHANGE}.should_not_be_applied_reason`,
    );
    expect(
      valueOf(change({ applied_at: null, should_not_be_applied_reason: 'Vulnerable' })),
    ).toBeTruthy();
    expectProblem(
      change({ should_not_be_applied_reason: 'Vulnerable' }),
      'payment_adequacy_should_not_have_been_applied',
      `${AT_CHANGE}.applied_at`,
    );
  });

  it('adds the electricity and gas charges up to the average', () => {
    expectProblem(
      change({ average_monthly_gas_charge: 3999 }),
      'payment_adequacy_monthly_charges_unequal',
      `${AT_CHANGE}.average_monthly_charge`,
    );
  });

  it('spreads the balance gap over twelve months, rounded to a whole unit', () => {
    expect(valueOf(change({ current_balance: -12005 }))).toBeTruthy();
    expect(valueOf(change({ current_balance: -12005, balance_adjustment: 1001 }))).toBeTruthy();
    expectProblem(
      change({ balance_adjustment: 999, new_direct_debit: 10999 }),
      'payment_adequacy_balance_adjustment_mismatch',
      `${AT_CHANGE}.balance_adjustment`,
    );
    expect(valueOf(change({ balance_adjustment: 0, new_direct_debit: 10000 }))).toBeTruthy();
  });

  it('keeps the new direct debit between the existing one and the maximum', () => {
    expectProblem(
      change({ new_direct_debit: 11001 }),
      'payment_adequacy_new_direct_debit_amount_mismatch',
      `${AT_CHANGE}.new_direct_debit`,
    );
    expectProblem(
      change({ new_direct_debit: 8999 }),
      'payment_adequacy_new_direct_debit_amount_mismatch',
      `${AT_CHANGE}.new_direct_debit`,
    );
    const down = { existing_direct_debit_payment: 12000, new_direct_debit: 11500 };
    expect(valueOf(change(down))).toBeTruthy();
  });
});

it('refuses payment plan components not adding up to the total', () => {
  const payment = (payment_date: string, total_amount: number, ...amounts: number[]) => ({
    payment_date,
    total_amount,
    amount_components: amounts.map((amount, i) => ({ amount, component_type: `C${i}` })),
  });
  const plan = (...payments: Json[]) =>
    buildAccount({
      payment_plans: [
        {
          accepted_at: '2025-06-01T00:00:00Z',
          schedule_means: 'DD',
          strategy_name: 'standard',
          payments,
        },
      ],
    });
  expect(valueOf(plan(payment('2025-07-01', 25, 10, 15), payment('2025-08-01', 0)))).toBeTruthy();
  expectProblem(
    plan(payment('2025-07-01', 25, 10, 15), payment('2025-08-01', 30, 10, 15)),
    'payment_plan_payment_components_do_not_sum_to_total',
    'payment_plans.0.payments.1.total_amount',
  );
});

it('allows a last interest date only on a deposit fulfilled by then', () => {
  const deposit = (more: Json) =>
    buildAccount({
      deposit_agreements: [{ deposit_amount: '100.00', reason: 'Credit check', ...more }],
    });
  expectProblem(
    deposit({ last_interest_date: '2025-01-31', fulfilled_at: null }),
    'last_interest_date_not_allowed',
    'deposit_agreements.0.last_interest_date',
  );
  const fulfilled = { fulfilled_at: '2025-01-31T23:00:00Z' };
  expect(valueOf(deposit({ ...fulfilled, last_interest_date: '2025-01-31' }))).toBeTruthy();
  expectProblem(
    deposit({ ...fulfilled, last_interest_date: '2025-01-30' }),
    'fulfilled_at_greater_than_last_interest_date',
    'deposit_agreements.0.fulfilled_at',
  );
});

it('needs the vendor and the instruction reference of a feed-in tariff paid by BACS', () => {
  const fit = (more: Json) =>
    buildAccount({
      fit: {
        installations: [{ fit_id: 'FIT00012345' }],
        meters: [
          {
            extensions: ['1'],
            last_billed_to_date: '2025-03-31',
            serial_number: 'GEN123',
            transfer_reading: { reading_date: '2025-03-31', reading_value: '4521' },
            type: 'GENERATION',
          },
        ],
        ...more,
      },
    });
  expectProblems(fit({ payment_method: 'BACS' }), [
    { code: 'payment_instruction_details_incomplete', attr: 'fit.vendor_name' },
    { code: 'payment_instruction_details_incomplete', attr: 'fit.instruction_reference' },
  ]);
  expectProblem(
    fit({ payment_method: 'BACS', vendor_name: 'STRIPE' }),
    'payment_instruction_details_incomplete',
    'fit.instruction_reference',
  );
  expect(valueOf(fit({ payment_method: 'CHEQUE' }))).toBeTruthy();
});

it('needs the value of a commission type, and not both forms of the uplift', () => {
  const contract = (more: Json) =>
    buildAccount({
      commission_contracts: [
        {
          affiliate_organisation_name: 'Broker Ltd',
          effective_from: '2024-01-01',
          effective_to: '2024-12-31',
          mpxn: VALID_MPAN,
          status: 'PAID',
          ...more,
        },
      ],
    });
  const AT_CONTRACT = 'commission_contracts.0.value';
  expectProblem(
    contract({ commission_type: 'UNIT_RATE_UPLIFT' }),
    'commission_type_requires_value',
    AT_CONTRACT,
  );
  expect(valueOf(contract({ commission_type: 'UNIT_RATE_UPLIFT', value: '1.50' }))).toBeTruthy();
  expect(valueOf(contract({ unit_rate_uplift: '1.5', standing_charge_uplift: '2' }))).toBeTruthy();
  expectProblem(
    contract({ value: '1.50', unit_rate_uplift: '1.5' }),
    'uplift_and_value_conflict',
    AT_CONTRACT,
  );
});

describe('complaints', () => {
  const complaint = (more: Json) =>
    buildAccount({
      complaints: [
        {
          complainant_email: 'ada@lovelace.co.uk',
          complainant_name: 'Ada Lovelace',
          complaint_contacts: [],
          created_at: '2025-01-10T10:00:00Z',
          has_chsr_letter_been_sent: true,
          has_eight_week_letter_been_sent: true,
          subtype_of_complaint: 'BILLING_ACCURACY',
          type_of_complaint: 'BILLING',
          ...more,
        },
      ],
    });

  it('needs every official detail of an official complaint', () => {
    expectProblems(complaint({ official_entity: 'OMBUDSMAN' }), [
      { code: 'official_complaint_field_missing', attr: 'complaints.0.official_reference_number' },
      { code: 'official_complaint_field_missing', attr: 'complaints.0.official_status' },
    ]);
    const official = {
      official_entity: 'OMBUDSMAN',
      official_reference_number: 'OS-123',
      official_status: 'OPEN',
    };
    expect(valueOf(complaint(official))).toBeTruthy();
  });

  it('refuses an eight-week letter without a CHSR letter', () => {
    expectProblem(
      complaint({ has_chsr_letter_been_sent: false }),
      'chsr_letter_not_sent',
      'complaints.0.has_chsr_letter_been_sent',
    );
    const neither = { has_chsr_letter_been_sent: false, has_eight_week_letter_been_sent: false };
    expect(valueOf(complaint(neither))).toBeTruthy();
  });
});

it("keeps contribution periods within their agreement's period, apart", () => {
  const agreement = (end: string | null, ...periods: [string, string][]) =>
    buildAccount({
      contribution_agreements: [
        {
          scheme: 'WARM',
          active_period_start_date: '2024-01-01',
          active_period_end_date: end,
          amount: '5.00',
          interval: 'MONTHLY',
          periods: periods.map(([start_date, end_date]) => ({ start_date, end_date })),
        },
      ],
    });
  const AT_PERIODS = 'contribution_agreements.0.periods';
  const year: [string, string][] = [
    ['2024-01-01', '2024-06-30'],
    ['2024-07-01', '2024-12-31'],
  ];
  expect(valueOf(agreement('2024-12-31', ...year))).toBeTruthy();
  expectProblems(
    agreement('2024-12-30', ['2023-12-31', '2024-06-30'], ['2024-06-30', '2024-12-31']),
    [
      { code: 'invalid_contribution_period_start_date', attr: `${AT_PERIODS}.0.start_date` },
      { code: 'invalid_contribution_period_end_date', attr: `${AT_PERIODS}.1.end_date` },
      { code: 'overlapping_contribution_periods', attr: `${AT_PERIODS}.1.start_date` },
    ],
  );
  expect(valueOf(agreement(null, ...year, ['2025-01-01', '2030-12-31']))).toBeTruthy();
});

it('needs the agency of a debt with a start date', () => {
  expectProblem(
    buildAccount({ debts: [{ start_date: '2024-05-01', is_insolvent: false }] }),
    'debt_collection_agency_name_required',
    'debts.0.agency_name',
  );
  expectProblem(
    buildAccount({ debt: { start_date: '2024-05-01', agency_name: '  ' } }),
    'debt_collection_agency_name_required',
    'debt.agency_name',
  );
  expect(
    valueOf(buildAccount({ debts: [{ agency_name: 'Northgate Recoveries' }, {}] })),
  ).toBeTruthy();
});
