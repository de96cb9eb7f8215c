/**
 * Rules on the account's type: one type selected, what each type may have (supply addresses,
 * portfolio settings, business details, tax exemptions, billing options), occupier accounts and
 * the billing address a typed account needs. Readings taken where the publication leaves room:
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
 * - A business account needs customers unless its occupier is unknown (its billing options are
 *   in ./billing.ts). A customer of a business account sent without a family name (absent or
 *   blank; null is kept) is given the family name "Business", as the publication does, unless
 *   the business user with its e-mail address gives one.
 */
import { fail, isObject, type Parent } from '../../payload/validators.js';
import { rule, type Check, type ObjectRules } from './object-rule.js';
import {
  accountType,
  filledIn,
  isBusiness,
  isDomestic,
  isOccupier,
  listOf,
  nonEmpty,
  objectsOf,
} from './shared.js';

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
    if (isObject(customer) && !filledIn(customer.family_name) && customer.family_name !== null) {
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
};

/** What a business account's customer sent without a family name is called (published). */
const BUSINESS_FAMILY_NAME = 'Business';

/** The e-mail addresses (lower case) of the business users who give a family name. */
function usersNamed(out: Parent): Set<string> {
  const users = isObject(out.business) ? objectsOf(out.business.users) : [];
  const named = new Set<string>();
  for (const user of users) {
    if (typeof user?.email === 'string' && typeof user.family_name === 'string') {
      named.add(user.email.toLowerCase());
    }
  }
  return named;
}

/**
 * Names a business account's customers sent without a family name (see above); not one whose
 * business user (the same e-mail address, the same person: ./customers.ts) gives one, which
 * would then disagree with it.
 */
const businessFamilyNames: Check = (out) => {
  if (!isBusiness(accountType(out))) return;
  const customers = objectsOf(out.customers);
  if (!customers.some((customer) => customer !== undefined && customer.family_name === undefined)) {
    return;
  }
  const named = usersNamed(out);
  for (const customer of customers) {
    if (customer === undefined || customer.family_name !== undefined) continue;
    const email = customer.email;
    if (typeof email === 'string' && named.has(email.toLowerCase())) continue;
    // A checked object's output is a new object of its own, not the one sent.
    (customer as Record<string, unknown>).family_name = BUSINESS_FAMILY_NAME;
  }
};

/**
 * The values the account's type fills in. They run after every rule (../object-rules.ts), so
 * that no rule judges a value the sender did not give: a business user's family name is
 * compared with the customer's as sent, say.
 */
export const ACCOUNT_TYPE_DEFAULTS: ObjectRules = {
  EnergyAccount: rule([], businessFamilyNames),
};

export const ACCOUNT_TYPE_RULES: ObjectRules = {
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
    ],
    oneAccountType,
    noSupplyForLeadOrSystem,
    portfolioSettingsOnLead,
    occupierAccount,
    billingAddressGiven,
    domesticAccount,
    businessAccount,
  ),
};
