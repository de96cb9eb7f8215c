/**
 * The rules that need code, by published schema and field, attached to the generated
 * declarations by ./declare.ts. Each reports the published code for its problem; rules that
 * compare several objects or need platform data belong elsewhere.
 */
import { birthDate } from '../payload/dates.js';
import { externalAccountNumber, importSupplier } from '../payload/identifiers.js';
import { country } from '../payload/rules/countries.js';
import { phone } from '../payload/rules/phone.js';
import { ukPostcode } from '../payload/rules/postcode.js';
import { isValidMpan, isValidMprn } from '../payload/rules/supply-point.js';
import { fail } from '../payload/validators.js';
import {
  accountCampaigns,
  contributionAgreements,
  customers,
  depositAgreements,
  paymentInstructions,
  paymentPlanPayments,
  paymentSchedules,
} from './account-rules.js';
import {
  companyNumber,
  electricitySerialNumber,
  gasSerialNumber,
  smartDeviceId,
} from './identifiers.js';
import {
  between,
  both,
  documentLocation,
  exactly,
  fromType,
  matching,
  notBefore,
  notInFuture,
  notInPast,
  notTestAddress,
  uniqueItems,
  type FieldRule,
} from './rules.js';
import {
  aqHistory,
  bespokeRates,
  capacityValues,
  configurationPeriods,
  disputedRead,
  erroneousTransfer,
  meterRegisterIds,
  registerTprs,
  supplyAddresses,
  taxExemptions,
} from './supply-rules.js';

export type { FieldRule } from './rules.js';

const postcode = fromType(ukPostcode, 'invalid_postcode');
// A GB address's postal code is a UK postcode; any other keeps the published limit alone.
const addressPostalCode: FieldRule = {
  codes: ['invalid_postcode'],
  check: (value, path, run, parent) =>
    parent.country === 'GB' ? ukPostcode.check(value, path, run, parent) : value,
};
const mobile = fromType(phone('mobile'), 'invalid_phone_number');
const landline = fromType(phone('landline'), 'invalid_phone_number');
const customerEmail = notTestAddress;
const deliveryPoint = matching(
  /^[A-Z0-9]+$/,
  'invalid_delivery_point_identifier',
  'Expected capital letters and digits only.',
);
const transactionDate = notInFuture('transaction_in_future');
const signedAt = notInFuture('date_in_future');
const commissionedOn = notInFuture('future_smart_meter_commission_date');
const adequacyDate = notInFuture('payment_adequacy_invalid_dates');

const SUPPLY_POINT = 'invalid_supply_point_identifier';
const mpan: FieldRule = {
  codes: [SUPPLY_POINT],
  check: (value, path, run) =>
    isValidMpan(value as string)
      ? value
      : fail(run, path, SUPPLY_POINT, 'Expected a 13-digit MPAN core with a valid check digit.'),
};
const mprn = matching(/^\d{6,10}$/, SUPPLY_POINT, 'Expected an MPRN of 6 to 10 digits.');
const mpxn: FieldRule = {
  codes: [SUPPLY_POINT],
  check: (value, path, run, parent) =>
    isValidMprn(value as string) ? value : mpan.check(value, path, run, parent),
};

// A market participant id of a shape no participant has cannot be found (v1: invalid_format).
const PARTICIPANT = 'market_participant_not_found';
const electricityParticipant = matching(
  /^[A-Z0-9]{4}$/,
  PARTICIPANT,
  'Expected four capital letters or digits.',
);
const gasParticipant = matching(/^[A-Z0-9]+$/, PARTICIPANT, 'Expected capital letters or digits.');
const psrCode = matching(
  /^(?:0[1-9]|[1-9][0-9])$/,
  'psr_invalid_industry_code',
  'Expected a two-digit code from 01 to 99.',
);
const sameChildren = (attr: string) =>
  uniqueItems<Record<string, unknown>>(
    (item) => (item[attr] === undefined ? undefined : JSON.stringify(item[attr])),
    'children_with_duplicate_values',
    attr,
  );

/** A metadata key appears once in its list (the account's and each customer's). */
const uniqueMetadataKeys = uniqueItems<Record<string, unknown>>(
  (m) => m.key as string | undefined,
  'metadata_has_duplicate_keys',
  'key',
);

/** A statement_id appears once in a list of statements (the account's, or those added to it). */
const uniqueStatementIds = uniqueItems<Record<string, unknown>>(
  (s) => s.statement_id as string | undefined,
  'duplicate_statement_ids',
  'statement_id',
);

export const FIELD_RULES: Readonly<Record<string, Readonly<Record<string, FieldRule>>>> = {
  EnergyAccount: {
    import_supplier: fromType(importSupplier, 'import_supplier_not_found'),
    external_account_number: {
      ...fromType(externalAccountNumber, 'invalid_external_account_number'),
      // The number travels in URL paths (SPEC.md): its shape is part of the contract.
      schema: { pattern: externalAccountNumber.schema.pattern },
    },
    billing_postcode: postcode,
    billing_email: both(
      notTestAddress,
      matching(
        /^(?![^@]*blackhole\+)/i,
        'billing_email_not_valid',
        'This address cannot be billed.',
      ),
    ),
    billing_delivery_point_identifier: deliveryPoint,
    date_of_sale: notInFuture('date_in_future'),
    last_billed_to_date: notInFuture('date_in_future'),
    last_payment_review_date: notInFuture('last_payment_review_date_is_future_dated'),
    smart_read_cycle_day: between(1, 31, 'invalid_day_of_month'),
    consents: sameChildren('type'),
    references: uniqueItems<Record<string, unknown>>(
      (r) =>
        r.namespace === undefined || r.value === undefined
          ? undefined
          : `${String(r.namespace)}\u0000${String(r.value)}`,
      'children_with_duplicate_values',
      null,
    ),
    metadata: uniqueMetadataKeys,
    statements: uniqueStatementIds,
    company_number: companyNumber,
    account_campaigns: accountCampaigns,
    contribution_agreements: contributionAgreements,
    customers,
    deposit_agreements: depositAgreements,
    payment_instructions: paymentInstructions,
    payment_schedules: paymentSchedules,
    supply_addresses: supplyAddresses,
  },
  Address: {
    country: fromType(country, 'invalid_country'),
    delivery_point_identifier: deliveryPoint,
    postal_code: addressPostalCode,
  },
  EnergyAddress: { postcode },
  EnergyLegacySupplyAddress: {
    supply_postcode: postcode,
    supply_delivery_point_identifier: deliveryPoint,
    customer_at_supply_address_from_date: notInFuture('date_in_future'),
    customer_at_supply_address_to_date: notBefore('customer_at_supply_address_from_date'),
    meter_points: uniqueItems<Record<string, unknown>>(
      (point) => point.identifier as string | undefined,
      'duplicate_meter_points_provided',
      'identifier',
    ),
  },
  EnergyCustomer: {
    email: customerEmail,
    mobile,
    landline,
    date_of_birth: fromType(birthDate, 'invalid_date'),
    consents: sameChildren('type'),
    metadata: uniqueMetadataKeys,
  },
  BusinessUser: { email: customerEmail, mobile, landline },
  PropertyAdministrator: { mobile, landline },
  CustomerAlternativeNumber: { phone_number: landline },
  Complaint: { complainant_email: customerEmail },
  EnergyCommissionContract: { mpxn },
  AccountConsent: { signed_at: signedAt },
  CustomerConsent: { signed_at: signedAt },
  DunningPath: { start_date: notInPast('date_in_past') },
  EnergyWarmHomeDiscount: {
    tax_year: matching(
      /^\d{4}\/\d{2}$/,
      'incorrect_format_for_tax_year',
      'Expected a tax year such as 2018/19.',
    ),
  },
  PaymentAdequacyChange: { applied_at: adequacyDate, created_at: adequacyDate },
  EnergyCredit: { transaction_date: transactionDate },
  EnergyCharge: { transaction_date: transactionDate },
  EnergyPayment: { transaction_date: transactionDate },
  EnergyRepayment: { transaction_date: transactionDate },
  EnergySupplyCharge: { transaction_date: transactionDate },
  LineItem: { units: exactly(2, 'line_item_units_must_be_two_values') },
  Statement: {
    bill_period_to_date: notBefore('bill_period_from_date'),
    statement_path: documentLocation,
  },
  NoteDocument: { document_path: documentLocation },
  HistoricalStatements: { statements: uniqueStatementIds },
  Note: { created_at: notInFuture('date_in_future') },
  EnergyPSR: {
    elec_industry_code: psrCode,
    gas_industry_code: psrCode,
    effective_to: notBefore('effective_from'),
  },
  ElectricityMeterPoint: {
    identifier: mpan,
    mpid: electricityParticipant,
    dc_to_appoint: electricityParticipant,
    mop_to_appoint: electricityParticipant,
    eac_history: uniqueItems<Record<string, unknown>>(
      (eac) =>
        eac.effective_from === undefined
          ? undefined
          : `${String(eac.effective_from)} ${String(eac.tpr)}`,
      'repeated_eac_for_tpr',
      null,
    ),
    dr_in_progress: disputedRead,
    et_in_progress: erroneousTransfer,
    meters: meterRegisterIds,
    capacity_values: capacityValues,
    configuration_periods: configurationPeriods,
    ccl_exemptions: taxExemptions,
    vat_exemptions: taxExemptions,
  },
  GasMeterPoint: {
    identifier: mprn,
    mpid: gasParticipant,
    shipper_mpid: gasParticipant,
    mam_to_appoint: gasParticipant,
    dr_in_progress: disputedRead,
    et_in_progress: erroneousTransfer,
    aq_history: aqHistory,
    ccl_exemptions: taxExemptions,
    vat_exemptions: taxExemptions,
  },
  ElectricityAgentContractReference: { agent_mpid: electricityParticipant },
  ElectricityAgreement: {
    effective_to: notBefore('effective_from'),
    characteristics: sameChildren('code'),
    bespoke_tariff_rates: bespokeRates,
  },
  GasAgreement: {
    effective_to: notBefore('effective_from'),
    characteristics: sameChildren('code'),
    bespoke_tariff_rates: bespokeRates,
  },
  ElectricityMeter: {
    meter_serial_number: electricitySerialNumber,
    registers: registerTprs,
    smart_device_id: smartDeviceId,
    smart_commissioned_on: commissionedOn,
    prepay_customer_reference_number: matching(
      /^\d(?:\s*\d)*$/,
      'invalid_prepay_customer_reference_number',
      'Expected a number (spaces are ignored).',
    ),
  },
  GasMeter: {
    meter_serial_number: gasSerialNumber,
    smart_device_id: smartDeviceId,
    smart_commissioned_on: commissionedOn,
  },
  ElectricityRegister: {
    tpr: matching(/^\d{5}$/, 'tpr_not_found', 'Expected a five-digit time pattern regime.'),
  },
  AgreementIntermediaryDetails: {
    portfolio_number: matching(
      /^P-[A-Z0-9]{8}$/,
      'invalid_portfolio_number',
      'Expected P- and eight capital letters or digits.',
    ),
  },
  BaseBusiness: { company_number: companyNumber, details: sameChildren('key') },
  BusinessWithExistingContracts: { company_number: companyNumber, details: sameChildren('key') },
  PaymentPlan: { payments: paymentPlanPayments },
};
