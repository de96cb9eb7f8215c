/** The top-level fields of account payload v1, in the order the output keeps. */
import { date } from '../dates.js';
import { defaulted, optional, required, type ObjectOf } from '../object.js';
import { email } from '../rules/email.js';
import { ukPostcode } from '../rules/postcode.js';
import { bool, decimal, enumOf, str, text } from '../scalars.js';
import { array, fail, type, type Type } from '../validators.js';
import { externalAccountNumberProblem } from '../codes.js';
import { address } from './address.js';
import { consent, customer } from './customer.js';
import { metadata, note, paymentInstruction, references, statements } from './records.js';
import { supplyAddress } from './supply-address.js';

/** A supplier code; whether the caller may use it was looked up before validation. */
export const importSupplier: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string' || run.supplierFound) return s;
    return fail(
      run,
      path,
      'import_supplier_not_found',
      'No import supplier with this code is available to you.',
    );
  },
  { type: 'string', description: 'Code of an import supplier the caller may use.' },
);

/** The account's identifier in the external system; it travels in URL path segments. */
export const externalAccountNumber: Type<string> = type(
  (value, path, run) => {
    // An unpaired surrogate breaks the number's own rule first: no URL can carry it.
    const s = typeof value === 'string' && !value.isWellFormed() ? value : text(value, path, run);
    if (typeof s !== 'string' || !externalAccountNumberProblem(s)) return s;
    return fail(
      run,
      path,
      'invalid_external_account_number',
      'Expected 1-128 characters, not "." or "..", without white space, "/", "?", "#", "%" or control characters.',
    );
  },
  {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    pattern: '^(?!\\.\\.?$)[^\\s/?#%\\u0000-\\u001f\\u007f-\\u009f]+$',
  },
);

export const LEGACY_BILLING_FIELDS = [
  'billing_address1',
  'billing_address2',
  'billing_address3',
  'billing_address4',
  'billing_address5',
  'billing_postcode',
] as const;

const legacyLine = (n: number) =>
  optional(
    str(512),
    `Legacy billing address line ${n}${n === 1 ? ' (required in the legacy form)' : ''}.`,
  );

export const accountShape = {
  import_supplier: required(importSupplier),
  external_account_number: required(externalAccountNumber),
  account_type: defaulted(enumOf(['DOMESTIC', 'BUSINESS']), 'DOMESTIC'),
  business_type: optional(
    enumOf(['SOLE_TRADER', 'LTD', 'PLC', 'LLP', 'PARTNERSHIP', 'CHARITY', 'OTHER']),
    'Required when account_type is BUSINESS; not allowed otherwise.',
    { field: 'account_type', equals: 'BUSINESS', otherwise: 'forbidden' },
  ),
  company_number: optional(str(100)),
  unknown_occupier: defaulted(bool, false, 'When true, customers must be absent or empty.'),
  date_of_sale: optional(date({ notFuture: true })),
  communication_preference: defaulted(enumOf(['ONLINE', 'PRINT']), 'ONLINE'),
  document_accessibility: optional(enumOf(['LARGE_PRINT', 'BRAILLE', 'SPOKEN'])),
  language_preference: defaulted(enumOf(['en-gb', 'en-us', 'fr-fr', 'es-419']), 'en-gb'),
  billing_name: optional(str(510)),
  billing_email: optional(email),
  billing_address: optional(address),
  billing_address1: legacyLine(1),
  billing_address2: legacyLine(2),
  billing_address3: legacyLine(3),
  billing_address4: legacyLine(4),
  billing_address5: legacyLine(5),
  billing_postcode: optional(ukPostcode, 'Legacy billing postcode (required in the legacy form).'),
  transfer_balance: optional(decimal, 'Credit positive, debit negative.'),
  last_billed_to_date: optional(date({ notFuture: true })),
  customers: defaulted(
    array(customer, { max: 10 }),
    (parent) => (parent.unknown_occupier === true ? [] : undefined),
    'Required (at least one) unless unknown_occupier is true; then absent or empty.',
  ),
  supply_addresses: optional(
    array(supplyAddress),
    'Meter point identifiers are unique across the whole account.',
  ),
  payment_instructions: optional(array(paymentInstruction)),
  statements: optional(statements),
  notes: optional(array(note)),
  consents: optional(array(consent), 'Account-level consents.'),
  references: optional(references),
  metadata: optional(metadata),
};

export type AccountShape = typeof accountShape;
export type AccountPayload = ObjectOf<AccountShape>;
