/**
 * Rules about who an account is for: its type, customers and business users, occupiers,
 * businesses and portfolios, properties, priority needs, smart interest, tax exemptions and
 * campaigns. Readings taken where the publication leaves room:
 *
 * - The account's type is `account_type`, else the deprecated `is_portfolio_lead` or
 *   `is_managed` flag. The rules that depend on it (domestic, business, portfolio lead,
 *   system) leave an account that names no type alone. Domestic types start with DOMESTIC,
 *   business ones with BUSINESS.
 * - An occupier account has `unknown_occupier` true or an occupier type. Any other typed
 *   account needs a billing address: the structured one, or legacy line 1 and postcode.
 * - Each selection of a type (the field and the two flags) must name the same type; the first
 *   one that names another is at fault.
 * - Business fields on a domestic account: the account's `business_type` and
 *   `company_number`, those of `business`, and any agreement's bespoke rates.
 * - Tax exemptions are the meter points' `ccl_exemptions` and `vat_exemptions`.
 * - A business account needs customers unless its occupier is unknown; its billing options,
 *   when given, need a period start day and length unless industry billing is used.
 * - Quarterly billing without industry billing (false or not given) needs `next_bill_due_date`.
 * - A business user and a customer with the same e-mail address are one person: given and
 *   family names, title, phones and date of birth given on both must agree.
 * - A customer or business user is named "The Occupier" when the given and family names
 *   together read so (case and spacing aside). With contact details it is refused for them
 *   (each detail), without them for the name.
 * - Roles: a customer sending `account_roles` or `portfolio_roles` must name at least one role
 *   there (or in the deprecated `role`); one sending none takes the platform's default.
 * - Property identifiers are compared across `supply_addresses` (the only properties the
 *   payload declares); the second use is at fault.
 * - A portfolio with settings needs a reference, unless the import supplier has a new
 *   portfolio created for each account (./supplier-rules.ts then refuses any reference).
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { supplierSetting } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

type Check = ObjectRule['check'];

const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const objectsOf = (value: unknown): (Parent | undefined)[] =>
  listOf(value).map((item) => (isObject(item) ? item : undefined));
const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;
/** A value that says something: not absent, null, blank, or an empty list. */
const holdsData = (raw: unknown) =>
  raw !== undefined &&
  raw !== null &&
  !(typeof raw === 'string' && raw.trim() === '') &&
  !(Array.isArray(raw) && raw.length === 0);
/** The object's own path, from the prefix of its fields. */
const objectPath = (prefix: string) => prefix.slice(0, -1);

// ---------------------------------------------------------------- account type

function accountType(out: Parent): string | undefined {
  if (typeof out.account_type === 'string') return out.account_type;
  if (out.is_portfolio_lead === true) return 'PORTFOLIO_LEAD';
  if (out.is_managed === true) return 'MANAGED';
  return undefined;
}

const isDomestic = (type: string | undefined) => type?.startsWith('DOMESTIC') === true;
const isBusiness = (type: string | undefined) => type?.startsWith('BUSINESS') === true;
const isOccupier = (out: Parent) =>
  out.unknown_occupier === true || accountType(out)?.endsWith('_OCCUPIER') === true;

const oneAccountType: Check = (out, prefix, run) => {
  const selected: [string, string][] = [];
  if (typeof out.account_type === 'string') selected.push(['account_type', out.account_type]);
  if (out.is_managed === true) selected.push(['is_managed', 'MANAGED']);
  if (out.is_portfolio_lead === true) selected.push(['is_portfolio_lead', 'PORTFOLIO_LEAD']);
  const first = selected[0];
  const other = selected.find(([, type]) => type !== first?.[1]);
  if (other !== undefined) {
    fail(
      run,
      `${prefix}${other[0]}`,
      'multiple_account_types_selected',
      `This names another account type than ${first?.[0]}.`,
    );
  }
};

/** Portfolio leads and system accounts supply nothing themselves. */
const noSupplyForLeadOrSystem: Check = (out, prefix, run, input) => {
  const type = accountType(out);
  if (!nonEmpty(input.supply_addresses)) return;
  if (type === 'PORTFOLIO_LEAD') {
    fail(
      run,
      `${prefix}supply_addresses`,
      'portfolio_lead_has_a_supply_address',
      'A portfolio lead account may not have supply addresses.',
    );
  } else if (type === 'SYSTEM') {
    fail(
      run,
      `${prefix}supply_addresses`,
      'system_account_has_a_supply_address',
      'A system account may not have supply addresses.',
    );
  }
};

const portfolioSettingsOnLead: Check = (out, prefix, run) => {
  const portfolio = out.portfolio;
  if (!isObject(portfolio) || !isObject(portfolio.portfolio_settings)) return;
  if (accountType(out) !== 'PORTFOLIO_LEAD') {
    fail(
      run,
      `${prefix}portfolio.portfolio_settings`,
      'portfolio_settings_included_when_not_lead',
      'Portfolio settings belong to a portfolio lead account.',
    );
  }
};

// ---------------------------------------------------------------- occupiers and billing

const occupierAccount: Check = (out, prefix, run, input) => {
  if (!isOccupier(out)) return;
  const addresses = listOf(input.supply_addresses);
  for (let i = 1; i < addresses.length; i++) {
    fail(
      run,
      `${prefix}supply_addresses.${i}`,
      'occupier_account_with_multiple_supply_addresses',
      'An occupier account has one supply address at most.',
    );
  }
  if (typeof out.dd_reference === 'string') {
    fail(
      run,
      `${prefix}dd_reference`,
      'dd_reference_for_occupier_account',
      'A direct debit reference implies a known occupier.',
    );
  }
};

const billingAddressGiven: Check = (out, prefix, run, input) => {
  if (accountType(out) === undefined || isOccupier(out) || input.billing_address !== undefined) {
    return;
  }
  for (const field of ['billing_address1', 'billing_postcode']) {
    const raw = input[field];
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      fail(
        run,
        `${prefix}${field}`,
        'billing_address_not_provided',
        'Give billing_address, or the legacy billing_address1 and billing_postcode.',
      );
    }
  }
};

// ---------------------------------------------------------------- domestic and business

function* supplyPoints(out: Parent): Iterable<[Parent, string]> {
  const addresses = objectsOf(out.supply_addresses);
  for (let a = 0; a < addresses.length; a++) {
    const points = objectsOf(addresses[a]?.meter_points);
    for (let p = 0; p < points.length; p++) {
      const point = points[p];
      if (point !== undefined) yield [point, `supply_addresses.${a}.meter_points.${p}`];
    }
  }
}

const BUSINESS_FIELDS = 'business_fields_provided_for_domestic_accounts';

const domesticAccount: Check = (out, prefix, run, input) => {
  if (!isDomestic(accountType(out))) return;
  const business = isObject(out.business) ? out.business : {};
  const businessFields: [unknown, string][] = [
    [out.business_type, 'business_type'],
    [out.company_number, 'company_number'],
    [business.business_type, 'business.business_type'],
    [business.company_number, 'business.company_number'],
  ];
  for (const [value, at] of businessFields) {
    if (typeof value === 'string') {
      fail(run, `${prefix}${at}`, BUSINESS_FIELDS, 'A domestic account has no business details.');
    }
  }
  for (const [point, at] of supplyPoints(out)) {
    const agreements = objectsOf(point.agreements);
    for (let g = 0; g < agreements.length; g++) {
      if (nonEmpty(agreements[g]?.bespoke_tariff_rates)) {
        const path = `${prefix}${at}.agreements.${g}.bespoke_tariff_rates`;
        fail(run, path, BUSINESS_FIELDS, 'Bespoke rates are for business accounts.');
      }
    }
    for (const list of ['ccl_exemptions', 'vat_exemptions']) {
      if (nonEmpty(point[list])) {
        fail(
          run,
          `${prefix}${at}.${list}`,
          'tax_exemptions_provided_for_domestic_account',
          'Tax exemptions are for business accounts.',
        );
      }
    }
  }
  if (out.account_billing_options !== undefined) {
    fail(
      run,
      `${prefix}account_billing_options`,
      'account_billing_options_provided_for_domestic_accounts',
      'Billing options are for business accounts.',
    );
  }
  const customers = listOf(input.customers);
  for (let c = 0; c < customers.length; c++) {
    const customer = customers[c];
    if (isObject(customer) && !holdsData(customer.family_name) && customer.family_name !== null) {
      fail(
        run,
        `${prefix}customers.${c}.family_name`,
        'customer_family_name_required',
        'Each customer of a domestic account needs a family name.',
      );
    }
  }
};

const businessAccount: Check = (out, prefix, run, input) => {
  if (!isBusiness(accountType(out))) return;
  const customers = input.customers;
  const none = customers === undefined || (Array.isArray(customers) && customers.length === 0);
  if (none && out.unknown_occupier !== true) {
    fail(
      run,
      `${prefix}customers`,
      'business_account_missing_customers',
      'A business account needs at least one customer.',
    );
  }
  const options = out.account_billing_options;
  const raw = input.account_billing_options;
  if (!isObject(options) || !isObject(raw) || options.use_industry_billing === true) return;
  for (const field of ['period_start_day', 'period_length']) {
    if (raw[field] === undefined || raw[field] === null) {
      fail(
        run,
        `${prefix}account_billing_options.${field}`,
        'business_account_missing_billing_options',
        'Billing options without industry billing need a period start day and length.',
      );
    }
  }
};

const quarterlyBilling: Check = (out, prefix, run, input) => {
  const options = out.account_billing_options;
  if (!isObject(options) || options.use_industry_billing === true) return;
  const due = input.next_bill_due_date;
  if (options.period_length === 'QUARTERLY' && (due === undefined || due === null)) {
    fail(
      run,
      `${prefix}next_bill_due_date`,
      'next_bill_to_date_not_provided_for_quarterly_billing',
      'Quarterly billing without industry billing needs the next bill due date.',
    );
  }
};

// ---------------------------------------------------------------- people

const SAME_PERSON_FIELDS = [
  'given_name',
  'family_name',
  'title',
  'mobile',
  'landline',
  'date_of_birth',
];

/** A business user agrees with the customer who has the same e-mail address. */
const usersMatchCustomers: Check = (out, prefix, run) => {
  const byEmail = new Map<string, Parent>();
  for (const customer of objectsOf(out.customers)) {
    if (typeof customer?.email === 'string') {
      byEmail.set(customer.email.toLowerCase(), customer);
    }
  }
  const users = isObject(out.business) ? objectsOf(out.business.users) : [];
  for (let u = 0; u < users.length; u++) {
    const user = users[u];
    const customer =
      typeof user?.email === 'string' ? byEmail.get(user.email.toLowerCase()) : undefined;
    if (user === undefined || customer === undefined) continue;
    for (const field of SAME_PERSON_FIELDS) {
      const [mine, theirs] = [user[field], customer[field]];
      if (typeof mine === 'string' && typeof theirs === 'string' && mine !== theirs) {
        fail(
          run,
          `${prefix}business.users.${u}.${field}`,
          'customer_details_and_user_details_both_provided',
          `This differs from the ${field} of the customer with the same e-mail address.`,
        );
      }
    }
  }
};

const CONTACT_FIELDS = [
  'email',
  'mobile',
  'landline',
  'contact_emails',
  'alternative_phone_numbers',
];

const namedTheOccupier = (out: Parent) =>
  [out.given_name, out.family_name]
    .filter((name) => typeof name === 'string')
    .join(' ')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase() === 'the occupier';

/** What customers and business users share: one form of details, a real name. */
const person: Check = (out, prefix, run, input) => {
  if (nonEmpty(input.user_details) && holdsData(input.details)) {
    fail(
      run,
      `${prefix}details`,
      'customer_details_and_user_details_both_provided',
      'Send user_details or the older details, not both.',
    );
  }
  if (!namedTheOccupier(out)) return;
  const contacts = CONTACT_FIELDS.filter((field) => holdsData(out[field]));
  for (const field of contacts) {
    fail(
      run,
      `${prefix}${field}`,
      'contact_details_for_occupier',
      'Someone with contact details is known, so not "The Occupier".',
    );
  }
  if (contacts.length === 0) {
    const at = typeof out.family_name === 'string' ? 'family_name' : 'given_name';
    fail(
      run,
      `${prefix}${at}`,
      'customer_may_not_be_named_the_occupier',
      'Mark an unknown occupier with unknown_occupier on the account, not by name.',
    );
  }
};

const ROLE_LISTS = ['account_roles', 'portfolio_roles'];

const customerRolesAndConsents: Check = (out, prefix, run, input) => {
  const sent = ROLE_LISTS.filter((field) => input[field] !== undefined);
  const checked = sent.every((field) => Array.isArray(out[field]));
  const roles = sent.reduce((n, field) => n + listOf(out[field]).length, 0);
  if (sent.length > 0 && checked && roles === 0 && out.role == null) {
    fail(
      run,
      `${prefix}${sent[0] as string}`,
      'required_user_role',
      'Name at least one role in account_roles or portfolio_roles.',
    );
  }
  if (out.customer_preferences !== undefined && nonEmpty(out.consents)) {
    fail(
      run,
      `${prefix}customer_preferences`,
      'fields_are_mutually_exclusive',
      'Send consents or the older customer_preferences, not both.',
    );
  }
};

// ---------------------------------------------------------------- properties, portfolios

const propertyIdentifiers: Check = (out, prefix, run) => {
  const seen = new Set<string>();
  const addresses = objectsOf(out.supply_addresses);
  for (let a = 0; a < addresses.length; a++) {
    const id = addresses[a]?.property_external_identifier;
    if (typeof id !== 'string') continue;
    if (seen.has(id)) {
      fail(
        run,
        `${prefix}supply_addresses.${a}.property_external_identifier`,
        'duplicate_property_external_identifiers',
        'An earlier supply address already has this property identifier.',
      );
    } else seen.add(id);
  }
};

const uniqueReferenceNamespaces: Check = (out, prefix, run) => {
  const seen = new Set<unknown>();
  const references = objectsOf(out.portfolio_references);
  for (let r = 0; r < references.length; r++) {
    const namespace = references[r]?.namespace;
    if (namespace === undefined) continue;
    if (seen.has(namespace)) {
      fail(
        run,
        `${prefix}portfolio_references.${r}.namespace`,
        'duplicate_portfolio_references',
        'An earlier portfolio reference already uses this namespace.',
      );
    } else seen.add(namespace);
  }
};

const accountPortfolio: Check = (out, prefix, run, input) => {
  const references = input.portfolio_references;
  const none = references === undefined || (Array.isArray(references) && references.length === 0);
  // A supplier that has a new portfolio created for each account takes no reference at all.
  if (isObject(out.portfolio_settings) && none && !supplierSetting(run, 'create_new_portfolios')) {
    fail(
      run,
      `${prefix}portfolio_references`,
      'portfolio_references_missing',
      'A portfolio with settings needs a portfolio reference.',
    );
  }
  uniqueReferenceNamespaces(out, prefix, run, input);
};

// ---------------------------------------------------------------- smaller objects

const campaign: Check = (out, prefix, run, input) => {
  const [name, slug] = [holdsData(input.campaign_name), holdsData(input.slug)];
  if (name && slug) {
    if (typeof out.campaign_name === 'string' && typeof out.slug === 'string') {
      fail(
        run,
        `${prefix}campaign_name`,
        'campaign_name_and_slug_provided',
        'Identify the campaign by slug or by campaign_name, not both.',
      );
    }
  } else if (!name && !slug) {
    fail(
      run,
      objectPath(prefix),
      'campaign_name_or_slug_not_provided',
      'Identify the campaign by slug (or the older campaign_name).',
    );
  }
  const { start_date: start, expiry_date: expiry } = out;
  if (typeof start === 'string' && typeof expiry === 'string' && expiry <= start) {
    fail(
      run,
      `${prefix}expiry_date`,
      'start_date_same_as_end_date',
      'The campaign must expire after it starts.',
    );
  }
};

const taxExemption: Check = (out, prefix, run) => {
  const { effective_from: from, effective_to: to } = out;
  if (typeof from === 'string' && typeof to === 'string' && to <= from) {
    fail(
      run,
      `${prefix}effective_to`,
      'start_date_same_as_end_date',
      'An exemption must end after the day it starts.',
    );
  }
};

const priorityNeed: Check = (_out, prefix, run, input) => {
  if (!holdsData(input.elec_industry_code) && !holdsData(input.gas_industry_code)) {
    fail(
      run,
      objectPath(prefix),
      'psr_industry_code_not_provided',
      'Give an electricity or a gas industry code.',
    );
  }
};

const smartInterest: Check = (out, prefix, run) => {
  if (out.type === 'INTERESTED' && out.refusal_reason !== undefined) {
    fail(
      run,
      `${prefix}refusal_reason`,
      'smart_refusal_reason_given_for_interest',
      'Someone interested in a smart meter has no reason to refuse one.',
    );
  }
};

const propertyAdministrators: Check = (_out, prefix, run, input) => {
  const administrators = listOf(input.property_administrators);
  for (let i = 1; i < administrators.length; i++) {
    fail(
      run,
      `${prefix}property_administrators.${i}`,
      'multiple_property_administrators',
      'A supply address has one property administrator at most.',
    );
  }
};

const contractIdentifier: Check = (_out, prefix, run, input) => {
  const single = input.business_contract_identifier;
  const given =
    nonEmpty(input.business_contract_identifiers) ||
    (single !== undefined && !(typeof single === 'string' && single.trim() === ''));
  if (!given) {
    fail(
      run,
      `${prefix}business_contract_identifiers`,
      'missing_contract_identifier',
      'Give at least one business contract identifier.',
    );
  }
};

/** One rule running `checks` in order. */
function rule(codes: readonly string[], ...checks: Check[]): ObjectRule {
  return {
    codes,
    check: (out: Parent, prefix: string, run: Run, input: Parent) => {
      for (const check of checks) check(out, prefix, run, input);
    },
  };
}

const PERSON_CODES = [
  'customer_details_and_user_details_both_provided',
  'contact_details_for_occupier',
  'customer_may_not_be_named_the_occupier',
];

export const PARTY_RULES: ObjectRules = {
  EnergyAccount: rule(
    [
      'multiple_account_types_selected',
      'portfolio_lead_has_a_supply_address',
      'system_account_has_a_supply_address',
      'portfolio_settings_included_when_not_lead',
      'occupier_account_with_multiple_supply_addresses',
      'dd_reference_for_occupier_account',
      'billing_address_not_provided',
      BUSINESS_FIELDS,
      'tax_exemptions_provided_for_domestic_account',
      'account_billing_options_provided_for_domestic_accounts',
      'customer_family_name_required',
      'business_account_missing_customers',
      'business_account_missing_billing_options',
      'next_bill_to_date_not_provided_for_quarterly_billing',
      'customer_details_and_user_details_both_provided',
      'duplicate_property_external_identifiers',
    ],
    oneAccountType,
    noSupplyForLeadOrSystem,
    portfolioSettingsOnLead,
    occupierAccount,
    billingAddressGiven,
    domesticAccount,
    businessAccount,
    quarterlyBilling,
    usersMatchCustomers,
    propertyIdentifiers,
  ),
  EnergyCustomer: rule(
    [...PERSON_CODES, 'required_user_role', 'fields_are_mutually_exclusive'],
    person,
    customerRolesAndConsents,
  ),
  BusinessUser: rule(PERSON_CODES, person),
  AccountPortfolio: rule(
    ['portfolio_references_missing', 'duplicate_portfolio_references'],
    accountPortfolio,
  ),
  BusinessPortfolio: rule(['duplicate_portfolio_references'], uniqueReferenceNamespaces),
  AccountCampaign: rule(
    [
      'campaign_name_and_slug_provided',
      'campaign_name_or_slug_not_provided',
      'start_date_same_as_end_date',
    ],
    campaign,
  ),
  EnergyTaxExemption: rule(['start_date_same_as_end_date'], taxExemption),
  EnergyPSR: rule(['psr_industry_code_not_provided'], priorityNeed),
  EnergySmartRefusalInterest: rule(['smart_refusal_reason_given_for_interest'], smartInterest),
  EnergyLegacySupplyAddress: rule(['multiple_property_administrators'], propertyAdministrators),
  BusinessWithExistingContracts: rule(['missing_contract_identifier'], contractIdentifier),
};
