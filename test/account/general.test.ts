import { describe, expect, it } from 'vitest';
import {
  buildAccount,
  buildCustomer,
  buildGasMeterPoint,
  buildMeterPoint,
  buildStatement,
  buildSupplyAddress,
  VALID_MPAN,
} from './factory.js';
import { expectProblem, expectProblems, valueOf } from './helpers.js';

const withProtoKey = (base: Record<string, unknown>, json: string) => ({
  ...base,
  ...(JSON.parse(json) as Record<string, unknown>),
});

describe('unknown fields', () => {
  it('are reported at every depth', () => {
    const meterPoint = buildMeterPoint({ colour: 'red' });
    const gasPoint = buildGasMeterPoint({
      meters: [{ meter_serial_number: 'G1', gas_number_of_digits: 5, colour: 'blue' }],
    });
    expectProblems(
      buildAccount({
        extra: 1,
        customers: [buildCustomer({ nickname: 'Ada' })],
        supply_addresses: [buildSupplyAddress({ meter_points: [meterPoint, gasPoint] })],
        billing_address: { country: 'GB', street_address: '1 Road', postal_code: 'M1 1AE', x: 0 },
        ledgers: [{ ledger_identifier: VALID_MPAN, balance: '0' }],
      }),
      [
        { code: 'unknown_field', attr: 'extra' },
        { code: 'unknown_field', attr: 'customers.0.nickname' },
        { code: 'unknown_field', attr: 'supply_addresses.0.meter_points.0.colour' },
        { code: 'unknown_field', attr: 'supply_addresses.0.meter_points.1.meters.0.colour' },
        { code: 'unknown_field', attr: 'billing_address.x' },
        { code: 'unknown_field', attr: 'ledgers.0.balance' },
      ],
    );
  });

  it('include __proto__ and constructor, which never reach the output', () => {
    const customer = JSON.parse(
      JSON.stringify(buildCustomer()).replace('{', '{"__proto__":{"polluted":true},'),
    ) as Record<string, unknown>;
    const input = withProtoKey(
      buildAccount({ customers: [customer] }),
      '{"constructor":{"prototype":{"polluted":true}},"__proto__":{"isAdmin":true}}',
    );
    const top = withProtoKey({}, '{"__proto__":1}');
    expect(Object.keys(top)).toEqual(['__proto__']);
    expectProblems(input, [
      { code: 'unknown_field', attr: 'constructor' },
      { code: 'unknown_field', attr: '__proto__' },
      { code: 'unknown_field', attr: 'customers.0.__proto__' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('leave the prototype of the output alone', () => {
    const clean = valueOf(buildAccount());
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(clean.customers?.[0])).toBe(Object.prototype);
  });
});

describe('null', () => {
  it('is refused where the field is not nullable', () => {
    expectProblem(buildAccount({ billing_name: null }), 'null', 'billing_name');
    expectProblem(buildAccount({ statements: null }), 'null', 'statements');
    expectProblem(buildAccount({ statements: [null] }), 'null', 'statements.0');
  });

  it('is kept where the field is nullable', () => {
    const customers = [
      buildCustomer({
        mobile: null,
        landline: null,
        date_of_birth: null,
        email: null,
        title: null,
      }),
    ];
    const addresses = [buildSupplyAddress({ customer_at_supply_address_to_date: null })];
    const value = valueOf(
      buildAccount({ customers, supply_addresses: addresses, billing_email: null }),
    );
    expect(value.customers?.[0]).toMatchObject({
      mobile: null,
      landline: null,
      date_of_birth: null,
      email: null,
      title: null,
    });
    expect(value.supply_addresses?.[0]?.customer_at_supply_address_to_date).toBeNull();
    expect(value.billing_email).toBeNull();
  });
});

describe('JSON types', () => {
  it.each([
    ['billing_name', 42],
    ['unknown_occupier', 'false'],
    ['customers', {}],
    ['billing_address', []],
    ['transfer_balance', -12.34],
    ['account_type', ['DOMESTIC']],
  ])('%s = %j is invalid_type', (field, value) => {
    expectProblems(buildAccount({ [field]: value }), [{ code: 'invalid_type', attr: field }]);
  });

  it('applies inside lists', () => {
    const statements = [buildStatement(1, { gross_amount: '84.50' }), 7];
    expectProblems(buildAccount({ statements }), [
      { code: 'invalid_type', attr: 'statements.0.gross_amount' },
      { code: 'invalid_type', attr: 'statements.1' },
    ]);
  });
});

describe('blank and required strings', () => {
  it('a required string of white space is blank', () => {
    expectProblem(
      buildAccount({ supply_addresses: [buildSupplyAddress({ supply_address1: ' \t ' })] }),
      'blank',
      'supply_addresses.0.supply_address1',
    );
  });

  it('a missing required string is required', () => {
    const address = buildSupplyAddress();
    delete address.supply_address1;
    expectProblem(
      buildAccount({ supply_addresses: [address] }),
      'required',
      'supply_addresses.0.supply_address1',
    );
  });
});

describe('lengths count code points', () => {
  it('accepts 255 astral characters in a 255 field', () => {
    const name = '😀'.repeat(255);
    expect(name.length).toBe(510);
    const value = valueOf(buildAccount({ customers: [buildCustomer({ given_name: name })] }));
    expect(value.customers?.[0]?.given_name).toBe(name);
  });

  it('refuses one more code point with max_length', () => {
    expectProblem(
      buildAccount({ customers: [buildCustomer({ given_name: '😀'.repeat(256) })] }),
      'max_length',
      'customers.0.given_name',
    );
    expectProblem(buildAccount({ billing_name: 'x'.repeat(511) }), 'max_length', 'billing_name');
    expect(valueOf(buildAccount({ billing_name: 'x'.repeat(510) })).billing_name).toHaveLength(510);
  });
});

describe('strings are text', () => {
  // JSON.parse turns a lone "\ud800" escape into a string no database can store as UTF-8.
  const parsed = (json: string) => JSON.parse(json) as string;

  it('refuses an unpaired surrogate, wherever it is, with invalid_format', () => {
    expectProblems(
      buildAccount({
        billing_name: parsed('"Ada \\ud800"'),
        customers: [buildCustomer({ given_name: parsed('"\\udfffLovelace"') })],
        supply_addresses: [buildSupplyAddress({ supply_address1: parsed('"1 Road\\udbff"') })],
      }),
      [
        { code: 'invalid_format', attr: 'billing_name' },
        { code: 'invalid_format', attr: 'customers.0.given_name' },
        { code: 'invalid_format', attr: 'supply_addresses.0.supply_address1' },
      ],
    );
  });

  it('refuses an external account number holding one with invalid_format too', () => {
    // The published string type is checked before the number's own rule (v1 reported
    // invalid_external_account_number, as the process request still does).
    expectProblem(
      buildAccount({ external_account_number: parsed('"A\\ud800"') }),
      'invalid_format',
      'external_account_number',
    );
  });

  it('accepts a surrogate pair, which is one character', () => {
    const name = parsed('"\\ud83d\\ude00 Ada"');
    const value = valueOf(buildAccount({ customers: [buildCustomer({ given_name: name })] }));
    expect(value.customers?.[0]?.given_name).toBe('😀 Ada');
  });
});
describe('lists', () => {
  it('have no item limit of their own (v1: 100 items, 10 customers)', () => {
    const statements = Array.from({ length: 101 }, (_, i) =>
      buildStatement((i % 12) + 1, { statement_id: `S${i}` }),
    );
    expect(valueOf(buildAccount({ statements })).statements).toHaveLength(101);
    const customers = Array.from({ length: 11 }, () => buildCustomer());
    expect(valueOf(buildAccount({ customers })).customers).toHaveLength(11);
  });
});

describe('decimals', () => {
  // The published pattern allows a side of the point to be empty, not both.
  it.each(['0', '-1', '1234567890.0123456789', '-0.5', '1.', '.5', '-.5'])(
    'accepts %s',
    (balance) => {
      expect(valueOf(buildAccount({ transfer_balance: balance })).transfer_balance).toBe(balance);
    },
  );

  it.each(['1e3', '12345678901', '-', '.', '+1', '1.12345678901', '1,5', 'NaN'])(
    'refuses %s with invalid_decimal',
    (balance) => {
      expectProblem(
        buildAccount({ transfer_balance: balance }),
        'invalid_decimal',
        'transfer_balance',
      );
    },
  );
});

describe('dates and datetimes', () => {
  it.each([
    '2023-02-29',
    '2023-02-30',
    '2024-13-01',
    '2024-00-10',
    '2024-1-01',
    '20240101',
    '0000-01-01',
  ])('refuses the date %s', (date) => {
    expectProblem(
      buildAccount({ last_billed_to_date: date }),
      'invalid_date',
      'last_billed_to_date',
    );
  });

  it('accepts 29 February of a leap year', () => {
    expect(valueOf(buildAccount({ last_billed_to_date: '2024-02-29' })).last_billed_to_date).toBe(
      '2024-02-29',
    );
  });

  it.each([
    '2024-02-01T24:00:00Z',
    '2024-02-30T10:00:00Z',
    '2024-02-01T10:60:00Z',
    '2024-02-01T10:00:60Z',
    '2024-02-01T10:00:00+24:00',
    '2024-02-01T10',
    '01/02/2024 10:00',
  ])('refuses the datetime %s', (datetime) => {
    const notes = [{ body: 'x', created_at: datetime }];
    expectProblem(buildAccount({ notes }), 'invalid_datetime', 'notes.0.created_at');
  });

  it.each([
    ['2024-02-01T10:00:00Z', '2024-02-01T10:00:00Z'],
    ['2024-02-01T10:00:00.000Z', '2024-02-01T10:00:00Z'],
    ['2024-02-01T10:00:00.25-00:30', '2024-02-01T10:30:00.250Z'],
    ['2024-02-01T00:30:00+01:00', '2024-01-31T23:30:00Z'],
    ['2024-02-01t10:00:00z', '2024-02-01T10:00:00Z'],
    ['2024-02-01', '2024-02-01T00:00:00Z'],
    // Beyond RFC 3339: without seconds or an offset (read as UTC), or with a space for the T.
    ['2024-02-01T10:00', '2024-02-01T10:00:00Z'],
    ['2024-02-01T10:00:00', '2024-02-01T10:00:00Z'],
    ['2024-02-01 10:00:00+0100', '2024-02-01T09:00:00Z'],
  ])('reads the datetime %s as %s (UTC)', (datetime, utc) => {
    const notes = [{ body: 'x', created_at: datetime }];
    expect(valueOf(buildAccount({ notes })).notes?.[0]?.created_at).toBe(utc);
  });
});
