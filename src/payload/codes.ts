/**
 * The published catalogue of field error codes (the `code` of each item of `errors`), and
 * the external account number rule shared by the payload, the process request and paths.
 */

/**
 * The codes of the published account's rules (src/account) that v1 did not have, named as
 * published; the meanings are ours.
 */
const ACCOUNT_RULE_CODES: Record<string, string> = {
  account_billing_options_industry_billing_with_period_data:
    'Billing options use industry billing and also give billing period data.',
  account_billing_options_period_data_required:
    'Billing options without industry billing lack a period start day or a period length.',
  account_billing_options_provided_for_domestic_accounts:
    'Billing options were sent for a domestic account; they are for business accounts.',
  active_gas_meter_with_multiple_transfer_readings:
    'An active gas meter has more than one transfer reading.',
  active_gas_meter_without_transfer_reading: 'An active gas meter has no transfer reading.',
  active_new_payment_preference_invalid_instruction_identifier:
    'An ACTIVE_NEW payment preference names an instruction identifier no payment instruction has.',
  affiliate_organisation_does_not_exist:
    'The platform has no affiliate organisation of the name given.',
  agent_contract_reference_does_not_exist:
    'The platform has no agent contract with this reference, or holds it with another agent or service reference.',
  agents_and_mpids_to_appoint_provided:
    'An electricity meter point has both agents and the older dc_to_appoint or mop_to_appoint fields.',
  agents_supplied_for_non_on_market_switch:
    'A meter point names an agent to appoint, but the import supplier sends no registration flows.',
  agreement_business_contract_identifier_not_declared:
    "An agreement names a business contract identifier that the account's business does not declare.",
  agreement_cannot_start_before_product_available:
    'An agreement for a variable product starts before the product was on sale.',
  agreement_effective_from_before_product_available_from:
    'An agreement for a variable product starts before the product is on sale, on days the platform would bill.',
  agreement_start_date_before_supply_start_date:
    'An agreement still running on the supply start date begins before it.',
  balance_mismatch_on_transfer_balance:
    'The balance (transfer_balance or ledger_balance) is not the last statement balance plus the current transactions (prepay vends aside).',
  balance_triggered_schedule_missing_threshold:
    'A balance-triggered payment schedule has no balance threshold.',
  billed_reading_after_last_billed_to_date:
    'A billed reading is dated after the last billed to date that applies to it.',
  billing_document_identifier_not_allowed_for_current_statement_transactions:
    'A current statement transaction carries a billing document identifier; only historical ones may.',
  billing_email_not_valid:
    'The billing e-mail address cannot receive bills (a blackhole+ address).',
  business_account_missing_billing_options:
    "A business account's billing options lack a period start day or length (and industry billing is not used).",
  business_account_missing_customers:
    'A business account (occupier known) was sent without customers.',
  business_detail_failed_validation:
    "A business detail's key is not registered, or its value is of the right type but not a valid value of it.",
  business_detail_incorrect_value_type:
    "A business detail's value is not of the type its key is registered with.",
  business_field_required:
    'The import supplier enforces business contracts, and this business account has no business.',
  business_fields_provided_for_domestic_accounts:
    'A domestic account carries a business type, a company number or bespoke rates.',
  business_information_not_required_if_linking_via_contract:
    'The import supplier links accounts to the business their contracts name, and this business with contracts gives business information.',
  business_information_required_if_not_linking_via_contract:
    'The import supplier does not link accounts by contract, and this business with contracts gives no business information.',
  cais_reference_already_in_use_on_another_account:
    'A created account of the same import supplier already has this CAIS reference.',
  cais_references_not_supported:
    'A debt has a CAIS reference, and this platform does not take them.',
  campaign_name_and_slug_provided: 'A campaign was identified by both slug and campaign_name.',
  campaign_name_or_slug_not_provided:
    'A campaign was sent with neither a slug nor a campaign_name.',
  campaign_not_found: 'The platform has no campaign of the slug (or campaign_name) given.',
  cannot_determine_responsible_for_billing_from_date:
    'The account has meter points but no last billed-to date, last statement closing date or agreement to start billing from.',
  characteristic_code_not_found: 'The platform has no product characteristic with this code.',
  children_with_duplicate_values:
    'An item of the list repeats the identifying value of an earlier item.',
  chsr_letter_not_sent: 'The complaint had an eight-week letter but no CHSR letter.',
  commission_type_requires_value:
    'The commission contract gives a commission type without its value.',
  configuration_period_starts_in_future: 'An electricity configuration period starts after today.',
  conflicting_rate_band_specification:
    'A line item gives none or several of rate_band, rate_specification_code and time_series_specification_code.',
  contact_details_for_occupier: 'Someone named "The Occupier" has contact details, so is known.',
  current_statement_transaction_before_current_statement_opening_date:
    'A current statement transaction is dated before the day after the last statement closed (given or inferred).',
  current_statement_transaction_before_last_billed_to_date:
    'A current statement transaction is dated before the earliest last billed-to date of the account, its meter points, meters or registers.',
  customer_detail_failed_validation:
    "A customer detail's value is of the right type but not a valid value of it (a blank string, an impossible date, a list item that is not text, ...).",
  customer_detail_incorrect_value_type:
    "A customer detail's value is not of the type its namespace is registered with.",
  customer_detail_not_registered:
    'The platform has no customer detail namespace of the name given.',
  customer_details_and_user_details_both_provided:
    'Both user_details and details were sent, or a business user differs from the customer with the same e-mail address.',
  customer_family_name_required: 'A customer of a domestic account has no family name.',
  customer_given_name_required:
    'A customer of a business account has no given name, which registration flows need.',
  customer_has_exclusive_role_conflict:
    'A customer holds a role that the platform lets a user hold only alone, together with another role.',
  customer_may_not_be_named_the_occupier:
    'A customer or business user is named "The Occupier"; use unknown_occupier instead.',
  date_in_past: 'The date is earlier than today (UTC).',
  dd_reference_for_occupier_account: 'A direct debit reference was sent for an occupier account.',
  debt_and_debts_are_defined: 'Both debt and debts were sent; only one of them may be.',
  debt_collection_agency_does_not_exist:
    'The platform has no debt collection agency of the name given.',
  debt_collection_agency_name_required: 'The debt has a start date but no collection agency name.',
  debt_repayment_end_date_after_schedule_end_date:
    "The debt repayment end date is later than the payment schedule's end date.",
  debt_repayment_missing_end_date:
    'The payment schedule has a debt repayment element but no debt repayment end date.',
  disputed_read_in_progress:
    'A disputed read is in progress on the meter point, so the account cannot be imported yet.',
  dunning_path_not_found: 'The platform has no dunning path of the name given.',
  duplicate_account_campaigns:
    'The campaign (by slug or by name) already appears in an earlier item.',
  duplicate_bespoke_rates:
    'A bespoke rate for the same meter serial number and payment method was already given.',
  duplicate_identifiers_entries_found:
    'A ledger repeats the ledger_identifier of an earlier ledger.',
  duplicate_ledger_entries_found: 'A ledger repeats the ledger_code of an earlier ledger.',
  duplicate_ledger_in_payment_preferences:
    'A payment preference names a ledger an earlier preference already names.',
  duplicate_meter_points_on_different_supply_addresses_provided:
    'The meter point identifier already appears under another supply address.',
  duplicate_payment_component_combinations:
    'A payment plan repeats a component type on the same payment date.',
  duplicate_portfolio_references: 'A portfolio reference repeats the namespace of an earlier one.',
  duplicate_property_external_identifiers:
    'A supply address repeats the property identifier of an earlier one.',
  duplicate_supply_addresses_found:
    'The supply address repeats an earlier one (first two lines and postcode).',
  duplicate_transaction_ids:
    'A transaction repeats the transaction_id of an earlier one (across the account and its ledgers).',
  electricity_prepay_meter_without_customer_reference_number:
    'An active prepay electricity meter has no prepay customer reference number.',
  electricity_psr_record_not_found:
    'The platform has no electricity Priority Services Register need with this code.',
  erroneous_transfer_not_in_progress:
    'An erroneous transfer is in progress on the meter point, so the account cannot be imported yet.',
  field_not_enabled: 'The field is for a feature that is not enabled on this platform.',
  fields_are_mutually_exclusive: 'Both customer_preferences and consents were sent for a customer.',
  fixed_payment_schedule_amount_out_of_range:
    'A fixed payment schedule (any trigger but BILL) has a negative amount.',
  fixed_payment_schedule_missing_day_of_month:
    'A regular payment schedule has no day of the month.',
  fixed_payment_schedule_missing_frequency: 'A regular payment schedule has no frequency.',
  fulfilled_at_greater_than_last_interest_date:
    'The deposit was fulfilled after its last interest date.',
  future_smart_meter_commission_date: 'The smart meter commissioning date is later than today.',
  future_supply_end_date: "A meter point's supply ends today, so supply has not ended yet.",
  future_supply_start_date: 'A billable meter point starts supply after today.',
  gaps_or_overlaps_in_agreement_dates:
    "A meter point's agreement overlaps an earlier one, or leaves days of the supply period without one.",
  gaps_or_overlaps_in_aq_history:
    'An AQ history entry does not start on the day after the previous entry ends.',
  gaps_or_overlaps_in_periods:
    'A capacity value or configuration period does not start on the day the previous one ends.',
  gas_psr_record_not_found:
    'The platform has no gas Priority Services Register need with this code.',
  historical_reading_register_id_not_recognised:
    'A historical reading names a register the meter does not have.',
  historical_statement_billing_document_identifier_mismatch:
    'The historical transactions of one statement carry different billing document identifiers.',
  historical_statement_billing_document_identifier_missing:
    'A historical transaction lacks the billing document identifier the others of its statement carry.',
  historical_statement_billing_document_identifier_not_allowed_when_feature_flag_disabled:
    'A historical statement transaction has a billing document identifier, and this platform does not take them.',
  historical_statement_period_end_in_future:
    'The last statement closes (closing date or latest historical transaction) after today.',
  historical_statement_transaction_after_current_statement_transaction:
    'A historical transaction is dated after the earliest current statement transaction.',
  historical_statement_transaction_after_last_statement_closing_date:
    'A historical transaction is dated after the last statement closed (given or inferred).',
  historical_statement_transactions_balance_mismatch:
    'The last statement balance is not the sum of the historical transactions (prepay vends aside).',
  historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date:
    'Historical transactions were sent without a last statement closing date or any last billed-to date.',
  import_meter_not_found_for_export_meter:
    'An import-export meter is not shared by exactly one import meter point and one IMPORT_EXPORT meter point.',
  incomplete_payments_not_enabled:
    'A payment instruction has no start date (valid_from null), and this platform takes no incomplete instructions.',
  inconsistent_campaign_identifiers:
    'Some campaigns are identified by slug and others by campaign_name.',
  incorrect_format_for_tax_year: 'The tax year is not written as YYYY/YY (e.g. 2018/19).',
  incorrect_line_item_net_amount:
    'The line item net amount is not its price per unit times its number of units.',
  internal_email_address: "The address is one of the platform's own, not a customer's.",
  invalid_address: 'An address is incomplete or has a line with no letter or digit in it.',
  invalid_characteristic_value:
    'The platform does not allow this value for the product characteristic.',
  invalid_company_number:
    'Not a Companies House number (up to 8 digits, or a two-character prefix and up to 6 digits).',
  invalid_complaint_source: 'The platform has no complaint source of the code given.',
  invalid_complaint_type_or_subtype:
    'The platform has no complaint type of the code given, or the type has no such subtype.',
  invalid_contribution_period_end_date:
    "A contribution period ends after its agreement's active period.",
  invalid_contribution_period_start_date:
    "A contribution period starts before its agreement's active period.",
  invalid_contribution_scheme: 'The platform has no contribution scheme of the code given.',
  invalid_day_of_month: 'Not a day of the month (1 to 31).',
  invalid_delivery_point_identifier:
    'The delivery point identifier holds characters other than capital letters and digits.',
  invalid_meter_serial_number:
    'Not a meter serial number: letters and digits only, at most 10 (electricity) or 14 (gas).',
  invalid_official_organization_or_status:
    'The platform has no official complaints organisation of the code given, or the organisation does not use the status given.',
  invalid_payment_day_for_payment_schedule:
    "The payment schedule's day of the month is outside the days the platform allows.",
  invalid_payment_preference_ledger_identifier:
    'A payment preference names a ledger identifier no ledger of the account has.',
  invalid_payment_schedule_to_exempt_from_payment_adequacy:
    'A payment schedule other than a regular one is marked exempt from payment adequacy.',
  invalid_period:
    'Rate overrides are given for an agreement running when its product is not on sale.',
  invalid_portfolio_number: 'The portfolio number is not P- and eight capital letters or digits.',
  invalid_prepay_customer_reference_number:
    'The prepay customer reference number is not a whole number (spaces aside).',
  invalid_reference_namespace: 'The platform has no account reference namespace of the name given.',
  invalid_smart_device_id: 'Not a smart device id of 16 hexadecimal digits (an EUI-64).',
  last_billed_to_date_not_found:
    'A billed account gives no last billed to date for a meter (register, meter, meter point or account).',
  last_billed_to_date_on_new_meter:
    'A meter replacing an exchanged one has a last billed to date of its own.',
  last_interest_date_not_allowed: 'The deposit has a last interest date but was never fulfilled.',
  last_payment_review_date_is_future_dated: 'The last payment review date is later than today.',
  last_statement_issued_before_closing_date:
    'The last statement was issued before it closed (given or inferred closing date).',
  latest_configuration_period_not_open_ended:
    'The configuration period that starts last has an end date.',
  ledger_balances_not_equal_to_transfer_balance:
    'The ledger balances do not add up to the transfer balance.',
  ledger_code_does_not_exist: 'The platform has no ledger type of the ledger code given.',
  ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount:
    'A supply charge amount is not the sum of its line item net amounts and tax amounts.',
  line_item_units_must_be_two_values: "A line item's units are not a list of exactly two values.",
  line_items_overlap_already_charged_period:
    'A supply charge covers days another supply charge of the same supply point already covers.',
  loss_in_progress: "A meter point's supply end date is after today: supply is being lost.",
  managed_accounts_are_not_allowed:
    'The account is a managed account, and this platform does not take them.',
  market_participant_not_found:
    "The platform has no market participant with this id in the meter point's market and the field's role.",
  metadata_has_duplicate_keys: 'The metadata key already appears in an earlier entry.',
  meter_point_with_no_agreement: 'A billable meter point has no agreement running today or later.',
  meter_point_with_no_meters:
    'A billable meter point has no active meter and is not unmetered (measurement class B or D).',
  meter_with_duplicate_register_ids: 'A meter repeats a register id.',
  meterpoint_with_agreement_not_on_supply:
    'An agreement runs past the supply end date of a meter point that is off supply.',
  missing_contract_identifier: 'A business linked by contract has no business contract identifier.',
  missing_eacs_for_active_register_tpr:
    'No EAC of the meter point has the TPR of an active settlement register.',
  missing_statement_path_or_pdf_context: 'A statement was sent without the path of its document.',
  missing_transaction_id:
    'A transaction of a transactions request has no transaction_id (each item says where).',
  missing_transfer_reading_for_register:
    'A settlement register of an active meter has no transfer reading.',
  multiple_account_types_selected:
    'The account type and the deprecated type flags name different account types.',
  multiple_active_agent_contract_references:
    "An agent's contract, named by its service references alone, matches several of the platform's active agent contracts.",
  multiple_active_deposits_not_allowed:
    'More than one deposit agreement was sent; an account holds one at most.',
  multiple_non_dmex_meters_with_serial_number:
    'Meters of a meter point share a serial number without being a dummy exchange (installed the day after the other was removed).',
  multiple_open_ended_aqs_in_meterpoint_aq_history:
    'More than one AQ history entry of the gas meter point has no end date.',
  multiple_open_ended_payment_schedules:
    'More than one payment schedule of a ledger (debt repayment plans aside) has no end date.',
  multiple_open_ended_tax_exemptions: 'More than one tax exemption of the list has no end date.',
  multiple_property_administrators: 'A supply address has more than one property administrator.',
  multiple_transfer_readings_for_register:
    'A settlement register of an active meter has more than one transfer reading.',
  mutually_exclusive_field_required:
    'Exactly one of two fields is required (reference or instruction_reference): none or both were sent.',
  next_bill_to_date_not_provided_for_quarterly_billing:
    'Quarterly billing without industry billing was sent without next_bill_due_date.',
  no_agreement_covering_last_billed_to_date:
    'No agreement of the meter point is in force on its last billed to date.',
  no_current_or_future_aq_entry_found:
    'An on-supply gas meter point has no AQ entry running today or later.',
  no_last_billed_to_date_on_exchanged_meter:
    'An exchanged meter not yet billed to its removal lacks a last billed to date of its own.',
  no_reading_on_removed_on: 'An exchanged meter has no reading on the day it was removed.',
  no_reading_on_supply_end_date: 'An off-supply meter point has no reading on its supply end date.',
  no_register_id_for_reading: 'A historical reading of an electricity meter names no register.',
  no_register_id_or_rate_type_provided_for_bespoke_elec_rate:
    'A register rate of a bespoke electricity rate has neither a register_id nor a rate_type.',
  no_supply_point_on_supply: 'Every meter point of the account is off supply: none is billable.',
  no_transfer_reading_on_exchanged_meter: 'An exchanged meter has no transfer readings.',
  note_body_or_document_path_not_found: 'The note has neither a body nor a document path.',
  note_unpin_at_earlier_than_creation_date: 'The note is to be unpinned before it was created.',

  occupier_account_with_multiple_supply_addresses:
    'An occupier account has more than one supply address.',
  official_complaint_field_missing:
    'An official complaint lacks its organisation, reference number or status.',
  open_ended_agreement_for_end_dated_product:
    "The agreement's product has an end, so the agreement needs an effective_to.",
  operations_team_name_does_not_exist:
    'No operations team has the name the account gives (v2 scheduling; v1 names the team in the process request).',
  operations_team_provided_when_using_auto_allocation:
    'An operations team is named (by the account or the process request), but the import supplier allocates its accounts to a team itself.',
  operations_team_should_be_provided:
    'The import supplier allocates its accounts to no team, and neither the request nor the account names an operations team.',
  overlapping_contribution_agreements: 'Two contribution agreements of one scheme share a day.',
  overlapping_contribution_periods:
    'A contribution period starts before an earlier one of its agreement ends.',
  overlapping_effective_dates_for_tax_exemptions:
    'A tax exemption starts before an earlier one ends.',
  partner_organisation_does_not_exist:
    'The platform has no partner organisation of the number given.',
  path_does_not_exist_in_file_store:
    'The document path names no file the operator registered as uploaded to the migration file store.',
  payment_adequacy_balance_adjustment_mismatch:
    'The balance adjustment is not the gap between target and current balance spread over twelve months.',
  payment_adequacy_changes_and_last_payment_review_date_provided:
    'Both payment_adequacy_changes and last_payment_review_date were sent.',
  payment_adequacy_invalid_dates: 'A payment adequacy change date is later than today.',
  payment_adequacy_missing_reason:
    'The payment adequacy change was neither applied nor given a reason not to be.',
  payment_adequacy_monthly_charges_unequal:
    'The average monthly charge differs from the electricity and gas monthly charges added up.',
  payment_adequacy_new_direct_debit_amount_mismatch:
    'The new direct debit is outside the range from the existing one to the monthly charge plus the balance adjustment.',
  payment_adequacy_should_not_have_been_applied:
    'The payment adequacy change was applied although it gives a reason not to be.',
  payment_instalments_date_outside_of_payment_schedule_active_period:
    'An instalment is dated before the payment schedule starts or after it ends.',
  payment_instalments_do_not_sum_to_total:
    'The instalments of a payment schedule do not add up to its amount.',
  payment_instalments_not_provided: 'A plan-triggered payment schedule has no instalments.',
  payment_instruction_details_incomplete:
    'A BACS feed-in tariff payment lacks its vendor name or instruction reference.',
  payment_instructions_ledger_code_uniformity_failed:
    'Some payment instructions have a ledger_code and others do not.',
  payment_plan_and_payment_schedule_not_allowed_on_same_ledger:
    'A payment schedule is on the ledger of a payment plan (which makes its own schedule).',
  payment_plan_payment_components_do_not_sum_to_total:
    'The components of a payment plan payment do not add up to its total amount.',
  payment_plan_strategy_does_not_exist:
    'The platform has no payment plan strategy of the name given.',
  payment_schedule_date_gaps:
    'A payment schedule starting after today leaves days uncovered after the previous one.',
  payment_schedule_date_overlaps:
    'A payment schedule starts before the previous one of its ledger has ended.',
  payment_schedule_delay_must_have_bill_trigger:
    'A payment schedule with a delay is not bill-triggered.',
  payment_schedule_delay_strategy_missing_delay_days:
    'A payment schedule has a delay strategy but no delay days.',
  payment_schedules_ledger_code_uniformity_failed:
    'Some payment schedules have a ledger_code and others do not.',
  portfolio_lead_has_a_supply_address: 'A portfolio lead account has supply addresses.',
  portfolio_references_missing: 'A portfolio with settings has no portfolio reference.',
  portfolio_references_provided:
    'A portfolio is named by reference, but the import supplier has a new portfolio created for each account.',
  portfolio_settings_included_when_not_lead:
    'Portfolio settings were sent for an account that is not a portfolio lead.',
  prepay_details_on_fully_billed_meter: 'A meter billed up to its removal carries prepay details.',
  prepay_details_on_non_prepay_meter: 'A meter that is not prepay carries prepay fields.',
  product_code_does_not_exist: 'The platform has no product with this code.',
  psr_industry_code_not_provided: 'A PSR entry has neither an electricity nor a gas industry code.',
  psr_invalid_industry_code: 'The PSR industry code is not two digits from 01 to 99.',
  psr_record_description_not_found:
    "The PSR description is not the description of the need's industry code.",
  rate_band_does_not_exist:
    "A rate override names a rate band the agreement's tariff does not have.",
  reading_meter_fully_billed: 'A gas meter billed up to its removal has transfer readings.',
  reading_register_id_not_recognised:
    'A transfer reading names a register the meter does not have.',
  reading_without_register_id: 'A transfer reading of an electricity meter names no register.',
  reference_already_exists:
    'A created account of the same import supplier already has this reference (same namespace and value).',
  registers_have_duplicate_tprs:
    'A meter repeats a TPR (an odd TPR from 01201 to 01229 may be on two registers).',
  registers_missing_for_active_electricity_meter:
    'An active electricity meter has no registers, or a non half-hourly register has no TPR.',
  repeated_eac_for_tpr: 'An EAC entry repeats the effective date and TPR of an earlier entry.',
  repeated_values_for_unique_customer_detail_namespace:
    'Two customers share a value in a user detail namespace that must be unique (external_user_id).',
  required_customer_details_namespace_missing:
    'A customer or business user lacks a detail namespace the platform requires.',
  required_user_role: 'A customer sent role lists that name no role.',
  schedule_window_end_too_far_in_future:
    'The scheduling window ends more than 4 days from now (a minute of clock skew allowed).',
  schedule_window_start__after_end: 'The scheduling window starts at or after its end.',
  schedule_window_start_in_past:
    'The scheduling window starts in the past (a minute of clock skew allowed).',
  smart_details_provided_for_non_smart_meter:
    'A meter whose smart_type is NONE carries smart fields.',
  smart_refusal_reason_given_for_interest:
    'A refusal reason was given with a smart interest of INTERESTED.',
  start_date_same_as_end_date: 'The end or expiry date is not after the start date.',
  supply_addresses_provided_while_skip_property_creation_enabled:
    "Supply addresses were sent, but no property is created for the import supplier's accounts.",
  supply_charge_line_items_not_covered_by_single_agreement:
    "No single agreement for the supply charge's product covers the whole period of its line items.",
  supply_point_not_on_account:
    'A transaction names a supply point that is not a meter point of the account (the reason of a TRANSACTION_IMPORT_ERROR).',
  supply_point_identifier_required_for_rate_specification_code:
    'A supply charge with a rate specification code on a line item needs its supply_point_identifier.',
  supply_points_not_provided_while_skip_supply_point_creation_disabled:
    "A supply address has no meter points, though supply points are created for the import supplier's accounts.",
  supply_points_provided_while_skip_supply_point_creation_enabled:
    "A supply address has meter points, but no supply point is created for the import supplier's accounts.",
  system_account_has_a_supply_address: 'A system account has supply addresses.',
  tariff_code_not_found: "The platform has no tariff of the meter point's fuel with this code.",
  tariff_type_does_not_match_meter_point_type:
    "The tariff's number of rates does not match the settlement registers of the meter point's meters.",
  tariff_type_does_not_match_meter_type:
    'An active meter has no active agreement on a tariff of its kind (prepayment or credit).',
  tax_exemptions_provided_for_domestic_account:
    'A meter point of a domestic account has CCL or VAT exemptions.',
  temporary_psr_does_not_have_end_date:
    'A temporary Priority Services Register need has no effective_to.',
  tpr_not_found: 'The platform has no time pattern regime with this value.',
  transaction_in_future: 'The transaction date is later than today.',
  transactions_target_non_initialised_prepay_meter:
    'A transaction targets a prepay meter serial number that no meter with prepayment details has.',
  transfer_reading_dates_must_match_last_billed_to_date:
    'A transfer reading is not dated on the last billed to date that applies to it.',
  transfer_vend_read_date_must_match_last_billed_to_date:
    "A prepay meter's vend read date is neither its last billed to date nor the day before.",
  unbilled_former_supply_address:
    'The customer has left a supply address that is not billed up to the day they left.',
  unexpected_number_of_meter_points_found_for_meter:
    'A meter serial number is on more meter points than a twin element meter allows.',
  unknown_ledger_identifiers:
    'A ledger identifier is not the identifier of any meter point of the account.',
  uplift_and_value_conflict:
    'The commission contract gives both a unit rate uplift and the older value.',
  zero_length_periods: 'A capacity value or configuration period ends on the day it starts.',
  zero_payment_schedule_amount:
    'A fixed payment schedule (any trigger but BILL) has an amount of zero.',
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
  historical_statement_already_exists:
    'The statement_id is one the account already has (created with it, or added since).',
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
