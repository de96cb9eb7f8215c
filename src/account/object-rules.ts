/**
 * Rules across the fields of one published object, by schema; run once its fields are checked
 * (`out` holds those that passed, `input` is the object as sent). The rules of this file are
 * the first ones kept; those of each topic in ./cross/ are merged in after them, so that a
 * schema's rules may come from several topics (`OBJECT_RULES`).
 */
import { fail } from '../payload/validators.js';
import { ACCOUNT_LOOKUP_RULES } from './cross/account-lookups.js';
import { mergeObjectRules, type ObjectRule, type ObjectRules } from './cross/object-rule.js';
import { INDUSTRY_LOOKUP_RULES } from './cross/industry-lookups.js';
import { ACCOUNT_TYPE_DEFAULTS, ACCOUNT_TYPE_RULES } from './cross/account-types.js';
import { ADEQUACY_RULES } from './cross/adequacy.js';
import { BILLING_RULES } from './cross/billing.js';
import { CUSTOMER_RULES } from './cross/customers.js';
import { FILE_STORE_RULES } from './cross/file-store.js';
import { METER_POINT_RULES } from './cross/meter-points.js';
import { METER_RULES } from './cross/meters.js';
import { PAYMENT_RULES } from './cross/payments.js';
import { PORTFOLIO_RULES } from './cross/portfolios.js';
import { POST_IMPORT_RULES } from './cross/post-import.js';
import { SCHEDULE_RULES } from './cross/schedules.js';
import { holdsData } from './cross/shared.js';
import { READING_RULES } from './cross/readings.js';
import { SETTING_RULES } from './cross/settings-rules.js';
import { STATEMENT_RULES } from './cross/statements.js';
import { SUPPLY_LOOKUP_RULES } from './cross/supply-lookups.js';
import { SUPPLIER_RULES } from './cross/supplier-rules.js';
import { SUPPLY_POINT_RULES } from './cross/supply-points.js';
import { TASK_WINDOW_RULES } from './cross/task-windows.js';
import { TARIFF_LOOKUP_RULES } from './cross/tariff-lookups.js';
import { TRANSACTION_RULES } from './cross/transactions.js';

/** The billing address as separate lines, the form `billing_address` replaces. */
const LEGACY_BILLING_FIELDS = [
  'billing_address1',
  'billing_address2',
  'billing_address3',
  'billing_address4',
  'billing_address5',
  'billing_postcode',
] as const;

/** What the account may not combine (v1's billing and occupier rules among them). */
const energyAccount: ObjectRule = {
  codes: [
    'billing_address_new_style_and_legacy',
    'customer_with_unknown_occupier',
    'debt_and_debts_are_defined',
    'payment_adequacy_changes_and_last_payment_review_date_provided',
  ],
  check: (out, prefix, run, input) => {
    if (
      input.billing_address !== undefined &&
      LEGACY_BILLING_FIELDS.some((name) => holdsData(input[name]))
    ) {
      fail(
        run,
        `${prefix}billing_address`,
        'billing_address_new_style_and_legacy',
        'Send either billing_address or the legacy billing lines, not both.',
      );
    }
    const customers = input.customers;
    if (out.unknown_occupier === true && Array.isArray(customers) && customers.length > 0) {
      fail(
        run,
        `${prefix}customers`,
        'customer_with_unknown_occupier',
        'An account with an unknown occupier may not have customers.',
      );
    }
    if (input.debt !== undefined && input.debts !== undefined) {
      fail(run, `${prefix}debt`, 'debt_and_debts_are_defined', 'Send debts or debt, not both.');
    }
    if (
      holdsData(input.last_payment_review_date) &&
      Array.isArray(input.payment_adequacy_changes)
    ) {
      fail(
        run,
        `${prefix}payment_adequacy_changes`,
        'payment_adequacy_changes_and_last_payment_review_date_provided',
        'Send payment_adequacy_changes or last_payment_review_date, not both.',
      );
    }
  },
};

/**
 * A note says something: a body or at least one document path (v1's rule, and the
 * publication's). A field sent with the wrong type counts as sent: its own error says enough.
 * A pinned note is unpinned at or after its creation.
 */
const note: ObjectRule = {
  codes: ['note_body_or_document_path_not_found', 'note_unpin_at_earlier_than_creation_date'],
  check: (out, prefix, run, input) => {
    const { created_at: created, unpin_at: unpin } = out;
    if (
      typeof created === 'string' &&
      typeof unpin === 'string' &&
      Date.parse(unpin) < Date.parse(created)
    ) {
      fail(
        run,
        `${prefix}unpin_at`,
        'note_unpin_at_earlier_than_creation_date',
        'A note cannot be unpinned before it was created.',
      );
    }
    const documents = input.document_paths;
    const hasDocuments = Array.isArray(documents) ? documents.length > 0 : holdsData(documents);
    if (!holdsData(input.body) && !hasDocuments) {
      fail(
        run,
        `${prefix}body`,
        'note_body_or_document_path_not_found',
        'A note needs a body or at least one document path.',
      );
    }
  },
};

const COMBINATIONS: ObjectRules = {
  EnergyAccount: energyAccount,
  Note: note,
};

/** Every object rule by schema: each schema's rules from every topic, run in this order. */
export const OBJECT_RULES: Readonly<Record<string, ObjectRule>> = mergeObjectRules([
  COMBINATIONS,
  PAYMENT_RULES,
  SCHEDULE_RULES,
  ADEQUACY_RULES,
  ACCOUNT_TYPE_RULES,
  BILLING_RULES,
  CUSTOMER_RULES,
  PORTFOLIO_RULES,
  READING_RULES,
  METER_RULES,
  STATEMENT_RULES,
  SUPPLY_POINT_RULES,
  ACCOUNT_LOOKUP_RULES,
  SUPPLY_LOOKUP_RULES,
  TARIFF_LOOKUP_RULES,
  INDUSTRY_LOOKUP_RULES,
  METER_POINT_RULES,
  SETTING_RULES,
  SUPPLIER_RULES,
  FILE_STORE_RULES,
  POST_IMPORT_RULES,
  TASK_WINDOW_RULES,
  TRANSACTION_RULES,
  // Last: the values filled in once every rule has judged the account as sent.
  ACCOUNT_TYPE_DEFAULTS,
]);
