/**
 * The published catalogue of field error codes (the `code` of each item of `errors`), and
 * the external account number rule shared by the payload, the process request and paths.
 */

/**
 * Every field error code the service emits (payload, process request and list query
 * parameters), with its one-line meaning.
 */
export const FIELD_ERROR_CODES: Record<string, string> = {
  required: 'A required field is missing.',
  null: 'The field is null but may not be.',
  blank: 'A required string is empty once trimmed of white space.',
  invalid_type: 'The JSON type is wrong (e.g. a number where a string is expected).',
  max_length: 'Too many characters (Unicode code points), or a JSON value too many bytes.',
  min_length: 'Too few characters or, for a list, too few items.',
  invalid_choice: 'Not one of the allowed values, or a value given where it is not allowed.',
  invalid_format:
    'The string does not have the documented shape (mpid, tpr, PSR code), or is not text (it holds an unpaired UTF-16 surrogate).',
  invalid_character:
    'The string (or a key of the object) holds U+0000, which cannot be stored; reported with the other errors.',
  min_value: 'The number is below the allowed minimum.',
  max_value: 'The number is above the allowed maximum.',
  invalid_date: 'Not a real calendar date as YYYY-MM-DD, or a date of birth out of range.',
  invalid_datetime: 'Not a real calendar datetime as YYYY-MM-DDTHH:MM:SSZ.',
  invalid_decimal: 'Not a decimal string of up to 10 digits before and after the point.',
  invalid_email: 'Not a valid e-mail address.',
  possible_test_email_address: 'The e-mail address uses a reserved example or test domain.',
  invalid_phone_number: 'Not a valid phone number, or not a mobile-capable one for mobile.',
  invalid_postcode: 'Not a valid UK postcode.',
  invalid_country: 'Not an ISO 3166-1 alpha-2 country code.',
  invalid_supply_point_identifier: 'Not a valid MPAN core (electricity) or MPRN (gas).',
  invalid_document_path: 'Not a valid document path (leading slash, clean segments, file name).',
  unknown_field: 'The field is not part of the payload definition.',
  too_many_items: 'The list has more items than allowed.',
  date_in_future: 'The date or datetime is later than today (UTC).',
  start_date_later_than_end_date: 'The end date is before the start date.',
  duplicate_meter_points_provided: 'The meter point identifier already appears in the account.',
  duplicate_statement_ids: 'The statement_id already appears in an earlier statement.',
  duplicate_references: 'The (namespace, value) pair already appears in an earlier reference.',
  duplicate_metadata_keys: 'The metadata key already appears in an earlier entry.',
  multiple_primary_customers: 'More than one customer is marked is_primary.',
  customer_with_unknown_occupier: 'Customers were given for an unknown-occupier account.',
  customers_required: 'At least one customer is required unless unknown_occupier is true.',
  billing_address_not_provided: 'Neither billing_address nor the legacy billing lines were sent.',
  billing_address_new_style_and_legacy: 'Both billing_address and legacy billing lines were sent.',
  note_body_or_documents_required: 'A note needs a body or at least one document path.',
  supply_type_not_recognised: 'The supply type is neither ELECTRICITY nor GAS.',
  import_supplier_not_found: 'No import supplier with this code is available to the caller.',
  invalid_external_account_number:
    'Not 1-128 characters, "." or "..", or contains white space, "/", "?", "#", "%" or a control character.',
  too_many_errors:
    'More errors were found than are listed (at most 1,000 items); always the last item, with attr null.',
  invalid_cursor: 'The list cursor (`after`) is not one this service issued in a Link header.',
};

// \s covers Unicode white space; C0 and C1 controls are listed explicitly.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN_IN_ACCOUNT_NUMBER = /[\s/?#%\u0000-\u001f\u007f-\u009f]/;

/**
 * True when `value` cannot be an external account number (it travels in URL path segments).
 * `.` and `..` are dot segments: browsers, fetch and most HTTP libraries remove them from a
 * path, `%2E` included, so the number's status would be out of their reach.
 */
export function externalAccountNumberProblem(value: string): boolean {
  if (value.length === 0 || FORBIDDEN_IN_ACCOUNT_NUMBER.test(value)) return true;
  if (value === '.' || value === '..') return true;
  // An unpaired surrogate has no UTF-8 form, so no URL can carry it.
  if (!value.isWellFormed()) return true;
  if (value.length <= 128) return false;
  let points = 0;
  for (const _ of value) if (++points > 128) return true;
  return false;
}
