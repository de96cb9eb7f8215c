/**
 * The rules comparing the items of the account's other lists: payment schedules, payment
 * instructions and plans, campaigns, contribution and deposit agreements, customers.
 */
import { describe, expect, it } from 'vitest';
import { context, customerOf, errorsOf, fullAccount, type Json } from './full-account.js';
import { HAS_REFERENCE } from './reference.js';

// The published schedules: a debt repayment plan and a regular one, both from 2018-01-01.
const schedulesOf = (account: Json) => account.payment_schedules as Json[];
// A regular monthly direct debit (a schedule without a trigger is a regular one).
const schedule = (start_date: string, more: Json = {}) => ({
  amount: '50.00',
  day_of_month: 1,
  frequency: 'MONTHLY',
  means: 'DD',
  start_date,
  ...more,
});

describe.skipIf(!HAS_REFERENCE)('list rules of the account', () => {
  describe('payment_schedules (a schedule ends on its last day)', () => {
    it('refuses ledger codes on some schedules only', () => {
      const account = fullAccount();
      (schedulesOf(account)[1] as Json).ledger_code = 'ENERGY';
      expect(errorsOf(account)).toEqual([
        { attr: 'payment_schedules', code: 'payment_schedules_ledger_code_uniformity_failed' },
      ]);
    });

    it('refuses a second open-ended schedule, and one starting before another ends', () => {
      const account = fullAccount();
      schedulesOf(account).push(schedule('2019-01-01'));
      expect(errorsOf(account)).toEqual([
        { attr: 'payment_schedules.2.end_date', code: 'multiple_open_ended_payment_schedules' },
        { attr: 'payment_schedules.2.start_date', code: 'payment_schedule_date_overlaps' },
      ]);
      (schedulesOf(account)[1] as Json).end_date = '2018-12-31';
      expect(errorsOf(account)).toEqual([]);
      (schedulesOf(account)[1] as Json).end_date = '2019-01-01';
      expect(errorsOf(account)).toEqual([
        { attr: 'payment_schedules.2.start_date', code: 'payment_schedule_date_overlaps' },
      ]);
    });

    it('refuses two schedules starting on the same day', () => {
      const account = fullAccount();
      schedulesOf(account).push(schedule('2018-01-01', { end_date: '2018-01-01' }));
      expect(errorsOf(account)).toEqual([
        { attr: 'payment_schedules.2.start_date', code: 'payment_schedule_date_overlaps' },
      ]);
    });

    it('refuses a gap before a schedule starting after today, not before a past one', () => {
      const account = fullAccount();
      (schedulesOf(account)[1] as Json).end_date = '2019-12-31';
      schedulesOf(account).push(schedule('2020-03-01', { end_date: context.today }));
      schedulesOf(account).push(schedule('2026-11-28'));
      expect(errorsOf(account)).toEqual([
        { attr: 'payment_schedules.3.start_date', code: 'payment_schedule_date_gaps' },
      ]);
      (schedulesOf(account)[3] as Json).start_date = '2026-11-27';
      expect(errorsOf(account)).toEqual([]);
    });

    it('compares schedules within each ledger code, debt repayment plans aside', () => {
      const account = fullAccount();
      account.payment_schedules = [
        ...schedulesOf(account).map((s) => ({ ...s, ledger_code: 'ENERGY' })),
        schedule('2019-06-01', { ledger_code: 'ENERGY', is_debt_repayment_plan: true }),
        schedule('2019-06-01', { ledger_code: 'SERVICES' }),
      ];
      expect(errorsOf(account)).toEqual([]);
    });
  });

  it('refuses ledger codes on some payment instructions only', () => {
    const account = fullAccount();
    const instruction = { reference: 'DD-1', type: 'DIRECT_DEBIT', vendor: 'STRIPE' };
    account.payment_instructions = [{ ...instruction, ledger_code: 'ENERGY' }, instruction];
    expect(errorsOf(account)).toEqual([
      { attr: 'payment_instructions', code: 'payment_instructions_ledger_code_uniformity_failed' },
    ]);
    account.payment_instructions = [instruction, { ...instruction, reference: 'DD-2' }];
    expect(errorsOf(account)).toEqual([]);
  });

  it('refuses a payment plan giving a component type twice on one date', () => {
    const account = fullAccount();
    // A payment plan makes the schedule of its ledger: the published schedules give way.
    delete account.payment_schedules;
    const payment = (payment_date: string, ...types: string[]) => ({
      payment_date,
      total_amount: 10 * types.length,
      amount_components: types.map((component_type) => ({ amount: 10, component_type })),
    });
    account.payment_plans = [
      {
        accepted_at: '2026-01-01T00:00:00Z',
        schedule_means: 'DD',
        strategy_name: 'standard',
        payments: [
          payment('2026-12-01', 'ENERGY', 'DEBT'),
          payment('2027-01-01', 'ENERGY'),
          payment('2026-12-01', 'FEES', 'ENERGY'),
        ],
      },
    ];
    expect(errorsOf(account)).toEqual([
      {
        attr: 'payment_plans.0.payments.2.amount_components.1.component_type',
        code: 'duplicate_payment_component_combinations',
      },
    ]);
  });

  it('refuses campaigns identified in two ways, or one campaign twice', () => {
    const account = fullAccount();
    account.account_campaigns = [{ slug: 'super_account' }, { campaign_name: 'Winter Support' }];
    expect(errorsOf(account)).toEqual([
      { attr: 'account_campaigns', code: 'inconsistent_campaign_identifiers' },
    ]);
    account.account_campaigns = [
      { slug: 'super_account' },
      { slug: 'winter_support' },
      { slug: 'super_account', campaign_note: '' },
    ];
    expect(errorsOf(account)).toEqual([
      { attr: 'account_campaigns.2.slug', code: 'duplicate_account_campaigns' },
    ]);
  });

  it('refuses contribution agreements of one scheme sharing a day', () => {
    const account = fullAccount();
    const agreement = (scheme: string, start: string, end: string | null) => ({
      scheme,
      active_period_start_date: start,
      active_period_end_date: end,
      amount: '5.00',
      interval: 'MONTHLY',
    });
    account.contribution_agreements = [
      agreement('COMMUNITY_ENERGY', '2020-01-01', '2020-12-31'),
      agreement('WARM', '2020-06-01', null),
      agreement('COMMUNITY_ENERGY', '2021-01-01', '2021-12-31'),
      agreement('COMMUNITY_ENERGY', '2021-12-31', null),
    ];
    expect(errorsOf(account)).toEqual([
      {
        attr: 'contribution_agreements.3.active_period_start_date',
        code: 'overlapping_contribution_agreements',
      },
    ]);
  });

  it('refuses a second deposit agreement', () => {
    const account = fullAccount();
    const deposit = { deposit_amount: '100.00', reason: 'credit check' };
    account.deposit_agreements = [deposit];
    expect(errorsOf(account)).toEqual([]);
    account.deposit_agreements = [deposit, deposit, deposit];
    expect(errorsOf(account)).toEqual([
      { attr: 'deposit_agreements.1', code: 'multiple_active_deposits_not_allowed' },
      { attr: 'deposit_agreements.2', code: 'multiple_active_deposits_not_allowed' },
    ]);
  });

  it('refuses two customers with the same external user id', () => {
    const account = fullAccount();
    const first = customerOf(account);
    const detail = { namespace: 'external_user_id', value: 'U-1' };
    first.user_details = [detail, detail];
    const second = { given_name: 'Alice', family_name: 'Smith', user_details: [detail] };
    const third = {
      given_name: 'Carol',
      family_name: 'Jones',
      details: { external_user_id: 'U-1' },
    };
    account.customers = [first, second, third];
    const code = 'repeated_values_for_unique_customer_detail_namespace';
    expect(errorsOf(account)).toEqual([
      { attr: 'customers.1.user_details.0.value', code },
      { attr: 'customers.2.details.external_user_id', code },
    ]);
    second.user_details = [{ ...detail, value: 'U-2' }];
    third.details = { external_user_id: 'U-3' };
    expect(errorsOf(account)).toEqual([]);
  });
});
