/**
 * Rules across the fields of the other payment objects: deposits, feed-in tariff payments,
 * commission contracts, complaints, contribution schemes and debts (schedules and plans are in
 * ./schedules.ts, adequacy changes in ./adequacy.ts). A field refused by its own checks is not
 * in `out`, and the rules here then leave it alone. Readings taken where the publication is
 * loose:
 *
 * - A complaint is official once any of the three official fields is given.
 * - A contribution period's end date is its last day (as the agreement's).
 * - A commission contract giving `commission_type` needs `value`; `value` (its older form) and
 *   `unit_rate_uplift` may not both be given.
 */
import { fail, type Parent } from '../../payload/validators.js';
import { periods } from '../periods.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { missing } from './shared.js';

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
};
