/**
 * The published account as a whole: the factory account, what normalisation changes, and
 * every problem of an account reported at once (the published example: ./example.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import {
  LANDLINE_E164,
  buildAccount,
  buildCustomer,
  buildMeterPoint,
  buildSupplyAddress,
} from './factory.js';
import { CONTEXT, expectProblem, expectProblems, problemsOf, valueOf } from './helpers.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

describe('the factory account', () => {
  it('is valid', () => {
    expect(validateEnergyAccount(buildAccount(), CONTEXT).ok).toBe(true);
  });

  it('is valid with today defaulting to the current UTC date', () => {
    const result = validateEnergyAccount(buildAccount(), TEST_ACCOUNT_CONTEXT);
    expect(result.ok).toBe(true);
  });

  it('comes out in the declared order, with published defaults and without absent fields', () => {
    const input = buildAccount({ references: undefined, metadata: undefined, notes: undefined });
    expect(Object.keys(valueOf(input))).toEqual([
      'account_type',
      'billing_address',
      'billing_email',
      'billing_name',
      'communication_preference',
      'customers',
      'external_account_number',
      'import_supplier',
      'language_preference',
      'last_billed_to_date',
      'payment_instructions',
      'sales_channel',
      'statements',
      'supply_addresses',
      'transfer_balance',
    ]);
  });

  it('is not modified by validation', () => {
    const input = buildAccount();
    const copy = structuredClone(input);
    valueOf(input);
    expect(input).toEqual(copy);
  });
});

describe('normalisation', () => {
  it('upper-cases postcodes with a single space', () => {
    const value = valueOf(
      buildAccount({
        billing_address: { country: 'GB', street_address: '1 Road', postal_code: 'ec1a1bb' },
        supply_addresses: [buildSupplyAddress({ supply_postcode: ' sw1a   1aa ' })],
      }),
    );
    expect(value.billing_address?.postal_code).toBe('EC1A 1BB');
    expect(value.supply_addresses?.[0]?.supply_postcode).toBe('SW1A 1AA');
  });

  it('trims strings before checking and storing them', () => {
    const value = valueOf(
      buildAccount({
        external_account_number: '  A-7 ',
        billing_name: '\t Ada Lovelace \n',
        customers: [buildCustomer({ given_name: '  Ada  ', email: ' ada@lovelace.co.uk ' })],
      }),
    );
    expect(value.external_account_number).toBe('A-7');
    expect(value.billing_name).toBe('Ada Lovelace');
    expect(value.customers?.[0]?.given_name).toBe('Ada');
    expect(value.customers?.[0]?.email).toBe('ada@lovelace.co.uk');
  });

  it('omits optional strings that are empty once trimmed', () => {
    const value = valueOf(buildAccount({ company_number: '   ', billing_name: '' }));
    expect(value).not.toHaveProperty('company_number');
    expect(value).not.toHaveProperty('billing_name');
  });

  it('fills in the published defaults that carry data, and no others', () => {
    const input = buildAccount();
    for (const key of ['account_type', 'communication_preference', 'language_preference']) {
      delete input[key];
    }
    const value = valueOf(input);
    expect(value.communication_preference).toBe('ONLINE');
    expect(value.sales_channel).toBe('DIRECT');
    // No default is published for these; v1 filled in DOMESTIC, en-gb and false.
    expect(value).not.toHaveProperty('account_type');
    expect(value).not.toHaveProperty('language_preference');
    expect(value).not.toHaveProperty('unknown_occupier');
    // An empty string default (document_accessibility, a customer's names) is not filled in.
    expect(value).not.toHaveProperty('document_accessibility');
    expect(value.customers?.[0]).toMatchObject({ unable_to_read_meters: false });
    const [address] = value.supply_addresses ?? [];
    expect(address?.is_landlord).toBe(false);
    const [electricity, gas] = address?.meter_points ?? [];
    expect(electricity).toMatchObject({
      is_deenergised: false,
      meters: [{ is_prepay: false, smart_type: 'NONE' }],
    });
    expect(gas).toMatchObject({ meters: [{ units_of_measure: 'SCMH', smart_type: 'NONE' }] });
  });

  it('keeps a given value over the default', () => {
    const value = valueOf(
      buildAccount({ communication_preference: 'PRINT', sales_channel: 'BROKER' }),
    );
    expect(value).toMatchObject({ communication_preference: 'PRINT', sales_channel: 'BROKER' });
  });

  it('keeps decimals exactly as given', () => {
    const value = valueOf(buildAccount({ transfer_balance: '0.1000000000' }));
    expect(value.transfer_balance).toBe('0.1000000000');
  });
});

describe('all errors together', () => {
  it('reports every problem, one error each, at its path', () => {
    const input = buildAccount({
      import_supplier: '',
      external_account_number: 'A 1',
      account_type: 'RETAIL',
      billing_email: 'nobody@example.com',
      transfer_balance: 12.5,
      foo: 1,
      customers: [
        buildCustomer({ landline: '12', date_of_birth: '2023-02-30', bar: true }),
        buildCustomer({ given_name: null, mobile: LANDLINE_E164 }),
      ],
      supply_addresses: [
        buildSupplyAddress({
          supply_postcode: 'NOPE',
          meter_points: [buildMeterPoint({ mpid: 'lond' })],
        }),
        'not an address',
      ],
    });
    expectProblems(input, [
      { code: 'blank', attr: 'import_supplier' },
      { code: 'invalid_external_account_number', attr: 'external_account_number' },
      { code: 'invalid_choice', attr: 'account_type' },
      { code: 'possible_test_email_address', attr: 'billing_email' },
      { code: 'invalid_type', attr: 'transfer_balance' },
      { code: 'unknown_field', attr: 'foo' },
      { code: 'invalid_phone_number', attr: 'customers.0.landline' },
      { code: 'invalid_date', attr: 'customers.0.date_of_birth' },
      { code: 'unknown_field', attr: 'customers.0.bar' },
      { code: 'null', attr: 'customers.1.given_name' },
      { code: 'invalid_phone_number', attr: 'customers.1.mobile' },
      { code: 'invalid_postcode', attr: 'supply_addresses.0.supply_postcode' },
      { code: 'market_participant_not_found', attr: 'supply_addresses.0.meter_points.0.mpid' },
      { code: 'invalid_type', attr: 'supply_addresses.1' },
    ]);
  });

  it('does not report nested rules of a field whose type is wrong', () => {
    expectProblem(buildAccount({ billing_address: 'Flat 2' }), 'invalid_type', 'billing_address');
    expectProblem(
      buildAccount({ supply_addresses: { 0: {} } }),
      'invalid_type',
      'supply_addresses',
    );
  });
});

describe('the top-level input', () => {
  it.each([null, 42, 'account', true, [buildAccount()]])('refuses %j with one error', (input) => {
    expect(problemsOf(input)).toEqual([{ code: 'invalid_type', attr: null }]);
  });

  it('needs only the supplier and the external account number', () => {
    // Customers and a billing address are required by rules across fields (for business and
    // non-occupier accounts), not of every account.
    expectProblems({}, [
      { code: 'required', attr: 'import_supplier' },
      { code: 'required', attr: 'external_account_number' },
    ]);
    expect(valueOf({ import_supplier: 'DEMO', external_account_number: 'A-1' })).toEqual({
      communication_preference: 'ONLINE',
      external_account_number: 'A-1',
      import_supplier: 'DEMO',
      sales_channel: 'DIRECT',
    });
  });
});
