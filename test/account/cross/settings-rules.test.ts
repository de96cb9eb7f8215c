/**
 * The rules that read the platform's settings and the import supplier's rule settings: each
 * refuses the published full account, changed to give what the setting forbids, under that
 * setting, and the same account passes under the defaults (or, for a check the default has on,
 * with the setting changed).
 */
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../../src/account/account.js';
import { platformData, platformView } from '../../../src/platform/platform-data.js';
import { demoCatalogue } from '../../../src/reference/reference.demo.js';
import {
  DEFAULT_PLATFORM_SETTINGS,
  type PlatformSettings,
  type SupplierSettings,
} from '../../../src/settings/settings.declared.js';
import { testPlatform } from '../../helpers/platform.js';
import {
  context,
  customerOf,
  errorsOf,
  fullAccount,
  meterPointOf,
  supplyAddressOf,
  type Json,
} from '../full-account.js';
import { HAS_REFERENCE } from '../reference.js';

const catalogue = demoCatalogue();

/** The errors of `account` under these platform settings (the others at their defaults). */
function underPlatform(account: Json, settings: Partial<PlatformSettings>) {
  const data = platformData(catalogue, 1, { ...DEFAULT_PLATFORM_SETTINGS, ...settings });
  const platform = platformView(data, '{}');
  const result = validateEnergyAccount(account, { ...context, platform });
  return result.ok ? [] : result.errors.map(({ attr, code }) => ({ attr, code }));
}

/** The errors of `account` for a supplier with these rule settings. */
function underSupplier(account: Json, settings: Partial<SupplierSettings>) {
  const platform = testPlatform(JSON.stringify(settings));
  const result = validateEnergyAccount(account, { ...context, platform });
  return result.ok ? [] : result.errors.map(({ attr, code }) => ({ attr, code }));
}

const one = (attr: string, code: string) => [{ attr, code }];
const schedules = (account: Json) => account.payment_schedules as Json[];

describe.skipIf(!HAS_REFERENCE)('rules on platform settings', () => {
  it('refuses a managed account where managed accounts are not allowed', () => {
    const account = { ...fullAccount(), account_type: 'MANAGED' };
    const off = { managed_accounts_allowed: false };
    expect(underPlatform(account, off)).toEqual(
      one('account_type', 'managed_accounts_are_not_allowed'),
    );
    expect(errorsOf(account)).toEqual([]);
    const flagged: Json = { ...fullAccount(), is_managed: true };
    delete flagged.account_type;
    expect(underPlatform(flagged, off)).toEqual(
      one('is_managed', 'managed_accounts_are_not_allowed'),
    );
    expect(underPlatform(fullAccount(), off)).toEqual([]);
  });

  it('refuses consents, on the account or a customer, where they are not enabled', () => {
    const consent = { type: 'MARKETING_EMAIL', value: 'ACCEPTED' };
    const account = { ...fullAccount(), consents: [consent] };
    const customer = customerOf(account);
    delete customer.customer_preferences;
    customer.consents = [consent];
    expect(underPlatform(account, { consents_enabled: false })).toEqual([
      { attr: 'customers.0.consents', code: 'field_not_enabled' },
      { attr: 'consents', code: 'field_not_enabled' },
    ]);
    expect(errorsOf(account)).toEqual([]);
    account.consents = [];
    customer.consents = [];
    expect(underPlatform(account, { consents_enabled: false })).toEqual([]);
  });

  it('refuses a CAIS reference where they are not supported', () => {
    const account = fullAccount();
    (account.debts as Json[])[0]!.cais_reference = 'CAIS-0001';
    expect(underPlatform(account, { cais_references_supported: false })).toEqual(
      one('debts.0.cais_reference', 'cais_references_not_supported'),
    );
    expect(errorsOf(account)).toEqual([]);
  });

  it('refuses a payment day outside the days the platform takes, both ends included', () => {
    const account = fullAccount(); // schedules on days 10 and 2
    const code = 'invalid_payment_day_for_payment_schedule';
    expect(underPlatform(account, { payment_day_min: 3 })).toEqual(
      one('payment_schedules.1.day_of_month', code),
    );
    expect(underPlatform(account, { payment_day_max: 9 })).toEqual(
      one('payment_schedules.0.day_of_month', code),
    );
    expect(underPlatform(account, { payment_day_min: 2, payment_day_max: 10 })).toEqual([]);
  });

  it('refuses a fixed schedule amount below the lowest the platform takes', () => {
    const account = fullAccount(); // fixed schedules of 6.00 and 60.00
    expect(underPlatform(account, { fixed_payment_schedule_min_amount: '6.01' })).toEqual(
      one('payment_schedules.0.amount', 'fixed_payment_schedule_amount_out_of_range'),
    );
    expect(underPlatform(account, { fixed_payment_schedule_min_amount: '6' })).toEqual([]);
    // A bill-triggered schedule is not fixed.
    Object.assign(schedules(account)[0]!, { trigger: 'BILL' });
    delete schedules(account)[0]!.day_of_month;
    delete schedules(account)[0]!.frequency;
    expect(underPlatform(account, { fixed_payment_schedule_min_amount: '6.01' })).toEqual([]);
  });

  it("refuses the platform's own addresses as a customer's, in any letter case", () => {
    const account: Json = { ...fullAccount(), billing_email: 'Info@Platform.info' };
    account.business = {
      users: [
        {
          given_name: 'Ann',
          family_name: 'Lee',
          email: 'billing@platform.info',
          business_roles: ['ADMIN'],
        },
      ],
    };
    const internal = ['info@platform.info', 'billing@platform.info', 'bob@jablonski.com'];
    expect(underPlatform(account, { internal_email_addresses: internal })).toEqual([
      { attr: 'business.users.0.email', code: 'internal_email_address' },
      { attr: 'customers.0.email', code: 'internal_email_address' },
      { attr: 'billing_email', code: 'internal_email_address' },
    ]);
    expect(errorsOf(account)).toEqual([]);
  });

  it('refuses billing document identifiers on historical transactions where not enabled', () => {
    const account = fullAccount();
    const ledger = (account.ledgers as Json[])[0]!;
    for (const tx of ledger.historical_statement_transactions as Json[]) {
      tx.billing_document_identifier = 'BD-1';
    }
    const code =
      'historical_statement_billing_document_identifier_not_allowed_when_feature_flag_disabled';
    const at = 'ledgers.0.historical_statement_transactions';
    expect(underPlatform(account, { billing_document_identifiers_enabled: false })).toEqual([
      { attr: `${at}.0.billing_document_identifier`, code },
      { attr: `${at}.1.billing_document_identifier`, code },
    ]);
    expect(errorsOf(account)).toEqual([]);
  });

  it('refuses an instruction without a start date unless incomplete payments are enabled', () => {
    const instruction = { type: 'DIRECT_DEBIT', vendor: 'STRIPE', reference: 'MD-0001' };
    const account: Json = {
      ...fullAccount(),
      payment_instructions: [{ ...instruction, valid_from: null }],
    };
    expect(errorsOf(account)).toEqual(
      one('payment_instructions.0.valid_from', 'incomplete_payments_not_enabled'),
    );
    expect(underPlatform(account, { incomplete_payments_enabled: true })).toEqual([]);
    account.payment_instructions = [instruction];
    expect(errorsOf(account)).toEqual([]);
  });

  it('wants each namespace the platform requires, in user_details or details', () => {
    const account = fullAccount();
    const required = { required_customer_detail_namespaces: ['external_user_id'] };
    const code = 'required_customer_details_namespace_missing';
    expect(underPlatform(account, required)).toEqual(one('customers.0.user_details', code));
    expect(errorsOf(account)).toEqual([]);
    customerOf(account).details = { loyalty_tier: 'gold' };
    expect(underPlatform(account, required)).toEqual(one('customers.0.details', code));
    customerOf(account).details = { external_user_id: 'U-1' };
    expect(underPlatform(account, required)).toEqual([]);
    delete customerOf(account).details;
    customerOf(account).user_details = [{ namespace: 'external_user_id', value: 'U-1' }];
    expect(underPlatform(account, required)).toEqual([]);
  });

  it('refuses a document path naming no uploaded file where the file store is checked', () => {
    const on = { document_path_check_enabled: true };
    // The demo catalogue holds the full account's documents as uploaded files.
    expect(underPlatform(fullAccount(), on)).toEqual([]);
    const account = fullAccount();
    const notes = account.notes as Json[];
    const statements = account.statements as Json[];
    (notes[0] as Json).document_paths = [
      { document_path: 'notes/1234/attachment.jpg' },
      { document_path: '/notes/1234/other.jpg' },
    ];
    (statements[1] as Json).statement_path = '/EXTERNAL-1234/missing.pdf';
    expect(underPlatform(account, on)).toEqual([
      { attr: 'notes.0.document_paths.1.document_path', code: 'path_does_not_exist_in_file_store' },
      { attr: 'statements.1.statement_path', code: 'path_does_not_exist_in_file_store' },
    ]);
    expect(errorsOf(account)).toEqual([]);
    // A path of the wrong shape has its own error only.
    (statements[1] as Json).statement_path = '/EXTERNAL-1234/../x.pdf';
    expect(underPlatform(account, on)).toEqual([
      { attr: 'notes.0.document_paths.1.document_path', code: 'path_does_not_exist_in_file_store' },
      { attr: 'statements.1.statement_path', code: 'invalid_document_path' },
    ]);
  });

  it('refuses an exclusive role held with another one', () => {
    const account = fullAccount();
    const exclusive = { exclusive_user_roles: ['ADMIN'] };
    customerOf(account).account_roles = ['CARER'];
    customerOf(account).portfolio_roles = ['ADMIN'];
    expect(underPlatform(account, exclusive)).toEqual(
      one('customers.0.portfolio_roles.0', 'customer_has_exclusive_role_conflict'),
    );
    expect(errorsOf(account)).toEqual([]);
    customerOf(account).account_roles = ['ADMIN'];
    expect(underPlatform(account, exclusive)).toEqual([]);
  });
});

describe.skipIf(!HAS_REFERENCE)("rules on the import supplier's settings", () => {
  it('refuses supply addresses where no property is created', () => {
    const account = fullAccount();
    expect(underSupplier(account, { skip_property_creation: true })).toEqual(
      one('supply_addresses', 'supply_addresses_provided_while_skip_property_creation_enabled'),
    );
    expect(errorsOf(account)).toEqual([]);
    delete account.supply_addresses;
    expect(underSupplier(account, { skip_property_creation: true })).toEqual([]);
  });

  it('refuses meter points where no supply point is created, and wants them otherwise', () => {
    const account = fullAccount();
    expect(underSupplier(account, { skip_supply_point_creation: true })).toEqual(
      one(
        'supply_addresses.0.meter_points',
        'supply_points_provided_while_skip_supply_point_creation_enabled',
      ),
    );
    expect(errorsOf(account)).toEqual([]);
    const empty = { ...fullAccount(), supply_addresses: [{ ...supplyAddressOf(account) }] };
    supplyAddressOf(empty).meter_points = [];
    expect(errorsOf(empty)).toEqual(
      one(
        'supply_addresses',
        'supply_points_not_provided_while_skip_supply_point_creation_disabled',
      ),
    );
    expect(underSupplier(empty, { skip_supply_point_creation: true })).toEqual([]);
  });

  it('refuses agents to appoint where no registration flows are sent', () => {
    const account = fullAccount();
    meterPointOf(account, 0).dc_to_appoint = 'EDCA';
    meterPointOf(account, 1).mam_to_appoint = 'GMM';
    const code = 'agents_supplied_for_non_on_market_switch';
    expect(errorsOf(account)).toEqual([
      { attr: 'supply_addresses.0.meter_points.0.dc_to_appoint', code },
      { attr: 'supply_addresses.0.meter_points.1.mam_to_appoint', code },
    ]);
    expect(underSupplier(account, { send_registration_flows: true })).toEqual([]);
  });

  it('wants a given name for each customer of a business account when flows are sent', () => {
    const account = { ...fullAccount(), account_type: 'BUSINESS' };
    delete customerOf(account).given_name;
    expect(underSupplier(account, { send_registration_flows: true })).toEqual(
      one('customers.0.given_name', 'customer_given_name_required'),
    );
    expect(errorsOf(account)).toEqual([]);
    expect(
      underSupplier({ ...account, account_type: 'DOMESTIC' }, { send_registration_flows: true }),
    ).toEqual([]);
  });

  it('wants the business of a business account where business contracts are enforced', () => {
    const account: Json = { ...fullAccount(), account_type: 'BUSINESS' };
    expect(underSupplier(account, { enforce_business_contracts: true })).toEqual(
      one('business', 'business_field_required'),
    );
    expect(errorsOf(account)).toEqual([]);
    account.business = { company_name: 'Jablonski Ltd' };
    expect(underSupplier(account, { enforce_business_contracts: true })).toEqual([]);
  });

  it('refuses a portfolio named by reference where new portfolios are created', () => {
    const reference = { namespace: 'portfolio-label', value: 'P-1' };
    const account: Json = { ...fullAccount(), portfolio: { portfolio_references: [reference] } };
    expect(underSupplier(account, { create_new_portfolios: true })).toEqual(
      one('portfolio.portfolio_references', 'portfolio_references_provided'),
    );
    expect(errorsOf(account)).toEqual([]);
    account.portfolio = { billing_name: 'Bob' };
    expect(underSupplier(account, { create_new_portfolios: true })).toEqual([]);
  });

  it('refuses an operations team where the supplier allocates one itself', () => {
    const account = { ...fullAccount(), operations_team_name: 'Migrations' };
    expect(underSupplier(account, { auto_allocation_team: 'Migrations' })).toEqual(
      one('operations_team_name', 'operations_team_provided_when_using_auto_allocation'),
    );
    expect(errorsOf(account)).toEqual([]);
    expect(underSupplier(fullAccount(), { auto_allocation_team: 'Migrations' })).toEqual([]);
  });
});
