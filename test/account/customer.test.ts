import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { accountWithCustomer as withCustomer, buildAccount, buildCustomer } from './factory.js';
import { CONTEXT, expectProblem, expectProblems, valueOf } from './helpers.js';

const customerOf = (fields: Record<string, unknown>, context = {}) =>
  valueOf(withCustomer(fields), context).customers?.[0];

describe('customer names and titles', () => {
  it.each([
    ['given_name', 255],
    ['family_name', 255],
    ['title', 20],
    ['salutation', 128],
  ])('%s holds at most %i characters', (field, max) => {
    expect(customerOf({ [field]: 'x'.repeat(max) })).toMatchObject({ [field]: 'x'.repeat(max) });
    expectProblem(
      withCustomer({ [field]: 'x'.repeat(max + 1) }),
      'max_length',
      `customers.0.${field}`,
    );
  });

  it('may leave out given and family name, which are then absent', () => {
    // Published with an empty default; what a domestic or business account does without them
    // is a rule across the account's fields (test/account/cross/parties.test.ts), and an
    // account of no type has neither.
    const account = buildAccount({
      account_type: undefined,
      customers: [buildCustomer({ given_name: undefined, family_name: '  ' })],
    });
    const customer = valueOf(account).customers?.[0];
    expect(customer).not.toHaveProperty('given_name');
    expect(customer).not.toHaveProperty('family_name');
  });
});

describe('customer email', () => {
  it.each(['ada@lovelace.co.uk', 'first.last+tag@sub.domain.org', "o'brien@xn--bcher-kva.de"])(
    'accepts %s',
    (email) => {
      expect(customerOf({ email })?.email).toBe(email);
    },
  );

  it.each([
    'plain',
    '@domain.com',
    'a@',
    'a@@b.com',
    'a b@c.com',
    'a..b@c.com',
    '.a@c.com',
    'a@c',
    'a@-c.com',
    'a@c.c0m',
  ])('refuses %s with invalid_email', (email) => {
    expectProblem(withCustomer({ email }), 'invalid_email', 'customers.0.email');
  });

  it.each([
    // The published patterns.
    'test@lovelace.co.uk',
    'XXX@lovelace.co.uk',
    'ada@test.com',
    'ada@TEST.co.uk',
    'ada@lovelace.xxx',
    'ada@lovelace.xx',
    // The reserved example and test domains v1 refused.
    'someone@example.com',
    'someone@EXAMPLE.ORG',
    'someone@example.net',
    'someone@mail.example.com',
    'someone@shop.test',
    'someone@nowhere.invalid',
    'someone@site.example',
    'someone@localhost',
  ])('flags %s as a possible test address', (email) => {
    expectProblem(withCustomer({ email }), 'possible_test_email_address', 'customers.0.email');
  });

  it('does not flag addresses that only resemble the test patterns', () => {
    for (const email of ['contest@lovelace.co.uk', 'ada@mytest.com', 'ada@lovelace.xyz']) {
      expect(customerOf({ email })?.email).toBe(email);
    }
  });

  it('may be null', () => {
    expect(customerOf({ email: null })?.email).toBeNull();
  });

  it('holds at most 254 characters', () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.uk`;
    expect(email).toHaveLength(254);
    expect(customerOf({ email })?.email).toBe(email);
    expectProblem(withCustomer({ email: `a${email}` }), 'invalid_email', 'customers.0.email');
    expectProblem(buildAccount({ billing_email: `a${email}` }), 'invalid_email', 'billing_email');
  });
});

describe('customer phones', () => {
  it('normalises national and international numbers to E.164', () => {
    expect(customerOf({ mobile: '07400-123-456', landline: '(020) 7946 0018' })).toMatchObject({
      mobile: '+447400123456',
      landline: '+442079460018',
    });
    expect(customerOf({ mobile: '+33 6 12 34 56 78', landline: '+44 20 7946 0018' })).toMatchObject(
      {
        mobile: '+33612345678',
        landline: '+442079460018',
      },
    );
  });

  it.each(['020 7946 0018 ext 123', '020 7946 0018 x123', '+44 20 7946 0018 ext. 9'])(
    'refuses %j rather than drop its extension',
    (landline) => {
      const { errors } = validateEnergyAccount(withCustomer({ landline }), CONTEXT) as {
        errors: { code: string; attr: string; detail: string }[];
      };
      expect(errors).toEqual([
        {
          code: 'invalid_phone_number',
          attr: 'customers.0.landline',
          detail: 'A phone extension cannot be stored; send the number without it.',
        },
      ]);
    },
  );

  it("refuses a landline of another region than the supplier's, even internationally", () => {
    // ACCOUNT_PAYLOAD.md allows a mobile "given in international form", a landline only "valid
    // for the region".
    expectProblem(
      withCustomer({ landline: '+1 212 555 0100' }),
      'invalid_phone_number',
      'customers.0.landline',
    );
    expectProblem(
      withCustomer({ mobile: '+44 7400 123456', landline: '+44 20 7946 0018' }),
      'invalid_phone_number',
      'customers.0.landline',
      { phoneRegion: 'FR' },
    );
    // Jersey shares the United Kingdom's numbering plan (+44).
    expect(customerOf({ landline: '01534 123456' })?.landline).toBe('+441534123456');
  });

  it('reads national numbers with the supplier phone region', () => {
    const customer = customerOf(
      { mobile: '06 12 34 56 78', landline: '01 23 45 67 89' },
      { phoneRegion: 'FR' },
    );
    expect(customer).toMatchObject({ mobile: '+33612345678', landline: '+33123456789' });
  });

  it('accepts a landline number that is not a mobile, and a mobile as landline', () => {
    expect(customerOf({ landline: '0121 234 5678' })?.landline).toBe('+441212345678');
    expect(customerOf({ landline: '07400 123456' })?.landline).toBe('+447400123456');
  });

  it('refuses a fixed line as mobile', () => {
    expectProblem(
      withCustomer({ mobile: '020 7946 0018' }),
      'invalid_phone_number',
      'customers.0.mobile',
    );
  });

  it.each(['12', '07700 900123', 'call me', '+44', '0800 FLOWERS', '+999 1234567'])(
    'refuses %j',
    (phone) => {
      expectProblems(withCustomer({ mobile: phone, landline: phone }), [
        { code: 'invalid_phone_number', attr: 'customers.0.mobile' },
        { code: 'invalid_phone_number', attr: 'customers.0.landline' },
      ]);
    },
  );

  it('falls back to GB for an unknown region', () => {
    expect(customerOf({ mobile: '07400 123456' }, { phoneRegion: 'XX' })?.mobile).toBe(
      '+447400123456',
    );
  });
});

describe('date_of_birth', () => {
  it('accepts a past date of a customer at most 130 years old', () => {
    // Today is 2025-06-15: born 1894-06-16, the customer is 130 until tomorrow.
    for (const date of ['1894-06-16', '1895-06-14', '1895-06-15', '2025-06-14']) {
      expect(customerOf({ date_of_birth: date })?.date_of_birth).toBe(date);
    }
  });

  it('counts a 29 February birthday as passed on 1 March in other years', () => {
    // Born 1896-02-29: still 130 on 2027-02-28, and 131 from 2027-03-01.
    const born = { date_of_birth: '1896-02-29' };
    expect(customerOf(born, { today: '2027-02-28' })?.date_of_birth).toBe('1896-02-29');
    expectProblem(withCustomer(born), 'invalid_date', 'customers.0.date_of_birth', {
      today: '2027-03-01',
    });
  });

  it.each(['2025-06-15', '2030-01-01', '1894-06-15', '1800-01-01', '1985-02-29', '10/12/1985'])(
    'refuses %s with invalid_date',
    (date) => {
      expectProblem(
        withCustomer({ date_of_birth: date }),
        'invalid_date',
        'customers.0.date_of_birth',
      );
    },
  );
});

describe('customer metadata', () => {
  it('repeats no key within one customer; two customers may share a key', () => {
    const metadata = [
      { key: 'crm', value: 1 },
      { key: 'crm', value: 2 },
    ];
    expectProblem(
      buildAccount({
        customers: [buildCustomer({ metadata }), buildCustomer({ metadata: [metadata[0]] })],
      }),
      'metadata_has_duplicate_keys',
      'customers.0.metadata.1.key',
    );
  });
});

describe('is_primary', () => {
  it('is not a published field, so it is refused as unknown (there is no primary customer)', () => {
    const customers = [buildCustomer({ is_primary: true }), buildCustomer({ is_primary: false })];
    expectProblems(buildAccount({ customers }), [
      { code: 'unknown_field', attr: 'customers.0.is_primary' },
      { code: 'unknown_field', attr: 'customers.1.is_primary' },
    ]);
  });
});

describe('priority services register', () => {
  it('takes industry codes the platform knows and an effective period, normalised to UTC', () => {
    const psr = [
      { elec_industry_code: '01', effective_from: '2020-01-01' },
      {
        gas_industry_code: '35',
        effective_from: '2020-01-01T10:00:00+02:00',
        // Later than the start once both are in UTC, though not as written.
        effective_to: '2020-01-01T09:00:00Z',
      },
    ];
    expect(customerOf({ psr })?.psr).toEqual([
      { elec_industry_code: '01', effective_from: '2020-01-01T00:00:00Z' },
      {
        gas_industry_code: '35',
        effective_from: '2020-01-01T08:00:00Z',
        effective_to: '2020-01-01T09:00:00Z',
      },
    ]);
  });

  it('refuses other codes, v1 entries and an end before the start', () => {
    const psr = [
      { elec_industry_code: '00' },
      { gas_industry_code: '7' },
      { elec_industry_code: 12 },
      { code: '12', effective_from: '2020-01-01' },
      { elec_industry_code: '14', effective_from: '2020-01-02', effective_to: '2020-01-01' },
    ];
    expectProblems(withCustomer({ psr }), [
      { code: 'psr_invalid_industry_code', attr: 'customers.0.psr.0.elec_industry_code' },
      { code: 'psr_invalid_industry_code', attr: 'customers.0.psr.1.gas_industry_code' },
      { code: 'invalid_type', attr: 'customers.0.psr.2.elec_industry_code' },
      { code: 'unknown_field', attr: 'customers.0.psr.3.code' },
      { code: 'psr_industry_code_not_provided', attr: 'customers.0.psr.3' },
      { code: 'start_date_later_than_end_date', attr: 'customers.0.psr.4.effective_to' },
    ]);
  });
});
