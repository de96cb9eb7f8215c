/**
 * Rules across the fields of the payment objects: payment schedules and plans, payment adequacy
 * changes, deposits, feed-in tariff payments, commission contracts, complaints, contribution
 * schemes and debts. A field refused by its own checks is not in `out`, and the rules here then
 * leave it alone. Readings taken where the publication is loose:
 *
 * - A schedule without a `trigger` is a regular one (the published schedules carry an amount, a
 *   day and a frequency, and no trigger). Every trigger but BILL makes a fixed schedule.
 * - A fixed schedule's amount may not be below zero, whatever lower limit a platform sets.
 * - Instalments sum to the schedule's `amount` and fall within its start and end dates (the end
 *   date is the schedule's last day), whatever the trigger.
 * - A delay (strategy or days) is only for a bill-triggered schedule.
 * - A payment adequacy change spreads the difference between target and current balance over
 *   twelve months; a balance adjustment rounded either way to a whole unit matches it. The new
 *   direct debit lies between the existing one and the maximum, in either order, both included.
 * - A complaint is official once any of the three official fields is given.
 * - A contribution period's end date is its last day (as the agreement's).
 * - A commission contract giving `commission_type` needs `value`; `value` (its older form) and
 *   `unit_rate_uplift` may not both be given.
 * - A payment plan payment without components has nothing to sum.
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import { periods } from '../periods.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

/**
 * Not given: absent, a blank string (which an optional field reads as absent), or null where
 * the field may be null. A null the field refuses has its own error: it counts as given.
 */
function missing(out: Parent, input: Parent, name: string): boolean {
  const raw = input[name];
  if (raw === null) return out[name] === null;
  return raw === undefined || (typeof raw === 'string' && raw.trim() === '');
}

const DECIMAL_SCALE = 10;

/** A checked decimal string as a whole number of 10^-10 units, for exact sums. */
function scaled(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const units = BigInt(`${whole}${fraction.padEnd(DECIMAL_SCALE, '0')}` || '0');
  return negative ? -units : units;
}

/** The checked items of a list, or undefined when it is missing or an item was refused. */
function checkedItems(list: unknown): readonly Parent[] | undefined {
  if (!Array.isArray(list) || list.some((item) => item === undefined)) return undefined;
  return list as Parent[];
}

/** The trigger a schedule runs on; undefined when the one sent was refused. */
function triggerOf(out: Parent, input: Parent): unknown {
  return missing(out, input, 'trigger') ? 'REGULAR' : out.trigger;
}

/** A fixed schedule's amount: not zero, not negative. */
function checkAmount(out: Parent, prefix: string, run: Run, trigger: unknown) {
  if (trigger === undefined || trigger === 'BILL' || typeof out.amount !== 'string') return;
  const amount = scaled(out.amount);
  if (amount === 0n) {
    fail(
      run,
      `${prefix}amount`,
      'zero_payment_schedule_amount',
      'A fixed schedule needs an amount.',
    );
  } else if (amount < 0n) {
    fail(
      run,
      `${prefix}amount`,
      'fixed_payment_schedule_amount_out_of_range',
      'A fixed schedule may not take a negative amount.',
    );
  }
}

/** What the trigger asks for: a frequency and a day, a threshold, instalments, an exemption. */
function checkTrigger(out: Parent, prefix: string, run: Run, input: Parent, trigger: unknown) {
  if (trigger === undefined) return;
  const needs = (name: string, code: string, detail: string) => {
    if (missing(out, input, name)) fail(run, `${prefix}${name}`, code, detail);
  };
  if (trigger === 'REGULAR') {
    needs(
      'frequency',
      'fixed_payment_schedule_missing_frequency',
      'A regular schedule needs a frequency.',
    );
    needs(
      'day_of_month',
      'fixed_payment_schedule_missing_day_of_month',
      'A regular schedule needs a day of the month.',
    );
  } else if (out.exempt_from_payment_adequacy === true) {
    fail(
      run,
      `${prefix}exempt_from_payment_adequacy`,
      'invalid_payment_schedule_to_exempt_from_payment_adequacy',
      'Only a regular schedule may be exempt from payment adequacy.',
    );
  }
  if (trigger === 'BALANCE') {
    needs(
      'balance_threshold',
      'balance_triggered_schedule_missing_threshold',
      'A balance-triggered schedule needs a balance threshold.',
    );
  }
  const instalments = input.instalments;
  if (trigger === 'PLAN' && (missing(out, input, 'instalments') || isEmptyList(instalments))) {
    fail(
      run,
      `${prefix}instalments`,
      'payment_instalments_not_provided',
      'A plan schedule needs its instalments.',
    );
  }
  const delay = out.delay_strategy !== undefined ? 'delay_strategy' : 'delay_days';
  if (trigger !== 'BILL' && out[delay] !== undefined) {
    fail(
      run,
      `${prefix}${delay}`,
      'payment_schedule_delay_must_have_bill_trigger',
      'Only a bill-triggered schedule may be delayed.',
    );
  }
}

const isEmptyList = (list: unknown) => Array.isArray(list) && list.length === 0;

/** The debt repayment element's end date, and the delay's days. */
function checkDebtAndDelay(out: Parent, prefix: string, run: Run, input: Parent) {
  const debtEnd = out.debt_repayment_end_date;
  if (out.debt_repayment_element !== undefined && missing(out, input, 'debt_repayment_end_date')) {
    fail(
      run,
      `${prefix}debt_repayment_end_date`,
      'debt_repayment_missing_end_date',
      'A debt repayment element needs an end date.',
    );
  } else if (typeof debtEnd === 'string' && typeof out.end_date === 'string') {
    if (debtEnd > out.end_date) {
      fail(
        run,
        `${prefix}debt_repayment_end_date`,
        'debt_repayment_end_date_after_schedule_end_date',
        'The debt repayment may not end after the schedule.',
      );
    }
  }
  if (out.delay_strategy !== undefined && missing(out, input, 'delay_days')) {
    fail(
      run,
      `${prefix}delay_days`,
      'payment_schedule_delay_strategy_missing_delay_days',
      'A delay strategy needs its number of days.',
    );
  }
}

/** The instalments: their sum is the schedule's amount, their dates within its period. */
function checkInstalments(out: Parent, prefix: string, run: Run) {
  const instalments = checkedItems(out.instalments);
  if (instalments === undefined || instalments.length === 0) return;
  const { start_date: start, end_date: end } = out;
  let total = 0n;
  let summed = true;
  instalments.forEach((instalment, i) => {
    if (typeof instalment.amount === 'string') total += scaled(instalment.amount);
    else summed = false;
    const date = instalment.payment_date;
    if (typeof date !== 'string' || typeof start !== 'string') return;
    if (date < start || (typeof end === 'string' && date > end)) {
      fail(
        run,
        `${prefix}instalments.${i}.payment_date`,
        'payment_instalments_date_outside_of_payment_schedule_active_period',
        "An instalment falls outside the schedule's dates.",
      );
    }
  });
  if (summed && typeof out.amount === 'string' && total !== scaled(out.amount)) {
    fail(
      run,
      `${prefix}instalments`,
      'payment_instalments_do_not_sum_to_total',
      "The instalments do not add up to the schedule's amount.",
    );
  }
}

const paymentSchedule: ObjectRule = {
  codes: [
    'balance_triggered_schedule_missing_threshold',
    'debt_repayment_end_date_after_schedule_end_date',
    'debt_repayment_missing_end_date',
    'fixed_payment_schedule_amount_out_of_range',
    'fixed_payment_schedule_missing_day_of_month',
    'fixed_payment_schedule_missing_frequency',
    'invalid_payment_schedule_to_exempt_from_payment_adequacy',
    'payment_instalments_date_outside_of_payment_schedule_active_period',
    'payment_instalments_do_not_sum_to_total',
    'payment_instalments_not_provided',
    'payment_schedule_delay_must_have_bill_trigger',
    'payment_schedule_delay_strategy_missing_delay_days',
    'zero_payment_schedule_amount',
  ],
  check: (out, prefix, run, input) => {
    const trigger = triggerOf(out, input);
    checkAmount(out, prefix, run, trigger);
    checkTrigger(out, prefix, run, input, trigger);
    checkDebtAndDelay(out, prefix, run, input);
    checkInstalments(out, prefix, run);
  },
};

const MONTHS_OF_ADJUSTMENT = 12n;

/** Whole numbers only; undefined when any was refused. */
function integers(out: Parent, ...names: string[]): bigint[] | undefined {
  const values = names.map((name) => out[name]);
  return values.every((v) => typeof v === 'number') ? values.map((v) => BigInt(v)) : undefined;
}

const paymentAdequacyChange: ObjectRule = {
  codes: [
    'payment_adequacy_balance_adjustment_mismatch',
    'payment_adequacy_missing_reason',
    'payment_adequacy_monthly_charges_unequal',
    'payment_adequacy_new_direct_debit_amount_mismatch',
    'payment_adequacy_should_not_have_been_applied',
  ],
  check: (out, prefix, run, input) => {
    if (
      typeof out.applied_at === 'string' &&
      typeof out.should_not_be_applied_reason === 'string'
    ) {
      fail(
        run,
        `${prefix}applied_at`,
        'payment_adequacy_should_not_have_been_applied',
        'A change with a reason not to apply it may not have been applied.',
      );
    } else if (
      missing(out, input, 'applied_at') &&
      missing(out, input, 'should_not_be_applied_reason')
    ) {
      fail(
        run,
        `${prefix}should_not_be_applied_reason`,
        'payment_adequacy_missing_reason',
        'A change not applied needs the reason why.',
      );
    }
    const charges = integers(
      out,
      'average_monthly_charge',
      'average_monthly_elec_charge',
      'average_monthly_gas_charge',
    );
    if (charges !== undefined && charges[0] !== (charges[1] as bigint) + (charges[2] as bigint)) {
      fail(
        run,
        `${prefix}average_monthly_charge`,
        'payment_adequacy_monthly_charges_unequal',
        'The average monthly charge is not the electricity and gas charges added up.',
      );
    }
    const balances = integers(out, 'balance_adjustment', 'target_balance', 'current_balance');
    if (balances !== undefined) {
      const [adjustment, target, current] = balances as [bigint, bigint, bigint];
      const off = adjustment * MONTHS_OF_ADJUSTMENT - (target - current);
      if (adjustment !== 0n && (off >= MONTHS_OF_ADJUSTMENT || off <= -MONTHS_OF_ADJUSTMENT)) {
        fail(
          run,
          `${prefix}balance_adjustment`,
          'payment_adequacy_balance_adjustment_mismatch',
          'The balance adjustment is not a twelfth of the gap between target and current balance.',
        );
      }
    }
    const debits = integers(
      out,
      'new_direct_debit',
      'existing_direct_debit_payment',
      'average_monthly_charge',
      'balance_adjustment',
    );
    if (debits !== undefined) {
      const [next, existing, charge, adjustment] = debits as [bigint, bigint, bigint, bigint];
      const most = charge + adjustment;
      const [low, high] = existing < most ? [existing, most] : [most, existing];
      if (next < low || next > high) {
        fail(
          run,
          `${prefix}new_direct_debit`,
          'payment_adequacy_new_direct_debit_amount_mismatch',
          'The new direct debit is not between the existing one and the monthly charge plus adjustment.',
        );
      }
    }
  },
};

const paymentPlanPayment: ObjectRule = {
  codes: ['payment_plan_payment_components_do_not_sum_to_total'],
  check: (out, prefix, run) => {
    const components = checkedItems(out.amount_components);
    if (components === undefined || components.length === 0) return;
    if (typeof out.total_amount !== 'number') return;
    const amounts = components.map((component) => component.amount);
    if (!amounts.every((amount) => typeof amount === 'number')) return;
    const sum = amounts.reduce((total: bigint, amount) => total + BigInt(amount as number), 0n);
    if (sum !== BigInt(out.total_amount)) {
      fail(
        run,
        `${prefix}total_amount`,
        'payment_plan_payment_components_do_not_sum_to_total',
        'The components of the payment do not add up to its total.',
      );
    }
  },
};

const depositAgreement: ObjectRule = {
  codes: ['fulfilled_at_greater_than_last_interest_date', 'last_interest_date_not_allowed'],
  check: (out, prefix, run, input) => {
    const last = out.last_interest_date;
    if (typeof last !== 'string') return;
    if (missing(out, input, 'fulfilled_at')) {
      fail(
        run,
        `${prefix}last_interest_date`,
        'last_interest_date_not_allowed',
        'Only a fulfilled deposit has a last interest date.',
      );
    } else if (typeof out.fulfilled_at === 'string' && out.fulfilled_at.slice(0, 10) > last) {
      fail(
        run,
        `${prefix}fulfilled_at`,
        'fulfilled_at_greater_than_last_interest_date',
        'The deposit was fulfilled after its last interest date.',
      );
    }
  },
};

const energyFit: ObjectRule = {
  codes: ['payment_instruction_details_incomplete'],
  check: (out, prefix, run, input) => {
    if (out.payment_method !== 'BACS') return;
    for (const name of ['vendor_name', 'instruction_reference']) {
      if (missing(out, input, name)) {
        fail(
          run,
          `${prefix}${name}`,
          'payment_instruction_details_incomplete',
          'A BACS payment needs a vendor name and an instruction reference.',
        );
      }
    }
  },
};

const commissionContract: ObjectRule = {
  codes: ['commission_type_requires_value', 'uplift_and_value_conflict'],
  check: (out, prefix, run, input) => {
    if (out.commission_type !== undefined && missing(out, input, 'value')) {
      fail(
        run,
        `${prefix}value`,
        'commission_type_requires_value',
        'A commission type needs its value.',
      );
    }
    if (out.value !== undefined && out.unit_rate_uplift !== undefined) {
      fail(
        run,
        `${prefix}value`,
        'uplift_and_value_conflict',
        'Give the unit rate uplift or the older value, not both.',
      );
    }
  },
};

const OFFICIAL_FIELDS = ['official_entity', 'official_reference_number', 'official_status'];

const complaint: ObjectRule = {
  codes: ['chsr_letter_not_sent', 'official_complaint_field_missing'],
  check: (out, prefix, run, input) => {
    if (OFFICIAL_FIELDS.some((name) => !missing(out, input, name))) {
      for (const name of OFFICIAL_FIELDS) {
        if (missing(out, input, name)) {
          fail(
            run,
            `${prefix}${name}`,
            'official_complaint_field_missing',
            'An official complaint needs its organisation, reference number and status.',
          );
        }
      }
    }
    if (out.has_eight_week_letter_been_sent === true && out.has_chsr_letter_been_sent === false) {
      fail(
        run,
        `${prefix}has_chsr_letter_been_sent`,
        'chsr_letter_not_sent',
        'An eight-week letter was sent but no CHSR letter.',
      );
    }
  },
};

const overlappingPeriods = periods(
  { from: 'start_date', to: 'end_date', end: 'last-day' },
  { overlaps: 'overlapping_contribution_periods' },
);

const contributionSchemeAgreement: ObjectRule = {
  codes: [
    'invalid_contribution_period_end_date',
    'invalid_contribution_period_start_date',
    ...overlappingPeriods.codes,
  ],
  check: (out, prefix, run) => {
    if (!Array.isArray(out.periods)) return;
    const { active_period_start_date: start, active_period_end_date: end } = out;
    (out.periods as (Parent | undefined)[]).forEach((period, i) => {
      if (period === undefined) return;
      if (typeof start === 'string' && (period.start_date as string) < start) {
        fail(
          run,
          `${prefix}periods.${i}.start_date`,
          'invalid_contribution_period_start_date',
          'The period starts before the agreement.',
        );
      }
      if (typeof end === 'string' && (period.end_date as string) > end) {
        fail(
          run,
          `${prefix}periods.${i}.end_date`,
          'invalid_contribution_period_end_date',
          'The period ends after the agreement.',
        );
      }
    });
    overlappingPeriods.check(out.periods, `${prefix}periods`, run, out);
  },
};

const debt: ObjectRule = {
  codes: ['debt_collection_agency_name_required'],
  check: (out, prefix, run, input) => {
    if (typeof out.start_date === 'string' && missing(out, input, 'agency_name')) {
      fail(
        run,
        `${prefix}agency_name`,
        'debt_collection_agency_name_required',
        'A debt passed to an agency on a start date needs the agency name.',
      );
    }
  },
};

export const PAYMENT_RULES: ObjectRules = {
  Complaint: complaint,
  ContributionSchemeAgreement: contributionSchemeAgreement,
  Debt: debt,
  DepositAgreement: depositAgreement,
  EnergyCommissionContract: commissionContract,
  EnergyFit: energyFit,
  PaymentAdequacyChange: paymentAdequacyChange,
  PaymentPlanPayment: paymentPlanPayment,
  PaymentSchedule: paymentSchedule,
};
