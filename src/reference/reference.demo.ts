/**
 * The demo catalogue: a small, made-up set of reference entries holding every platform code
 * that the published full example, the tests' account factory and the sample generator name,
 * and a few of each other kind the account's rules look up (complaints, details, schemes, ...).
 * A fresh development database is seeded with it (src/operator/demo.ts), and so is every test
 * service; tools and tests that validate without a database read it through demoCatalogue().
 */
import { catalogueOf, type ReferenceCatalogue, type ReferenceRow } from './reference.catalogue.js';
import type { ReferenceAttributes, ReferenceKind } from './reference.kinds.js';
import type { ReferenceLine } from './reference.types.js';

/** One entry, its attributes typed by its kind's declaration. */
const entry = <K extends ReferenceKind>(
  kind: K,
  code: string,
  attributes: ReferenceAttributes<K>,
): ReferenceRow => ({ kind, code, attributes });

const SINGLE_RATE = ['STANDARD'];
const DAY_NIGHT = ['DAY', 'NIGHT'];

/**
 * Tariffs by supply type; the number of rate bands tells a single-rate product from a
 * day/night one. Fixed-term tariffs have `-FIX-` in their code, the sample generator's cue for
 * a fixed term. Only the prepayment tariffs say whether they are for prepayment meters.
 */
const TARIFFS: readonly ReferenceRow[] = [
  // The published example's.
  entry('tariff', 'ELEC-1234-J', { supply_type: 'ELECTRICITY', rate_bands: SINGLE_RATE }),
  entry('tariff', 'GAS-1234-J', { supply_type: 'GAS', rate_bands: SINGLE_RATE }),
  // The tests' account factory's.
  entry('tariff', 'E-1R-VAR-22-11-01-C', {
    supply_type: 'ELECTRICITY',
    rate_bands: SINGLE_RATE,
    product: 'VAR-22-11-01',
  }),
  entry('tariff', 'G-1R-VAR-22-11-01-C', {
    supply_type: 'GAS',
    rate_bands: SINGLE_RATE,
    product: 'VAR-22-11-01',
  }),
  entry('tariff', 'E-1R-VAR', { supply_type: 'ELECTRICITY', rate_bands: SINGLE_RATE }),
  entry('tariff', 'E-1R-FIX-12M', { supply_type: 'ELECTRICITY', rate_bands: SINGLE_RATE }),
  entry('tariff', 'E-1R-FIX-12M-GREEN', { supply_type: 'ELECTRICITY', rate_bands: SINGLE_RATE }),
  entry('tariff', 'E-2R-VAR', { supply_type: 'ELECTRICITY', rate_bands: DAY_NIGHT }),
  entry('tariff', 'E-2R-FIX-12M', { supply_type: 'ELECTRICITY', rate_bands: DAY_NIGHT }),
  entry('tariff', 'G-1R-VAR', { supply_type: 'GAS', rate_bands: SINGLE_RATE }),
  entry('tariff', 'G-1R-FIX-12M', { supply_type: 'GAS', rate_bands: SINGLE_RATE }),
  entry('tariff', 'G-1R-FIX-12M-GREEN', { supply_type: 'GAS', rate_bands: SINGLE_RATE }),
  entry('tariff', 'E-1R-PAYG', {
    supply_type: 'ELECTRICITY',
    rate_bands: SINGLE_RATE,
    prepay: true,
  }),
  entry('tariff', 'G-1R-PAYG', { supply_type: 'GAS', rate_bands: SINGLE_RATE, prepay: true }),
];

/**
 * The product of the factory's variable tariffs, and the one the published transactions
 * example's supply charge names.
 */
const PRODUCTS: readonly ReferenceRow[] = [
  entry('product', 'VAR-22-11-01', { variable: true }),
  entry('product', 'SOME-PRODUCT-CODE-4321', {}),
];

/**
 * Suppliers' market participant ids, electricity and gas listed in the same order so that the
 * n-th of each belong to one supplier (TENT and TEN are the published example's, LOND and BGT
 * the factory's), and gas shippers (TCL is in both).
 */
const MARKET_PARTICIPANTS: readonly ReferenceRow[] = [
  ...['TENT', 'LOND', 'DEMO', 'SWFT'].map((code) =>
    entry('market_participant', code, { supply_type: 'ELECTRICITY', roles: ['SUPPLIER'] }),
  ),
  ...['TEN', 'BGT', 'DEM', 'SWF'].map((code) =>
    entry('market_participant', code, { supply_type: 'GAS', roles: ['SUPPLIER'] }),
  ),
  ...['TCL', 'KSH', 'PSL', 'WGS'].map((code) =>
    entry('market_participant', code, { supply_type: 'GAS', roles: ['SHIPPER'] }),
  ),
  // Agents: electricity data collectors and aggregators, meter operators, a gas meter manager.
  entry('market_participant', 'EDCA', { supply_type: 'ELECTRICITY', roles: ['DC', 'DA'] }),
  entry('market_participant', 'EMOP', { supply_type: 'ELECTRICITY', roles: ['MOP'] }),
  entry('market_participant', 'GMM', { supply_type: 'GAS', roles: ['MAM'] }),
];

/** Contracts with the agents above, by contract reference. */
const AGENT_CONTRACTS: readonly ReferenceRow[] = [
  entry('agent_contract_reference', 'DC-24-01', {
    agent_mpid: 'EDCA',
    service_reference: 'DC1',
    service_level_reference: 'S1',
  }),
  entry('agent_contract_reference', 'MOP-24-01', { agent_mpid: 'EMOP' }),
];

/** The product characteristics the publication names, each with every value it allows. */
const CHARACTERISTICS: readonly (readonly [string, string[]])[] = [
  [
    'sales_channel',
    [
      'PARTNERSHIPS',
      'NEW_TENANT',
      'MOVE_IN',
      'DIRECT',
      'DEBT_COLLECTION_AGENCY',
      'DIGI_TELESALES',
      'LANDLORD',
      'ACQUISITION',
      'TELESALES',
      'FIELD_SALES',
      'HIGH_REFERRER',
      'WORKS_WITH_OCTOPUS',
      'PARENT_POWER',
      'WORKPLACE_POP_UP',
      'GIFT_OF_KIT',
      'PEOPLE_POWER',
      'AGGREGATOR',
      'PRICE_COMPARISON',
      'SUPPLIER_OF_LAST_RESORT',
      'EVENTS',
      'BROKER',
    ],
  ],
  ['gbr-electricity.payment-method', ['NON_DIRECT_DEBIT', 'PREPAYMENT', 'DIRECT_DEBIT']],
  ['gbr-electricity.meter-rate-profile', ['flat_rate', 'multi_rate']],
  [
    'gbr-gas.meter-point-grid-supply-point-equivalent',
    ['_E', '_H', '_D', '_M', '_A', '_F', '_K', '_P', '_C', '_L', '_N', '_B', '_J', '_G'],
  ],
  ['gbr-gas.payment-method', ['NON_DIRECT_DEBIT', 'PREPAYMENT', 'DIRECT_DEBIT']],
];

/**
 * Time pattern regimes: 00001 for a single-rate register, 00206 and 00210 for the day and
 * night registers of an Economy 7 meter, 00043 for the published example's second register;
 * then regimes about the range whose odd members two registers may share, for the tests.
 */
const TPRS = ['00001', '00043', '00206', '00210', '01201', '01202', '01229', '01231'];

/**
 * Priority Services Register needs by industry code, with the industry's descriptions. Both
 * markets use the same codes, so no entry names one (the kind's convention for "both"). The
 * temporary needs are the ones whose description says so.
 */
const PSR_CODES: readonly (readonly [string, string])[] = [
  ['01', 'Nebuliser and apnoea monitor'],
  ['02', 'Heart, lung & ventilator'],
  ['03', 'Dialysis, feeding pump and automated medication'],
  ['08', 'Blind'],
  ['09', 'Partially sighted'],
  ['14', 'Pensionable age'],
  ['15', 'Physical impairment'],
  ['17', 'Unable to communicate in English'],
  ['18', 'Developmental condition'],
  ['20', 'Dementia(s)/cognitive impairment'],
  ['22', 'Chronic/serious illness'],
  ['27', 'Poor sense of smell/taste'],
  ['29', 'Families with young children 5 or under'],
  ['30', 'Mental health'],
  ['32', 'Temporary - Life changes'],
  ['33', 'Temporary - Post hospital recovery'],
  ['34', 'Temporary - Young adult householder (<18)'],
  ['35', 'Hearing impairment (inc. Deaf)'],
  ['36', 'Speech impairment'],
];

/** Campaigns by slug, with their names; super_account is the published example's. */
const CAMPAIGNS: readonly (readonly [string, string])[] = [
  ['super_account', 'Super Account'],
  ['smart_meter_upgrade', 'Smart Meter Upgrade'],
  ['refer_a_friend', 'Refer a Friend'],
  ['winter_support', 'Winter Support'],
];

const DUNNING_PATHS = ['standard_domestic', 'vulnerable_domestic', 'payment_plan_domestic'];

/**
 * Account reference namespaces: the published example's card reference, the same without the
 * operator's prefix, and the old CRM's account number.
 */
const REFERENCE_NAMESPACES = [
  'tentacle-energy.allpay-client-reference-number',
  'allpay-client-reference-number',
  'legacy-crm',
];

/** Debt collection agencies by name: the published example's, then made-up ones. */
const DEBT_AGENCIES = [
  'Debt R Us',
  'Northgate Recoveries',
  'Pennine Credit Services',
  'Harbour Collections',
];

/** Ledger types: energy, other services billed on the account, and EV charging. */
const LEDGER_TYPES = ['ENERGY', 'SERVICES', 'EV_CHARGING'];

const CONTRIBUTION_SCHEMES = ['WARM', 'COMMUNITY_ENERGY'];

/** Affiliates by name, brokers and comparison sites that earn commission on an account. */
const AFFILIATES = ['Broker Ltd', 'Compare Energy Online', 'Switch Partners Ltd'];

/** Partner organisations by organisation number. */
const PARTNERS = ['ORG-0001', 'ORG-0002', 'ORG-0003'];

const PAYMENT_PLAN_STRATEGIES = ['standard', 'affordability', 'debt_recovery'];

/** Complaint types and their subtypes. */
const COMPLAINT_TYPES: readonly (readonly [string, readonly string[]])[] = [
  ['BILLING', ['BILLING_ACCURACY', 'BACK_BILLING', 'PAYMENTS', 'REFUNDS']],
  ['METERING', ['METER_READINGS', 'SMART_METER', 'METER_EXCHANGE']],
  ['CUSTOMER_SERVICE', ['CONTACT', 'COMMUNICATION']],
  ['SWITCHING', ['ERRONEOUS_TRANSFER', 'DELAYED_SWITCH']],
];

/** Where a complaint's communications come from. */
const COMPLAINT_SOURCES = ['PHONE', 'EMAIL', 'LETTER', 'WEBCHAT', 'SOCIAL_MEDIA'];

/** Official complaints organisations and the statuses each gives a complaint. */
const OFFICIAL_ORGANISATIONS: readonly (readonly [string, readonly string[]])[] = [
  ['OMBUDSMAN', ['OPEN', 'INVESTIGATING', 'DECISION_ISSUED', 'CLOSED']],
  ['CITIZENS_ADVICE', ['OPEN', 'CLOSED']],
];

/** Customer detail namespaces (the user details the published schema names). */
const CUSTOMER_DETAIL_NAMESPACES = [
  ['external_user_id', 'STRING'],
  ['loyalty_tier', 'STRING'],
] as const;

/** Business detail keys, every one the published schema names, with their values' types. */
const BUSINESS_DETAIL_KEYS = [
  ['sic_codes', 'LIST'],
  ['vat_number', 'STRING'],
  ['registered_charity_number', 'STRING'],
  ['ofgem_protection_label', 'STRING'],
] as const;

/** The documents the published full account names, as if uploaded to the file store. */
const UPLOADED_DOCUMENTS = [
  '/notes/1234/attachment.jpg',
  '/EXTERNAL-1234/2019-06-01-to-2019-07-01.pdf',
  '/EXTERNAL-1234/2019-07-01-to-2019-08-01.pdf',
];

/** Every entry of the demo catalogue, kinds in declaration order. */
export const DEMO_REFERENCE: readonly ReferenceRow[] = Object.freeze([
  ...TARIFFS,
  ...PRODUCTS,
  ...MARKET_PARTICIPANTS,
  ...TPRS.map((code) => entry('tpr', code, {})),
  ...LEDGER_TYPES.map((code) => entry('ledger_type', code, {})),
  ...CAMPAIGNS.map(([code, name]) => entry('campaign', code, { name })),
  ...DUNNING_PATHS.map((code) => entry('dunning_path', code, {})),
  ...REFERENCE_NAMESPACES.map((code) => entry('reference_namespace', code, {})),
  ...PSR_CODES.map(([code, description]) =>
    entry('psr_code', code, {
      description,
      ...(description.startsWith('Temporary') ? { temporary: true } : {}),
    }),
  ),
  ...DEBT_AGENCIES.map((code) => entry('debt_collection_agency', code, {})),
  ...CONTRIBUTION_SCHEMES.map((code) => entry('contribution_scheme', code, {})),
  ...AFFILIATES.map((code) => entry('affiliate_organisation', code, {})),
  ...PARTNERS.map((code) => entry('partner_organisation', code, {})),
  ...PAYMENT_PLAN_STRATEGIES.map((code) => entry('payment_plan_strategy', code, {})),
  ...COMPLAINT_TYPES.map(([code, subtypes]) =>
    entry('complaint_type', code, { subtypes: [...subtypes] }),
  ),
  ...COMPLAINT_SOURCES.map((code) => entry('complaint_source', code, {})),
  ...OFFICIAL_ORGANISATIONS.map(([code, statuses]) =>
    entry('official_complaints_organisation', code, { statuses: [...statuses] }),
  ),
  ...CUSTOMER_DETAIL_NAMESPACES.map(([code, value_type]) =>
    entry('customer_detail_namespace', code, { value_type }),
  ),
  ...BUSINESS_DETAIL_KEYS.map(([code, value_type]) =>
    entry('business_detail_key', code, { value_type }),
  ),
  ...CHARACTERISTICS.map(([code, values]) => entry('characteristic', code, { values })),
  ...AGENT_CONTRACTS,
  ...UPLOADED_DOCUMENTS.map((code) => entry('uploaded_document', code, {})),
]);

/** The demo catalogue in memory, for tests and tools that validate without a database. */
export function demoCatalogue(): ReferenceCatalogue {
  return catalogueOf(0, DEMO_REFERENCE);
}

/** The demo catalogue as the lines of an import file, for importReference. */
export function demoReferenceLines(): ReferenceLine[] {
  return DEMO_REFERENCE.map(({ kind, code, attributes }, i) => ({
    line: i + 1,
    value: { kind, code, ...attributes },
  }));
}
