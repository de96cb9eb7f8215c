/**
 * The rules about who an account is for: its type, customers and business users, occupiers,
 * businesses, portfolios, properties, priority needs, smart interest, exemptions, campaigns.
 */
import { describe, expect, it } from 'vitest';
import { buildAccount, buildCustomer, buildMeterPoint, buildSupplyAddress } from '../factory.js';
import { expectProblem, expectProblems, valueOf } from '../helpers.js';
import { testPlatform } from '../../helpers/platform.js';

type Json = Record<string, unknown>;

const business = (fields: Json = {}) => buildAccount({ account_type: 'BUSINESS', ...fields });
const occupier = (fields: Json = {}) =>
  buildAccount({
    unknown_occupier: true,
    customers: [],
    supply_addresses: [buildSupplyAddress()],
    ...fields,
  });
/** The factory account (or `account`'s changes) with one meter point built from `fields`. */
const withMeterPoint = (fields: Json, account: Json = {}) =>
  buildAccount({
    ...account,
    supply_addresses: [buildSupplyAddress({ meter_points: [buildMeterPoint(fields)] })],
  });
const POINT = 'supply_addresses.0.meter_points.0';
const user = (fields: Json = {}) => ({ business_roles: ['ADMIN'], ...fields });
const label = (value: string) => ({ namespace: 'portfolio-label', value });
/** A supplier that links its accounts to the business their contracts name. */
const LINKING = {
  platform: testPlatform(JSON.stringify({ link_account_to_business_with_contract: true })),
};
const lead = (fields: Json = {}) =>
  buildAccount({ account_type: 'PORTFOLIO_LEAD', supply_addresses: undefined, ...fields });

describe('account type', () => {
  it('refuses a selection naming another type, at the first one that does', () => {
    expectProblem(
      buildAccount({ is_managed: true }),
      'multiple_account_types_selected',
      'is_managed',
    );
    expectProblems(
      buildAccount({
        account_type: undefined,
        is_managed: true,
        is_portfolio_lead: true,
        supply_addresses: undefined,
      }),
      [{ code: 'multiple_account_types_selected', attr: 'is_portfolio_lead' }],
    );
  });
  it('takes selections naming the same type', () => {
    const value = valueOf(buildAccount({ account_type: 'MANAGED', is_managed: true }));
    expect(value.is_managed).toBe(true);
    expect(valueOf(buildAccount({ is_managed: false })).is_managed).toBe(false);
  });
  it('refuses supply addresses on a portfolio lead or a system account', () => {
    const lead = 'portfolio_lead_has_a_supply_address';
    expectProblem(buildAccount({ account_type: 'PORTFOLIO_LEAD' }), lead, 'supply_addresses');
    expectProblem(
      buildAccount({ account_type: undefined, is_portfolio_lead: true }),
      lead,
      'supply_addresses',
    );
    expectProblem(
      buildAccount({ account_type: 'SYSTEM' }),
      'system_account_has_a_supply_address',
      'supply_addresses',
    );
    expect(valueOf(buildAccount({ account_type: 'SYSTEM', supply_addresses: [] }))).toBeDefined();
  });
});

describe('occupier accounts', () => {
  it('take one supply address at most', () => {
    expectProblems(
      buildAccount({
        unknown_occupier: true,
        customers: [],
        supply_addresses: [
          buildSupplyAddress(),
          buildSupplyAddress({ supply_address1: '1 Other Road', meter_points: [] }),
          buildSupplyAddress({ supply_address1: '2 Other Road', meter_points: [] }),
        ],
      }),
      [
        { code: 'occupier_account_with_multiple_supply_addresses', attr: 'supply_addresses.1' },
        { code: 'occupier_account_with_multiple_supply_addresses', attr: 'supply_addresses.2' },
      ],
    );
    expect(valueOf(occupier()).supply_addresses).toHaveLength(1);
  });
  it('refuse a direct debit reference, whether flagged or typed', () => {
    const code = 'dd_reference_for_occupier_account';
    expectProblem(occupier({ dd_reference: 'DD-1' }), code, 'dd_reference');
    expectProblem(
      buildAccount({
        account_type: 'DOMESTIC_OCCUPIER',
        supply_addresses: [buildSupplyAddress()],
        dd_reference: 'DD-1',
      }),
      code,
      'dd_reference',
    );
    expect(valueOf(buildAccount({ dd_reference: 'DD-1' })).dd_reference).toBe('DD-1');
  });
});

describe('billing address', () => {
  const code = 'billing_address_not_provided';
  it('is needed, in one form, by a typed account whose occupier is known', () => {
    expectProblems(buildAccount({ billing_address: undefined }), [
      { code, attr: 'billing_address1' },
      { code, attr: 'billing_postcode' },
    ]);
    expectProblem(
      buildAccount({
        billing_address: undefined,
        billing_address1: '1 Road',
        billing_postcode: ' ',
      }),
      code,
      'billing_postcode',
    );
    const legacy = {
      billing_address: undefined,
      billing_address1: '1 Road',
      billing_postcode: 'M1 1AE',
    };
    expect(valueOf(buildAccount(legacy)).billing_postcode).toBe('M1 1AE');
  });
  it('is not needed by an occupier account or one naming no type', () => {
    expect(valueOf(occupier({ billing_address: undefined }))).not.toHaveProperty('billing_address');
    const untyped = buildAccount({ account_type: undefined, billing_address: undefined });
    expect(valueOf(untyped)).not.toHaveProperty('billing_address');
  });
});

describe('domestic accounts', () => {
  const code = 'business_fields_provided_for_domestic_accounts';
  it('refuse business details wherever given', () => {
    expectProblem(buildAccount({ business_type: 'LTD' }), code, 'business_type');
    expectProblem(buildAccount({ company_number: '1234567' }), code, 'company_number');
    expectProblems(
      buildAccount({
        business: { company_name: 'Acme', business_type: 'LTD', company_number: 'SC1' },
      }),
      [
        { code, attr: 'business.business_type' },
        { code, attr: 'business.company_number' },
      ],
    );
    const fields = { business_type: 'LTD', company_number: '1234567' };
    expect(valueOf(business(fields)).company_number).toBe('01234567');
  });
  it('refuse bespoke rates', () => {
    const agreements = [
      {
        tariff_code: 'E-1R-VAR-22-11-01-C',
        effective_from: '2022-11-01',
        bespoke_tariff_rates: [
          { standing_charge: '20.5', registers: [{ unit_rate: '0.25', register_id: '1' }] },
        ],
      },
    ];
    expectProblem(
      withMeterPoint({ agreements }),
      code,
      `${POINT}.agreements.0.bespoke_tariff_rates`,
    );
    expect(valueOf(withMeterPoint({ agreements }, { account_type: 'BUSINESS' }))).toBeDefined();
  });
  it('refuse tax exemptions', () => {
    const vat_exemptions = [{ effective_from: '2020-01-01', rate: '0.5' }];
    const ccl_exemptions = [{ effective_from: '2020-01-01', rate: '1' }];
    expectProblems(withMeterPoint({ vat_exemptions, ccl_exemptions }), [
      { code: 'tax_exemptions_provided_for_domestic_account', attr: `${POINT}.ccl_exemptions` },
      { code: 'tax_exemptions_provided_for_domestic_account', attr: `${POINT}.vat_exemptions` },
    ]);
    const account = withMeterPoint({ vat_exemptions }, { account_type: 'BUSINESS' });
    expect(valueOf(account).supply_addresses).toHaveLength(1);
  });
  it('refuse billing options', () => {
    const options = { account_billing_options: { use_industry_billing: true } };
    expectProblem(
      buildAccount(options),
      'account_billing_options_provided_for_domestic_accounts',
      'account_billing_options',
    );
    expect(valueOf(business(options)).account_billing_options).toBeDefined();
  });
  it('need a family name for each customer', () => {
    const customers = [buildCustomer(), buildCustomer({ family_name: '', email: 'b@c.co.uk' })];
    expectProblem(
      buildAccount({ customers }),
      'customer_family_name_required',
      'customers.1.family_name',
    );
    expect(valueOf(business({ customers })).customers).toHaveLength(2);
  });
});

describe('business accounts', () => {
  it('need customers unless the occupier is unknown', () => {
    expectProblem(business({ customers: [] }), 'business_account_missing_customers', 'customers');
    expectProblem(
      business({ customers: undefined }),
      'business_account_missing_customers',
      'customers',
    );
    expect(valueOf(occupier({ account_type: 'BUSINESS' })).account_type).toBe('BUSINESS');
  });
  it('call a customer sent without a family name "Business", keeping one given', () => {
    const customers = [
      buildCustomer({ family_name: undefined }),
      buildCustomer({ family_name: '  ', email: 'b@c.co.uk' }),
      buildCustomer({ family_name: 'Smith', email: 'c@c.co.uk' }),
    ];
    const names = (account: Json) =>
      (account.customers as Json[]).map((customer) => customer.family_name);
    const once = valueOf(business({ customers }));
    expect(names(once)).toEqual(['Business', 'Business', 'Smith']);
    // The normalised account validates to itself.
    expect(valueOf(once)).toEqual(once);
    // The same person as a business user who gives a family name keeps that one alone.
    const users = [user({ email: customers[0]?.email, family_name: 'Jones' })];
    const withUser = valueOf(business({ customers, business: { company_name: 'Acme', users } }));
    expect(names(withUser)).toEqual([undefined, 'Business', 'Smith']);
    expect(valueOf(withUser)).toEqual(withUser);
  });
  it('give a period start day and length with their billing options', () => {
    const code = 'business_account_missing_billing_options';
    expectProblem(
      business({ account_billing_options: { period_length: 'MONTHLY' } }),
      code,
      'account_billing_options.period_start_day',
    );
    expectProblems(business({ account_billing_options: { period_start_day: null } }), [
      { code, attr: 'account_billing_options.period_start_day' },
      { code, attr: 'account_billing_options.period_length' },
    ]);
    const options = { period_length: 'MONTHLY', period_start_day: 1 };
    expect(valueOf(business({ account_billing_options: options }))).toBeDefined();
  });
  it('billed quarterly without industry billing, give the next bill due date', () => {
    const options = {
      period_length: 'QUARTERLY',
      period_start_day: 1,
      use_industry_billing: false,
    };
    expectProblem(
      business({ account_billing_options: options }),
      'next_bill_to_date_not_provided_for_quarterly_billing',
      'next_bill_due_date',
    );
    const value = valueOf(
      business({ account_billing_options: options, next_bill_due_date: '2025-07-01' }),
    );
    expect(value.next_bill_due_date).toBe('2025-07-01');
  });
});

describe('customers and business users', () => {
  const both = 'customer_details_and_user_details_both_provided';
  const userDetails = [{ namespace: 'external_user_id', value: 'U-1' }];
  it('send user_details or details, not both', () => {
    const customer = buildCustomer({
      user_details: userDetails,
      details: { external_user_id: 'U-1' },
    });
    expectProblem(buildAccount({ customers: [customer] }), both, 'customers.0.details');
    const users = [user({ user_details: userDetails, details: { external_user_id: 'U-1' } })];
    expectProblem(
      business({ business: { company_name: 'Acme', users } }),
      both,
      'business.users.0.details',
    );
    expect(
      valueOf(
        buildAccount({ customers: [buildCustomer({ details: { external_user_id: 'U-1' } })] }),
      ),
    ).toBeDefined();
  });
  it('agree where a business user is a customer (same e-mail address)', () => {
    const ada = { email: 'ADA@lovelace.co.uk', given_name: 'Adele', family_name: 'Lovelace' };
    expectProblem(
      business({ business: { company_name: 'Acme', users: [user(ada)] } }),
      both,
      'business.users.0.given_name',
    );
    const same = { ...ada, given_name: 'Ada' };
    expect(
      valueOf(business({ business: { company_name: 'Acme', users: [user(same)] } })),
    ).toBeDefined();
  });
  it('may not be named The Occupier', () => {
    const name = { given_name: 'the', family_name: 'Occupier' };
    const unnamed = { email: null, mobile: null, landline: null };
    expectProblem(
      buildAccount({ customers: [buildCustomer({ ...name, ...unnamed })] }),
      'customer_may_not_be_named_the_occupier',
      'customers.0.family_name',
    );
    expectProblem(
      business({ business: { users: [user({ family_name: 'The  Occupier' })] } }),
      'customer_may_not_be_named_the_occupier',
      'business.users.0.family_name',
    );
  });
  it('named The Occupier, have no contact details', () => {
    const name = { given_name: 'The', family_name: 'Occupier', mobile: null, landline: null };
    expectProblem(
      buildAccount({ customers: [buildCustomer(name)] }),
      'contact_details_for_occupier',
      'customers.0.email',
    );
    expectProblem(
      business({
        business: { users: [user({ family_name: 'The Occupier', mobile: '07400 123456' })] },
      }),
      'contact_details_for_occupier',
      'business.users.0.mobile',
    );
  });
  it('sending role lists, name a role', () => {
    expectProblem(
      buildAccount({ customers: [buildCustomer({ account_roles: [], portfolio_roles: [] })] }),
      'required_user_role',
      'customers.0.account_roles',
    );
    const withRole = buildCustomer({ account_roles: [], portfolio_roles: ['ADMIN'] });
    expect(valueOf(buildAccount({ customers: [withRole] }))).toBeDefined();
  });
  it('send consents or the older preferences, not both', () => {
    expectProblem(
      buildAccount({
        customers: [buildCustomer({ customer_preferences: { opted_into_sms: true } })],
      }),
      'fields_are_mutually_exclusive',
      'customers.0.customer_preferences',
    );
    const preferences = buildCustomer({ consents: undefined, customer_preferences: {} });
    expect(valueOf(buildAccount({ customers: [preferences] }))).toBeDefined();
  });
});

describe('properties and portfolios', () => {
  it('give a property identifier once across supply addresses', () => {
    const account = buildAccount();
    for (const address of account.supply_addresses as Json[]) {
      address.property_external_identifier = 'P-1';
    }
    expectProblem(
      account,
      'duplicate_property_external_identifiers',
      'supply_addresses.1.property_external_identifier',
    );
  });
  it('keep portfolio settings to a portfolio lead', () => {
    const portfolio = { portfolio_references: [label('North')], portfolio_settings: {} };
    expectProblem(
      buildAccount({ portfolio }),
      'portfolio_settings_included_when_not_lead',
      'portfolio.portfolio_settings',
    );
    expect(valueOf(lead({ portfolio })).portfolio).toBeDefined();
    expect(valueOf(buildAccount({ portfolio: { portfolio_settings: null } }))).toBeDefined();
  });
  it('need a portfolio reference with portfolio settings', () => {
    expectProblem(
      lead({ portfolio: { portfolio_settings: {}, portfolio_references: [] } }),
      'portfolio_references_missing',
      'portfolio.portfolio_references',
    );
    expect(valueOf(lead({ portfolio: { billing_name: 'North' } }))).toBeDefined();
  });
  it('use a reference namespace once per portfolio', () => {
    const portfolio_references = [label('North'), label('South')];
    expectProblem(
      lead({ portfolio: { portfolio_references } }),
      'duplicate_portfolio_references',
      'portfolio.portfolio_references.1.namespace',
    );
    expectProblem(
      business({ business: { company_name: 'Acme', portfolios: [{ portfolio_references }] } }),
      'duplicate_portfolio_references',
      'business.portfolios.0.portfolio_references.1.namespace',
    );
  });
});

describe('smaller objects', () => {
  it('a business linked by contract names a contract', () => {
    expectProblem(
      business({ business: { business_contract_identifiers: [], company_name: 'Acme' } }),
      'missing_contract_identifier',
      'business.business_contract_identifiers',
    );
    const linked = business({ business: { business_contract_identifier: 'C-1' } });
    expect(valueOf(linked, LINKING).business).toEqual({ business_contract_identifier: 'C-1' });
  });
  it('a business with contracts gives its information only where the supplier does not link by contract', () => {
    const contracts = { business_contract_identifiers: ['C-1'] };
    valueOf(business({ business: { ...contracts, company_name: 'Acme' } }));
    expectProblem(
      business({ business: contracts }),
      'business_information_required_if_not_linking_via_contract',
      'business',
    );
    // An empty list tells nothing of the business either.
    expectProblem(
      business({ business: { ...contracts, users: [] } }),
      'business_information_required_if_not_linking_via_contract',
      'business',
    );
    valueOf(business({ business: contracts }), LINKING);
    expectProblems(
      business({ business: { ...contracts, company_name: 'Acme', company_number: '1234567' } }),
      [
        {
          code: 'business_information_not_required_if_linking_via_contract',
          attr: 'business.company_name',
        },
        {
          code: 'business_information_not_required_if_linking_via_contract',
          attr: 'business.company_number',
        },
      ],
      LINKING,
    );
    // A field refused by its own checks is not reported again.
    expectProblem(
      business({ business: { ...contracts, company_number: '0000' } }),
      'invalid_company_number',
      'business.company_number',
      LINKING,
    );
  });
  it('a supply address has one property administrator at most', () => {
    const administrator = { given_name: 'Gil', family_name: 'Landlord' };
    expectProblem(
      buildAccount({
        supply_addresses: [
          buildSupplyAddress({ property_administrators: [administrator, administrator] }),
        ],
      }),
      'multiple_property_administrators',
      'supply_addresses.0.property_administrators.1',
    );
  });
  it('a priority need names an industry code', () => {
    expectProblem(
      buildAccount({ customers: [buildCustomer({ psr: [{ effective_from: '2020-01-01' }] })] }),
      'psr_industry_code_not_provided',
      'customers.0.psr.0',
    );
  });
  it('someone interested in a smart meter gives no refusal reason', () => {
    const interest = { type: 'INTERESTED', date: '2024-01-01', refusal_reason: 'WORRIED_SECURITY' };
    expectProblem(
      withMeterPoint({ smart_refusal_interest: interest }),
      'smart_refusal_reason_given_for_interest',
      `${POINT}.smart_refusal_interest.refusal_reason`,
    );
    const refusing = { ...interest, type: 'NOT_AT_THE_MOMENT' };
    expect(valueOf(withMeterPoint({ smart_refusal_interest: refusing }))).toBeDefined();
  });
  it('a tax exemption ends after the day it starts', () => {
    const exemption = { effective_from: '2020-01-01', effective_to: '2020-01-01', rate: '0.5' };
    const businessType = { account_type: 'BUSINESS' };
    expectProblem(
      withMeterPoint({ vat_exemptions: [exemption] }, businessType),
      'start_date_same_as_end_date',
      `${POINT}.vat_exemptions.0.effective_to`,
    );
    const next = { ...exemption, effective_to: '2020-01-02' };
    expect(valueOf(withMeterPoint({ vat_exemptions: [next] }, businessType))).toBeDefined();
  });
  it('a campaign is identified by slug or name, and expires after it starts', () => {
    const campaigns = (...list: Json[]) => buildAccount({ account_campaigns: list });
    expectProblem(
      campaigns({ slug: 'winter_support', campaign_name: 'Winter Support' }),
      'campaign_name_and_slug_provided',
      'account_campaigns.0.campaign_name',
    );
    expectProblem(
      campaigns({ slug: 'winter_support' }, { slug: '', campaign_note: 'no name' }),
      'campaign_name_or_slug_not_provided',
      'account_campaigns.1',
    );
    expectProblem(
      campaigns({ slug: 'winter_support', start_date: '2024-03-01', expiry_date: '2024-03-01' }),
      'start_date_same_as_end_date',
      'account_campaigns.0.expiry_date',
    );
    const spring = { slug: 'winter_support', start_date: '2024-03-01', expiry_date: '2024-03-02' };
    expect(valueOf(campaigns(spring)).account_campaigns).toHaveLength(1);
  });
});
