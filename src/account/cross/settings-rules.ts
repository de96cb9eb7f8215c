/**
 * Rules that depend on how the platform is set up (its settings, ../../settings/): what it
 * allows (managed accounts, consents, CAIS references, billing document identifiers, incomplete
 * payments), the payment days and lowest amount of a schedule, its own e-mail addresses, the
 * customer detail namespaces it requires and the roles a customer may only hold alone. Every
 * default allows what the published example carries. Readings taken:
 *
 * - A managed account is `account_type` MANAGED or the deprecated `is_managed` true; each one
 *   given is at fault.
 * - Consents are refused when the list given holds any; an empty list says nothing.
 * - A billing document identifier is refused on any historical statement transaction, at
 *   account level or in a ledger (the rest of that rule is in ./statements.ts).
 * - An incomplete payment instruction is one sent with `valid_from` null: the instruction has
 *   no date to start from yet. One that leaves `valid_from` out starts when the account does.
 * - The lowest amount applies to fixed schedules (any trigger but BILL, none meaning REGULAR)
 *   with an amount above zero; zero and negative amounts have their own rules (./payments.ts).
 * - Internal addresses are compared without regard to letter case.
 * - A customer or business user gives a namespace in `user_details` or in the deprecated
 *   `details` object (its keys); each namespace missing is reported once, at the field they
 *   used (`user_details` when they used neither).
 * - A customer's roles are its `account_roles`, `portfolio_roles` and deprecated `role`
 *   together. An exclusive role is refused wherever it is given when any other role is; the
 *   roles a user already holds on the platform are not known here.
 * - `path_does_not_exist_in_file_store`, which `document_path_check_enabled` turns on, is
 *   ./file-store.ts's: a path is looked for among the `uploaded_document` reference entries.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { platformSetting } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const objectsOf = (value: unknown): (Parent | undefined)[] =>
  listOf(value).map((item) => (isObject(item) ? item : undefined));
const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;

const DECIMAL_SCALE = 10;

/** A checked decimal string as a whole number of 10^-10 units, for exact comparisons. */
function scaled(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const units = BigInt(`${whole}${fraction.padEnd(DECIMAL_SCALE, '0')}` || '0');
  return negative ? -units : units;
}

// ---------------------------------------------------------------- the account

const managedAccount = (out: Parent, prefix: string, run: Run) => {
  if (platformSetting(run, 'managed_accounts_allowed')) return;
  const detail = 'This platform does not take managed accounts.';
  if (out.account_type === 'MANAGED') {
    fail(run, `${prefix}account_type`, 'managed_accounts_are_not_allowed', detail);
  }
  if (out.is_managed === true) {
    fail(run, `${prefix}is_managed`, 'managed_accounts_are_not_allowed', detail);
  }
};

const consents = (out: Parent, prefix: string, run: Run) => {
  if (nonEmpty(out.consents) && !platformSetting(run, 'consents_enabled')) {
    fail(
      run,
      `${prefix}consents`,
      'field_not_enabled',
      'Consents are not enabled on this platform.',
    );
  }
};

/** Historical transactions, at account level and in each ledger, by the path of their list. */
function historicalLists(out: Parent, prefix: string): [string, readonly unknown[]][] {
  const lists: [string, readonly unknown[]][] = [
    [`${prefix}historical_statement_transactions`, listOf(out.historical_statement_transactions)],
  ];
  objectsOf(out.ledgers).forEach((ledger, l) => {
    const transactions = listOf(ledger?.historical_statement_transactions);
    lists.push([`${prefix}ledgers.${l}.historical_statement_transactions`, transactions]);
  });
  return lists;
}

const billingDocumentIdentifiers = (out: Parent, prefix: string, run: Run) => {
  if (platformSetting(run, 'billing_document_identifiers_enabled')) return;
  for (const [at, transactions] of historicalLists(out, prefix)) {
    transactions.forEach((tx, i) => {
      if (isObject(tx) && tx.billing_document_identifier !== undefined) {
        fail(
          run,
          `${at}.${i}.billing_document_identifier`,
          'historical_statement_billing_document_identifier_not_allowed_when_feature_flag_disabled',
          'Billing document identifiers are not enabled on this platform.',
        );
      }
    });
  }
};

/** The field's address when it is one of the platform's own (`internal_email_address`). */
function internalAddress(out: Parent, name: string, prefix: string, run: Run) {
  const address = out[name];
  if (typeof address !== 'string') return;
  const internal = platformSetting(run, 'internal_email_addresses');
  if (internal.length > 0 && internal.includes(address.toLowerCase())) {
    fail(
      run,
      `${prefix}${name}`,
      'internal_email_address',
      "This is one of the platform's own addresses, not the customer's.",
    );
  }
}

const energyAccount: ObjectRule = {
  codes: [
    'field_not_enabled',
    'historical_statement_billing_document_identifier_not_allowed_when_feature_flag_disabled',
    'internal_email_address',
    'managed_accounts_are_not_allowed',
  ],
  check: (out, prefix, run) => {
    managedAccount(out, prefix, run);
    consents(out, prefix, run);
    billingDocumentIdentifiers(out, prefix, run);
    internalAddress(out, 'billing_email', prefix, run);
  },
};

// ---------------------------------------------------------------- customers and users

/** The namespaces a customer or user gives: `user_details` items and `details` keys. */
function namespacesOf(out: Parent): Set<unknown> {
  const given = new Set<unknown>(objectsOf(out.user_details).map((detail) => detail?.namespace));
  if (isObject(out.details)) for (const key of Object.keys(out.details)) given.add(key);
  return given;
}

const requiredNamespaces = (out: Parent, prefix: string, run: Run, input: Parent) => {
  const required = platformSetting(run, 'required_customer_detail_namespaces');
  if (required.length === 0) return;
  // A field refused by its own checks may have held the namespace: it is not counted missing.
  for (const name of ['user_details', 'details']) {
    if (input[name] !== undefined && input[name] !== null && out[name] === undefined) return;
  }
  const given = namespacesOf(out);
  const field =
    isObject(out.details) && out.user_details === undefined ? 'details' : 'user_details';
  for (const namespace of required) {
    if (!given.has(namespace)) {
      fail(
        run,
        `${prefix}${field}`,
        'required_customer_details_namespace_missing',
        `The platform requires the customer detail namespace "${namespace}".`,
      );
    }
  }
};

/** Each role given, with its path: `account_roles`, `portfolio_roles` and `role`. */
function rolesOf(out: Parent, prefix: string): [string, string][] {
  const roles: [string, string][] = [];
  for (const name of ['account_roles', 'portfolio_roles']) {
    listOf(out[name]).forEach((role, i) => {
      if (typeof role === 'string') roles.push([role, `${prefix}${name}.${i}`]);
    });
  }
  if (typeof out.role === 'string') roles.push([out.role, `${prefix}role`]);
  return roles;
}

const exclusiveRoles = (out: Parent, prefix: string, run: Run) => {
  const exclusive = platformSetting(run, 'exclusive_user_roles');
  if (exclusive.length === 0) return;
  const roles = rolesOf(out, prefix);
  const distinct = new Set(roles.map(([role]) => role));
  if (distinct.size < 2) return;
  for (const [role, at] of roles) {
    if (exclusive.includes(role)) {
      fail(
        run,
        at,
        'customer_has_exclusive_role_conflict',
        `The role ${role} may only be held alone, and another role is given.`,
      );
    }
  }
};

const energyCustomer: ObjectRule = {
  codes: [
    'customer_has_exclusive_role_conflict',
    'field_not_enabled',
    'internal_email_address',
    'required_customer_details_namespace_missing',
  ],
  check: (out, prefix, run, input) => {
    consents(out, prefix, run);
    internalAddress(out, 'email', prefix, run);
    requiredNamespaces(out, prefix, run, input);
    exclusiveRoles(out, prefix, run);
  },
};

const businessUser: ObjectRule = {
  codes: ['internal_email_address', 'required_customer_details_namespace_missing'],
  check: (out, prefix, run, input) => {
    internalAddress(out, 'email', prefix, run);
    requiredNamespaces(out, prefix, run, input);
  },
};

// ---------------------------------------------------------------- payments and debts

const paymentSchedule: ObjectRule = {
  codes: ['fixed_payment_schedule_amount_out_of_range', 'invalid_payment_day_for_payment_schedule'],
  check: (out, prefix, run, input) => {
    const day = out.day_of_month;
    if (typeof day === 'number') {
      const min = platformSetting(run, 'payment_day_min');
      const max = platformSetting(run, 'payment_day_max');
      if (day < min || day > max) {
        fail(
          run,
          `${prefix}day_of_month`,
          'invalid_payment_day_for_payment_schedule',
          `This platform takes payment days from ${min} to ${max}.`,
        );
      }
    }
    const noTrigger = input.trigger === undefined || input.trigger === null || input.trigger === '';
    const fixed = noTrigger || (typeof out.trigger === 'string' && out.trigger !== 'BILL');
    if (!fixed || typeof out.amount !== 'string') return;
    const amount = scaled(out.amount);
    const min = platformSetting(run, 'fixed_payment_schedule_min_amount');
    if (amount > 0n && amount < scaled(min)) {
      fail(
        run,
        `${prefix}amount`,
        'fixed_payment_schedule_amount_out_of_range',
        `This platform takes fixed schedule amounts of ${min} or more.`,
      );
    }
  },
};

const paymentInstruction: ObjectRule = {
  codes: ['incomplete_payments_not_enabled'],
  check: (out, prefix, run) => {
    if (out.valid_from === null && !platformSetting(run, 'incomplete_payments_enabled')) {
      fail(
        run,
        `${prefix}valid_from`,
        'incomplete_payments_not_enabled',
        'An instruction without a start date is incomplete, and this platform does not take those.',
      );
    }
  },
};

const debt: ObjectRule = {
  codes: ['cais_references_not_supported'],
  check: (out, prefix, run) => {
    if (
      typeof out.cais_reference === 'string' &&
      !platformSetting(run, 'cais_references_supported')
    ) {
      fail(
        run,
        `${prefix}cais_reference`,
        'cais_references_not_supported',
        'This platform does not take CAIS references.',
      );
    }
  },
};

/** The rules that read platform settings, by schema. */
export const SETTING_RULES: ObjectRules = {
  EnergyAccount: energyAccount,
  EnergyCustomer: energyCustomer,
  BusinessUser: businessUser,
  PaymentSchedule: paymentSchedule,
  PaymentInstruction: paymentInstruction,
  Debt: debt,
};
