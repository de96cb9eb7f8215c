import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import {
  LANDLINE_E164,
  MOBILE_E164,
  buildAccount,
  buildCustomer,
  buildSupplyAddress,
} from './factory.js';
import { CONTEXT, expectProblem, expectProblems, problemsOf, valueOf } from './helpers.js';

describe('a valid account', () => {
  it('accepts the factory account', () => {
    expect(validateEnergyAccount(buildAccount(), CONTEXT).ok).toBe(true);
  });

  it('defaults today to the current UTC date', () => {
    const result = validateEnergyAccount(buildAccount(), {
      phoneRegion: 'GB',
      supplierFound: true,
    });
    expect(result.ok).toBe(true);
  });

  it('keeps the declared field order and omits absent optional fields', () => {
    const input = buildAccount({ references: undefined, metadata: undefined, notes: undefined });
    const value = valueOf(input);
    expect(Object.keys(value)).toEqual([
      'import_supplier',
      'external_account_number',
      'account_type',
      'unknown_occupier',
      'communication_preference',
      'language_preference',
      'billing_name',
      'billing_email',
      'billing_address',
      'transfer_balance',
      'last_billed_to_date',
      'customers',
      'supply_addresses',
      'payment_instructions',
      'statements',
    ]);
  });

  it('does not modify its input', () => {
    const input = buildAccount();
    const copy = structuredClone(input);
    valueOf(input);
    expect(input).toEqual(copy);
  });
});

describe('normalisation', () => {
  it('writes phone numbers in E.164', () => {
    const [first] = valueOf(buildAccount()).customers;
    expect(first?.mobile).toBe(MOBILE_E164);
    expect(first?.landline).toBe(LANDLINE_E164);
  });

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
    expect(value.customers[0]?.given_name).toBe('Ada');
    expect(value.customers[0]?.email).toBe('ada@lovelace.co.uk');
  });

  it('omits optional strings that are empty once trimmed', () => {
    const value = valueOf(buildAccount({ company_number: '   ', billing_name: '' }));
    expect(value).not.toHaveProperty('company_number');
    expect(value).not.toHaveProperty('billing_name');
  });

  it('fills in the defaults', () => {
    const input = buildAccount();
    for (const key of ['account_type', 'communication_preference', 'language_preference']) {
      delete input[key];
    }
    const value = valueOf(input);
    expect(value.account_type).toBe('DOMESTIC');
    expect(value.unknown_occupier).toBe(false);
    expect(value.communication_preference).toBe('ONLINE');
    expect(value.language_preference).toBe('en-gb');
    expect(value.supply_addresses?.[0]?.is_landlord).toBe(false);
  });

  it('defaults customers to [] for an unknown occupier', () => {
    const value = valueOf(buildAccount({ unknown_occupier: true, customers: undefined }));
    expect(value.customers).toEqual([]);
    expect(Object.keys(value).indexOf('customers')).toBe(
      Object.keys(value).indexOf('last_billed_to_date') + 1,
    );
  });

  it('makes the first customer primary when none is marked', () => {
    const value = valueOf(buildAccount({ customers: [buildCustomer(), buildCustomer()] }));
    expect(value.customers.map((c) => c.is_primary)).toEqual([true, false]);
  });

  it('keeps the marked primary customer', () => {
    const customers = [buildCustomer(), buildCustomer({ is_primary: true })];
    const value = valueOf(buildAccount({ customers }));
    expect(value.customers.map((c) => c.is_primary)).toEqual([false, true]);
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
        buildSupplyAddress({ supply_postcode: 'NOPE', meter_points: [] }),
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
      { code: 'min_length', attr: 'supply_addresses.0.meter_points' },
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

  it('reports required fields of an empty object', () => {
    expectProblems({}, [
      { code: 'required', attr: 'import_supplier' },
      { code: 'required', attr: 'external_account_number' },
      { code: 'customers_required', attr: 'customers' },
      { code: 'billing_address_not_provided', attr: 'billing_address' },
    ]);
  });
});
