/**
 * Customer and business details against the platform's registered namespaces and keys
 * (`customer_detail_namespace`, `business_detail_key` entries), each giving the type its values
 * take. Readings taken:
 *
 * - The type of a value (`*_incorrect_value_type`) is its JSON type: STRING, DATE a string;
 *   NUMBER, INTEGER a number; BOOLEAN a boolean; LIST an array; OBJECT an object (not an
 *   array). `null` has no type of these.
 * - A value of the right JSON type then fails its validation (`*_failed_validation`) when it
 *   says less than its type asks: a blank STRING, a DATE that is not a real `YYYY-MM-DD` day, an
 *   INTEGER with a fraction, a LIST with an item that is not a non-blank string.
 * - The deprecated `details` of a customer or business user is an object of namespace to value,
 *   each checked as a user detail, at `details.<namespace>`; any other JSON value names no
 *   namespace and fails validation at `details`.
 * - A business detail whose key the platform has not registered has no type to meet: it fails
 *   validation at `key` (the publication names no "not registered" code for businesses).
 */
import { isCalendarDate } from '../../payload/dates.js';
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import type { ReferenceAttributes } from '../../reference/reference.kinds.js';
import { referenceEntry } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

type ValueType = ReferenceAttributes<'customer_detail_namespace'>['value_type'];

/** What is wrong with `value` as a value of `valueType`: its type, its content, or nothing. */
export function detailValueProblem(
  valueType: ValueType,
  value: unknown,
): 'type' | 'validation' | undefined {
  switch (valueType) {
    case 'STRING':
      if (typeof value !== 'string') return 'type';
      return value.trim() === '' ? 'validation' : undefined;
    case 'DATE':
      if (typeof value !== 'string') return 'type';
      return isCalendarDate(value) ? undefined : 'validation';
    case 'NUMBER':
      return typeof value === 'number' ? undefined : 'type';
    case 'INTEGER':
      if (typeof value !== 'number') return 'type';
      return Number.isInteger(value) ? undefined : 'validation';
    case 'BOOLEAN':
      return typeof value === 'boolean' ? undefined : 'type';
    case 'LIST':
      if (!Array.isArray(value)) return 'type';
      return value.every((item) => typeof item === 'string' && item.trim() !== '')
        ? undefined
        : 'validation';
    case 'OBJECT':
      return isObject(value) ? undefined : 'type';
  }
}

/** One customer detail: its namespace registered, its value of the namespace's type. */
function checkCustomerDetail(
  run: Run,
  namespace: string,
  value: unknown,
  namespaceAt: string,
  valueAt: string,
) {
  const entry = referenceEntry(run, 'customer_detail_namespace', namespace);
  if (entry === undefined) {
    fail(
      run,
      namespaceAt,
      'customer_detail_not_registered',
      'The platform has no customer detail namespace of this name.',
    );
    return;
  }
  const problem = detailValueProblem(entry.value_type, value);
  if (problem === 'type') {
    fail(
      run,
      valueAt,
      'customer_detail_incorrect_value_type',
      `A value of this namespace must be of type ${entry.value_type}.`,
    );
  } else if (problem === 'validation') {
    fail(
      run,
      valueAt,
      'customer_detail_failed_validation',
      `The value is not a valid ${entry.value_type} value.`,
    );
  }
}

const CUSTOMER_DETAIL_CODES = [
  'customer_detail_not_registered',
  'customer_detail_incorrect_value_type',
  'customer_detail_failed_validation',
];

/** The deprecated `details` object of a customer or business user. */
const personDetails: ObjectRule = {
  codes: CUSTOMER_DETAIL_CODES,
  check: (out, prefix, run) => {
    const details = out.details;
    if (details === undefined || details === null) return;
    const at = `${prefix}details`;
    if (!isObject(details)) {
      fail(
        run,
        at,
        'customer_detail_failed_validation',
        'Details are an object of namespace to value.',
      );
      return;
    }
    for (const [namespace, value] of Object.entries(details)) {
      const path = run.paths ? `${at}.${namespace}` : '';
      checkCustomerDetail(run, namespace, value, path, path);
    }
  },
};

/** One item of `user_details`. */
const userDetail: ObjectRule = {
  codes: CUSTOMER_DETAIL_CODES,
  check: (out, prefix, run) => {
    if (typeof out.namespace !== 'string' || !('value' in out)) return;
    checkCustomerDetail(run, out.namespace, out.value, `${prefix}namespace`, `${prefix}value`);
  },
};

/** One item of a business's `details`: its value of the key's registered type. */
const businessDetail: ObjectRule = {
  codes: ['business_detail_incorrect_value_type', 'business_detail_failed_validation'],
  check: (out: Parent, prefix, run) => {
    if (typeof out.key !== 'string' || !('value' in out)) return;
    const entry = referenceEntry(run, 'business_detail_key', out.key);
    if (entry === undefined) {
      fail(
        run,
        `${prefix}key`,
        'business_detail_failed_validation',
        'The platform has not registered this business detail key.',
      );
      return;
    }
    const problem = detailValueProblem(entry.value_type, out.value);
    if (problem === 'type') {
      fail(
        run,
        `${prefix}value`,
        'business_detail_incorrect_value_type',
        `A value of this key must be of type ${entry.value_type}.`,
      );
    } else if (problem === 'validation') {
      fail(
        run,
        `${prefix}value`,
        'business_detail_failed_validation',
        `The value is not a valid ${entry.value_type} value.`,
      );
    }
  },
};

export const DETAIL_LOOKUP_RULES: ObjectRules = {
  EnergyCustomer: personDetails,
  BusinessUser: personDetails,
  CustomerUserDetail: userDetail,
  BusinessDetail: businessDetail,
};
