/**
 * The account's codes looked up in the platform's reference data: campaigns, reference
 * namespaces, customer and business details, complaints, contribution schemes, debt agencies,
 * dunning paths, affiliates, partners, payment plan strategies and ledger types.
 */
import { describe, expect, it } from 'vitest';
import { platformData, platformView } from '../../../src/platform/platform-data.js';
import { catalogueOf, type ReferenceRow } from '../../../src/reference/reference.catalogue.js';
import { DEMO_REFERENCE } from '../../../src/reference/reference.demo.js';
import { buildAccount, buildAdequacyChange, buildCustomer, VALID_MPAN } from '../factory.js';
import { expectProblem, expectProblems, valueOf } from '../helpers.js';

type Json = Record<string, unknown>;

/** A context whose platform holds the demo catalogue, less `without` kinds, plus `rows`. */
const platformWith = (rows: ReferenceRow[], without: string[] = []) => ({
  platform: platformView(
    platformData(
      catalogueOf(1, [...DEMO_REFERENCE.filter(({ kind }) => !without.includes(kind)), ...rows]),
      0,
    ),
    '{}',
  ),
});

const namespace = (code: string, value_type: string): ReferenceRow => ({
  kind: 'customer_detail_namespace',
  code,
  attributes: { value_type },
});

describe('campaigns', () => {
  const campaigns = (...list: Json[]) => buildAccount({ account_campaigns: list });

  it('are found by slug', () => {
    expect(valueOf(campaigns({ slug: 'winter_support' })).account_campaigns).toHaveLength(1);
    expectProblem(
      campaigns({ slug: 'winter_support' }, { slug: 'summer_sale' }),
      'campaign_not_found',
      'account_campaigns.1.slug',
    );
  });

  it('or by the name of the campaign, when named the older way', () => {
    expect(valueOf(campaigns({ campaign_name: 'Winter Support' }))).toBeTruthy();
    expectProblem(
      campaigns({ campaign_name: 'winter_support' }),
      'campaign_not_found',
      'account_campaigns.0.campaign_name',
    );
  });
});

describe('account references', () => {
  it('name a namespace of the platform', () => {
    expectProblem(
      buildAccount({ references: [{ namespace: 'crm', value: '1' }] }),
      'invalid_reference_namespace',
      'references.0.namespace',
    );
  });

  it('are not looked up when the namespace is already refused', () => {
    expectProblem(
      buildAccount({ references: [{ namespace: 'n'.repeat(51), value: '1' }] }),
      'max_length',
      'references.0.namespace',
    );
  });
});

describe('customer details', () => {
  const withCustomer = (fields: Json) => buildAccount({ customers: [buildCustomer(fields)] });

  it('name a registered namespace', () => {
    expectProblem(
      withCustomer({ details: { shoe_size: 'gold' } }),
      'customer_detail_not_registered',
      'customers.0.details.shoe_size',
    );
    expectProblem(
      withCustomer({ user_details: [{ namespace: 'external_user_id', value: 'U-1' }] }),
      'customer_detail_not_registered',
      'customers.0.user_details.0.namespace',
      platformWith([], ['customer_detail_namespace']),
    );
  });

  it("give a value of the namespace's type", () => {
    expect(
      valueOf(withCustomer({ user_details: [{ namespace: 'external_user_id', value: 'U-1' }] })),
    ).toBeTruthy();
    expectProblem(
      withCustomer({ user_details: [{ namespace: 'external_user_id', value: 42 }] }),
      'customer_detail_incorrect_value_type',
      'customers.0.user_details.0.value',
    );
    expectProblem(
      withCustomer({ details: { external_user_id: ['U-1'] } }),
      'customer_detail_incorrect_value_type',
      'customers.0.details.external_user_id',
    );
  });

  it('give a valid value of that type', () => {
    const context = platformWith([
      namespace('moved_in_on', 'DATE'),
      namespace('contact_days', 'LIST'),
      namespace('household_size', 'INTEGER'),
    ]);
    const good = { moved_in_on: '2024-02-29', contact_days: ['MON', 'TUE'], household_size: 3 };
    expect(valueOf(withCustomer({ details: good }), context)).toBeTruthy();
    expectProblems(
      withCustomer({
        details: { moved_in_on: '2023-02-29', contact_days: ['MON', 2], household_size: 2.5 },
      }),
      [
        { code: 'customer_detail_failed_validation', attr: 'customers.0.details.moved_in_on' },
        { code: 'customer_detail_failed_validation', attr: 'customers.0.details.contact_days' },
        { code: 'customer_detail_failed_validation', attr: 'customers.0.details.household_size' },
      ],
      context,
    );
    expectProblem(
      withCustomer({ user_details: [{ namespace: 'external_user_id', value: '  ' }] }),
      'customer_detail_failed_validation',
      'customers.0.user_details.0.value',
    );
  });

  it('are an object of namespaces when sent the older way', () => {
    expectProblem(
      withCustomer({ details: 'U-1' }),
      'customer_detail_failed_validation',
      'customers.0.details',
    );
  });

  it('of a business user are checked alike', () => {
    const account = buildAccount({
      account_type: 'BUSINESS',
      business: {
        company_name: 'Acme',
        users: [{ business_roles: ['ADMIN'], details: { external_user_id: 7 } }],
      },
    });
    expectProblem(
      account,
      'customer_detail_incorrect_value_type',
      'business.users.0.details.external_user_id',
    );
  });
});

describe('business details', () => {
  const withDetails = (...details: Json[]) =>
    buildAccount({ account_type: 'BUSINESS', business: { company_name: 'Acme', details } });

  it("give a value of the key's type", () => {
    expect(
      valueOf(
        withDetails(
          { key: 'sic_codes', value: ['35110'] },
          { key: 'vat_number', value: 'GB123456789' },
        ),
      ),
    ).toBeTruthy();
    expectProblem(
      withDetails({ key: 'sic_codes', value: '35110' }),
      'business_detail_incorrect_value_type',
      'business.details.0.value',
    );
  });

  it('give a valid value of that type, for a registered key', () => {
    expectProblem(
      withDetails({ key: 'sic_codes', value: ['35110', 35120] }),
      'business_detail_failed_validation',
      'business.details.0.value',
    );
    const unregistered = platformWith(
      [{ kind: 'business_detail_key', code: 'sic_codes', attributes: { value_type: 'LIST' } }],
      ['business_detail_key'],
    );
    expectProblem(
      withDetails({ key: 'vat_number', value: 'GB123456789' }),
      'business_detail_failed_validation',
      'business.details.0.key',
      unregistered,
    );
  });
});

describe('complaints', () => {
  const contact = {
    body: 'Called about the bill.',
    communication_method: 'LANDLINE',
    communication_source: 'PHONE',
    created_at: '2025-01-10T10:05:00Z',
    status: 'OPEN',
  };
  const complaint = (more: Json) =>
    buildAccount({
      complaints: [
        {
          complainant_email: 'ada@lovelace.co.uk',
          complainant_name: 'Ada Lovelace',
          complaint_contacts: [contact],
          created_at: '2025-01-10T10:00:00Z',
          has_chsr_letter_been_sent: true,
          has_eight_week_letter_been_sent: true,
          subtype_of_complaint: 'BILLING_ACCURACY',
          type_of_complaint: 'BILLING',
          ...more,
        },
      ],
    });
  const official = {
    official_entity: 'OMBUDSMAN',
    official_reference_number: 'OS-123',
    official_status: 'INVESTIGATING',
  };

  it('name a type of the platform, and one of its subtypes', () => {
    expect(valueOf(complaint(official))).toBeTruthy();
    expectProblem(
      complaint({ type_of_complaint: 'PRAISE' }),
      'invalid_complaint_type_or_subtype',
      'complaints.0.type_of_complaint',
    );
    expectProblem(
      complaint({ subtype_of_complaint: 'SMART_METER' }),
      'invalid_complaint_type_or_subtype',
      'complaints.0.subtype_of_complaint',
    );
  });

  it('name an official organisation of the platform, and one of its statuses', () => {
    expectProblem(
      complaint({ ...official, official_entity: 'REGULATOR' }),
      'invalid_official_organization_or_status',
      'complaints.0.official_entity',
    );
    expectProblem(
      complaint({ ...official, official_entity: 'CITIZENS_ADVICE' }),
      'invalid_official_organization_or_status',
      'complaints.0.official_status',
    );
  });

  it('name a source of the platform for each contact', () => {
    expectProblem(
      complaint({ complaint_contacts: [contact, { ...contact, communication_source: 'FAX' }] }),
      'invalid_complaint_source',
      'complaints.0.complaint_contacts.1.communication_source',
    );
  });
});

it('names a contribution scheme of the platform', () => {
  const agreement = (scheme: string) => ({
    scheme,
    active_period_start_date: '2024-01-01',
    amount: '5.00',
    interval: 'MONTHLY',
  });
  expect(valueOf(buildAccount({ contribution_agreements: [agreement('WARM')] }))).toBeTruthy();
  expectProblem(
    buildAccount({ contribution_agreements: [agreement('WARM'), agreement('HEAT')] }),
    'invalid_contribution_scheme',
    'contribution_agreements.1.scheme',
  );
});

it('names a debt collection agency of the platform, with or without a start date', () => {
  expectProblem(
    buildAccount({ debts: [{ agency_name: 'Collectors Ltd' }] }),
    'debt_collection_agency_does_not_exist',
    'debts.0.agency_name',
  );
  expectProblem(
    buildAccount({ debt: { agency_name: 'Collectors Ltd', start_date: '2024-05-01' } }),
    'debt_collection_agency_does_not_exist',
    'debt.agency_name',
  );
});

it('names a dunning path of the platform', () => {
  expect(
    valueOf(buildAccount({ dunning_path: { path_name: 'vulnerable_domestic' } })),
  ).toBeTruthy();
  expectProblem(
    buildAccount({ dunning_path: { path_name: 'fast_track' } }),
    'dunning_path_not_found',
    'dunning_path.path_name',
  );
});

it('names an affiliate organisation of the platform on a commission contract', () => {
  const contract = (affiliate_organisation_name: string) => ({
    affiliate_organisation_name,
    effective_from: '2024-01-01',
    effective_to: '2024-12-31',
    mpxn: VALID_MPAN,
    status: 'PAID',
  });
  expect(valueOf(buildAccount({ commission_contracts: [contract('Broker Ltd')] }))).toBeTruthy();
  expectProblem(
    buildAccount({ commission_contracts: [contract('Broker Limited')] }),
    'affiliate_organisation_does_not_exist',
    'commission_contracts.0.affiliate_organisation_name',
  );
});

it('names a partner organisation of the platform by its number', () => {
  const partner = (organisation_number: string) => ({
    organisation_number,
    role: 'LANDLORD',
    valid_from: '2024-01-01T00:00:00Z',
    valid_to: '2025-01-01T00:00:00Z',
  });
  expect(valueOf(buildAccount({ partner_organisations: [partner('ORG-0002')] }))).toBeTruthy();
  expectProblem(
    buildAccount({ partner_organisations: [partner('ORG-9999')] }),
    'partner_organisation_does_not_exist',
    'partner_organisations.0.organisation_number',
  );
});

it('names a payment plan strategy of the platform', () => {
  const plan = (strategy_name: string) =>
    buildAccount({
      payment_plans: [
        {
          accepted_at: '2025-06-01T00:00:00Z',
          schedule_means: 'DD',
          strategy_name,
          payments: [
            {
              payment_date: '2025-07-01',
              total_amount: 25,
              amount_components: [{ amount: 25, component_type: 'ENERGY' }],
            },
          ],
        },
      ],
    });
  expect(valueOf(plan('affordability'))).toBeTruthy();
  expectProblem(
    plan('lenient'),
    'payment_plan_strategy_does_not_exist',
    'payment_plans.0.strategy_name',
  );
});

describe('ledger codes', () => {
  const code = 'ledger_code_does_not_exist';

  it("name a ledger type of the platform on the account's ledgers", () => {
    expectProblem(
      buildAccount({ ledgers: [{ ledger_code: 'ENERGY' }, { ledger_code: 'HEATING' }] }),
      code,
      'ledgers.1.ledger_code',
    );
  });

  it('and on payment instructions and schedules', () => {
    const instruction = { type: 'DIRECT_DEBIT', vendor: 'STRIPE', reference: 'MD-0001' };
    expect(
      valueOf(
        buildAccount({ payment_instructions: [{ ...instruction, ledger_code: 'SERVICES' }] }),
      ),
    ).toBeTruthy();
    expectProblem(
      buildAccount({ payment_instructions: [{ ...instruction, ledger_code: 'MAIN' }] }),
      code,
      'payment_instructions.0.ledger_code',
    );
    const schedule = {
      amount: '50.00',
      day_of_month: 1,
      frequency: 'MONTHLY',
      means: 'DD',
      start_date: '2024-01-01',
      ledger_code: 'MAIN',
    };
    expectProblem(
      buildAccount({ payment_schedules: [schedule] }),
      code,
      'payment_schedules.0.ledger_code',
    );
  });

  it('and on the ledger of a payment adequacy change', () => {
    const change = buildAdequacyChange({ ledger: { ledger_code: 'MAIN' } });
    expectProblem(
      buildAccount({ payment_adequacy_changes: [change] }),
      code,
      'payment_adequacy_changes.0.ledger.ledger_code',
    );
  });
});
