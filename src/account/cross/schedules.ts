/**
 * Rules on payment schedules and payment plan payments. Readings taken where the publication is
 * loose:
 *
 * - A schedule without a `trigger` is a regular one (the published schedules carry an amount, a
 *   day and a frequency, and no trigger). Every trigger but BILL makes a fixed schedule.
 * - A fixed schedule's amount may not be below zero, whatever lower limit a platform sets.
 * - Instalments sum to the schedule's `amount` and fall within its start and end dates (the end
 *   date is the schedule's last day), whatever the trigger.
 * - A delay (strategy or days) is only for a bill-triggered schedule.
 * - A payment plan payment without components has nothing to sum.
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { checkedItems, missing, scaled } from './shared.js';

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

export const SCHEDULE_RULES: ObjectRules = {
  PaymentPlanPayment: paymentPlanPayment,
  PaymentSchedule: paymentSchedule,
};
