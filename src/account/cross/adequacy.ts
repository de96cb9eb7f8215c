/**
 * Rules on payment adequacy changes. Reading taken where the publication is loose: a change
 * spreads the difference between target and current balance over twelve months; a balance
 * adjustment rounded either way to a whole unit matches it. The new direct debit lies between
 * the existing one and the maximum, in either order, both included.
 */
import { fail, type Parent } from '../../payload/validators.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { missing } from './shared.js';

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

export const ADEQUACY_RULES: ObjectRules = {
  PaymentAdequacyChange: paymentAdequacyChange,
};
