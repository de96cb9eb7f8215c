/**
 * The published catalogue of field error codes (the `code` of each item of `errors`), and
 * the external account number rule shared by the payload, the process request and paths.
 */

/**
 * The codes of the published account's rules (src/account) that v1 did not have, named as
 * published; the meanings are ours.
 */
const ACCOUNT_RULE_CODES: Record<string, string> = {
  agents_and_mpids_to_appoint_provided:
    'An electricity meter point has both agents and the older dc_to_appoint or mop_to_appoint fields.',
  agreement_business_contract_identifier_not_declared:
    "An agreement names a business contract identifier that the account's business does not declare.",
  agreement_start_date_before_supply_start_date:
    'An agreement still running on the supply start date begins before it.',
  billing_email_not_valid:
    'The billing e-mail address cannot receive bills (a blackhole+ address).',
  children_with_duplicate_values:
    'An item of the list repeats the identifying value of an earlier item.',
  configuration_period_starts_in_future: 'An electricity configuration period starts after today.',
  date_in_past: 'The date is earlier than today (UTC).',
  debt_and_debts_are_defined: 'Both debt and debts were sent; only one of them may be.',
  disputed_read_in_progress:
    'A disputed read is in progress on the meter point, so the account cannot be imported yet.',
  duplicate_account_campaigns:
    'The campaign (by slug or by name) already appears in an earlier item.',
  duplicate_bespoke_rates:
    'A bespoke rate for the same meter serial number and payment method was already given.',
  duplicate_meter_points_on_different_supply_addresses_provided:
    'The meter point identifier already appears under another supply address.',
  duplicate_payment_component_combinations:
    'A payment plan repeats a component type on the same payment date.',
  duplicate_supply_addresses_found:
    'The supply address repeats an earlier one (first two lines and postcode).',
  erroneous_transfer_not_in_progress:
    'An erroneous transfer is in progress on the meter point, so the account cannot be imported yet.',
  future_smart_meter_commission_date: 'The smart meter commissioning date is later than today.',
  future_supply_end_date: "A meter point's supply ends today, so supply has not ended yet.",
  future_supply_start_date: 'A billable meter point starts supply after today.',
  gaps_or_overlaps_in_agreement_dates:
    "A meter point's agreement overlaps an earlier one, or leaves days of the supply period without one.",
  gaps_or_overlaps_in_aq_history:
    'An AQ history entry does not start on the day after the previous entry ends.',
  gaps_or_overlaps_in_periods:
    'A capacity value or configuration period does not start on the day the previous one ends.',
  import_meter_not_found_for_export_meter:
    'An import-export meter is not shared by exactly one import meter point and one IMPORT_EXPORT meter point.',
  inconsistent_campaign_identifiers:
    'Some campaigns are identified by slug and others by campaign_name.',
  incorrect_format_for_tax_year: 'The tax year is not written as YYYY/YY (e.g. 2018/19).',
  invalid_company_number:
    'Not a Companies House number (up to 8 digits, or a two-character prefix and up to 6 digits).',
  invalid_day_of_month: 'Not a day of the month (1 to 31).',
  invalid_delivery_point_identifier:
    'The delivery point identifier holds characters other than capital letters and digits.',
  invalid_meter_serial_number:
    'Not a meter serial number: letters and digits only, at most 10 (electricity) or 14 (gas).',
  invalid_portfolio_number: 'The portfolio number is not P- and eight capital letters or digits.',
  invalid_prepay_customer_reference_number:
    'The prepay customer reference number is not a whole number (spaces aside).',
  invalid_smart_device_id: 'Not a smart device id of 16 hexadecimal digits (an EUI-64).',
  last_payment_review_date_is_future_dated: 'The last payment review date is later than today.',
  latest_configuration_period_not_open_ended:
    'The configuration period that starts last has an end date.',
  line_item_units_must_be_two_values: "A line item's units are not a list of exactly two values.",
  loss_in_progress: "A meter point's supply end date is after today: supply is being lost.",
  market_participant_not_found:
    'No market participant has this id (no participant id has its shape).',
  metadata_has_duplicate_keys: 'The metadata key already appears in an earlier entry.',
  meter_point_with_no_agreement: 'A billable meter point has no agreement running today or later.',
  meter_point_with_no_meters:
    'A billable meter point has no active meter and is not unmetered (measurement class B or D).',
  meter_with_duplicate_register_ids: 'A meter repeats a register id.',
  meterpoint_with_agreement_not_on_supply:
    'An agreement runs past the supply end date of a meter point that is off supply.',
  multiple_active_deposits_not_allowed:
    'More than one deposit agreement was sent; an account holds one at most.',
  multiple_non_dmex_meters_with_serial_number:
    'Meters of a meter point share a serial number without being a dummy exchange (installed the day after the other was removed).',
  multiple_open_ended_aqs_in_meterpoint_aq_history:
    'More than one AQ history entry of the gas meter point has no end date.',
  multiple_open_ended_payment_schedules:
    'More than one payment schedule of a ledger (debt repayment plans aside) has no end date.',
  multiple_open_ended_tax_exemptions: 'More than one tax exemption of the list has no end date.',
  no_register_id_or_rate_type_provided_for_bespoke_elec_rate:
    'A register rate of a bespoke electricity rate has neither a register_id nor a rate_type.',
  no_supply_point_on_supply: 'Every meter point of the account is off supply: none is billable.',
  overlapping_contribution_agreements: 'Two contribution agreements of one scheme share a day.',
  overlapping_effective_dates_for_tax_exemptions:
    'A tax exemption starts before an earlier one ends.',
  payment_adequacy_changes_and_last_payment_review_date_provided:
    'Both payment_adequacy_changes and last_payment_review_date were sent.',
  payment_adequacy_invalid_dates: 'A payment adequacy change date is later than today.',
  payment_instructions_ledger_code_uniformity_failed:
    'Some payment instructions have a ledger_code and others do not.',
  payment_schedule_date_gaps:
    'A payment schedule starting after today leaves days uncovered after the previous one.',
  payment_schedule_date_overlaps:
    'A payment schedule starts before the previous one of its ledger has ended.',
  payment_schedules_ledger_code_uniformity_failed:
    'Some payment schedules have a ledger_code and others do not.',
  psr_invalid_industry_code: 'The PSR industry code is not two digits from 01 to 99.',
  registers_have_duplicate_tprs:
    'A meter repeats a TPR (an odd TPR from 01201 to 01229 may be on two registers).',
  repeated_eac_for_tpr: 'An EAC entry repeats the effective date and TPR of an earlier entry.',
  repeated_values_for_unique_customer_detail_namespace:
    'Two customers share a value in a user detail namespace that must be unique (external_user_id).',
  tpr_not_found: 'No time pattern regime has this value (it is not five digits).',
  transaction_in_future: 'The transaction date is later than today.',
  unbilled_former_supply_address:
    'The customer has left a supply address that is not billed up to the day they left.',
  unexpected_number_of_meter_points_found_for_meter:
    'A meter serial number is on more meter points than a twin element meter allows.',
  zero_length_periods: 'A capacity value or configuration period ends on the day it starts.',
  note_body_or_document_path_not_found: 'The note has neither a body nor a document path.',
  note_unpin_at_earlier_than_creation_date: 'The note is to be unpinned before it was created.',
};

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
    'The string does not have the documented shape (a time of day as HH:MM or HH:MM:SS), or is not text (it holds an unpaired UTF-16 surrogate).',
  invalid_character:
    'The string (or a key of the object) holds U+0000, which cannot be stored; reported with the other errors.',
  min_value: 'The number is below the allowed minimum.',
  max_value: 'The number is above the allowed maximum.',
  invalid_date: 'Not a real calendar date as YYYY-MM-DD, or a date of birth out of range.',
  invalid_datetime:
    'Not a real datetime: RFC 3339 with any offset and fraction, or a bare date (read as UTC).',
  invalid_decimal:
    'Not a decimal string within the digits the field allows before and after the point.',
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
  duplicate_meter_points_provided:
    'The meter point identifier already appears in the same supply address.',
  duplicate_statement_ids: 'The statement_id already appears in an earlier statement.',
  customer_with_unknown_occupier: 'Customers were given for an unknown-occupier account.',
  billing_address_not_provided: 'Neither billing_address nor the legacy billing lines were sent.',
  billing_address_new_style_and_legacy: 'Both billing_address and legacy billing lines were sent.',
  supply_type_not_recognised: 'The supply type is neither ELECTRICITY nor GAS.',
  import_supplier_not_found: 'No import supplier with this code is available to the caller.',
  invalid_external_account_number:
    'Not 1-128 characters, "." or "..", or contains white space, "/", "?", "#", "%" or a control character.',
  too_many_errors:
    'More errors were found than are listed (at most 1,000 items); always the last item, with attr null.',
  invalid_cursor: 'The list cursor (`after`) is not one this service issued in a Link header.',
  ...ACCOUNT_RULE_CODES,
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
