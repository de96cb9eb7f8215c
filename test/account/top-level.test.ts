import { describe, expect, it } from 'vitest';
import { buildAccount, buildCustomer, buildSupplyAddress } from './factory.js';
import { TODAY, expectProblem, valueOf } from './helpers.js';

describe('import_supplier', () => {
  it('is required', () => {
    expectProblem(buildAccount({ import_supplier: undefined }), 'required', 'import_supplier');
  });
  it('is a string', () => {
    expectProblem(buildAccount({ import_supplier: 7 }), 'invalid_type', 'import_supplier');
  });
  it('is not blank', () => {
    expectProblem(buildAccount({ import_supplier: '  ' }), 'blank', 'import_supplier');
  });
  it('must name a supplier the caller may use', () => {
    expectProblem(buildAccount(), 'import_supplier_not_found', 'import_supplier', {
      supplierFound: false,
    });
  });
});

describe('external_account_number', () => {
  it.each(['A-1', 'x'.repeat(128), '😀'.repeat(128), 'ÄÖÜ-ß', 'a.b_c~d', '...', '.a', '..a'])(
    'accepts %s',
    (number) => {
      expect(
        valueOf(buildAccount({ external_account_number: number })).external_account_number,
      ).toBe(number);
    },
  );
  it.each(['A 1', 'A/1', 'A?1', 'A#1', 'A%1', 'A\u00001', 'A\u007f1', 'A\u00a01', '.', '..'])(
    'refuses %j',
    (number) => {
      expectProblem(
        buildAccount({ external_account_number: number }),
        'invalid_external_account_number',
        'external_account_number',
      );
    },
  );
  it.each(['x'.repeat(129), '😀'.repeat(129)])(
    'refuses %j, over 128 characters, with the published max_length',
    (number) => {
      expectProblem(
        buildAccount({ external_account_number: number }),
        'max_length',
        'external_account_number',
      );
    },
  );
  it('is required and not blank', () => {
    expectProblem(
      buildAccount({ external_account_number: undefined }),
      'required',
      'external_account_number',
    );
    expectProblem(
      buildAccount({ external_account_number: '' }),
      'blank',
      'external_account_number',
    );
  });
});

describe('account_type and business_type', () => {
  it('takes the published account types, with no default', () => {
    // Portfolio leads and system accounts supply nothing; an occupier account one address.
    const supply = { supply_addresses: [buildSupplyAddress()] };
    for (const [type, fields] of [
      ['BUSINESS', {}],
      ['PORTFOLIO_LEAD', { supply_addresses: undefined }],
      ['DOMESTIC_OCCUPIER', supply],
      ['SYSTEM', { supply_addresses: undefined }],
    ] as const) {
      expect(valueOf(buildAccount({ account_type: type, ...fields })).account_type).toBe(type);
    }
    expect(valueOf(buildAccount({ account_type: undefined }))).not.toHaveProperty('account_type');
    expectProblem(buildAccount({ account_type: 'domestic' }), 'invalid_choice', 'account_type');
  });
  it('takes business_type as an optional, deprecated field, a BUSINESS account included', () => {
    // v1 required it of BUSINESS accounts; the publication moved it to business.business_type.
    expect(valueOf(buildAccount({ account_type: 'BUSINESS' }))).not.toHaveProperty('business_type');
    const value = valueOf(buildAccount({ account_type: 'BUSINESS', business_type: 'TBD' }));
    expect(value.business_type).toBe('TBD');
  });
  it('refuses an unknown business type', () => {
    expectProblem(
      buildAccount({ account_type: 'BUSINESS', business_type: 'GMBH' }),
      'invalid_choice',
      'business_type',
    );
  });
  it('takes a blank business_type as absent, like any blank optional', () => {
    for (const blank of ['', '  ']) {
      expect(valueOf(buildAccount({ business_type: blank }))).not.toHaveProperty('business_type');
    }
    expectProblem(buildAccount({ business_type: 42 }), 'invalid_type', 'business_type');
  });
});

describe('simple optional fields', () => {
  it('company_number is at most 100 characters, checked before its shape', () => {
    expectProblem(
      buildAccount({ company_number: '0'.repeat(101) }),
      'max_length',
      'company_number',
    );
  });
  it.each([
    ['communication_preference', 'PRINT', 'EMAIL'],
    ['document_accessibility', 'BRAILLE', 'AUDIO'],
    ['language_preference', 'es-419', 'en-GB'],
    ['sales_channel', 'BROKER', 'SHOP'],
    ['smart_read_frequency', 'DAILY', 'WEEKLY'],
  ])('%s accepts %s and refuses %s', (field, good, bad) => {
    expect(valueOf(buildAccount({ [field]: good }))).toMatchObject({ [field]: good });
    expectProblem(buildAccount({ [field]: bad }), 'invalid_choice', field);
  });
  it('billing_email must be an address that can be billed, or null', () => {
    expectProblem(
      buildAccount({ billing_email: 'not-an-email' }),
      'invalid_email',
      'billing_email',
    );
    expectProblem(
      buildAccount({ billing_email: 'Blackhole+bills@lovelace.co.uk' }),
      'billing_email_not_valid',
      'billing_email',
    );
    expect(valueOf(buildAccount({ billing_email: null })).billing_email).toBeNull();
  });
  it('smart_read_cycle_day is a day of the month', () => {
    expect(valueOf(buildAccount({ smart_read_cycle_day: 31 })).smart_read_cycle_day).toBe(31);
    for (const day of [0, 32]) {
      expectProblem(
        buildAccount({ smart_read_cycle_day: day }),
        'invalid_day_of_month',
        'smart_read_cycle_day',
      );
    }
  });
});

describe('dates that may not be in the future', () => {
  it.each(['date_of_sale', 'last_billed_to_date'])(
    '%s accepts today and refuses tomorrow',
    (field) => {
      expect(valueOf(buildAccount({ [field]: TODAY }))).toMatchObject({ [field]: TODAY });
      expectProblem(buildAccount({ [field]: '2025-06-16' }), 'date_in_future', field);
    },
  );
});

describe('unknown_occupier and customers', () => {
  // An occupier account has one supply address at most.
  const occupier = (fields: Record<string, unknown>) =>
    buildAccount({ unknown_occupier: true, supply_addresses: [buildSupplyAddress()], ...fields });
  it('takes an account without customers', () => {
    // v1 required one unless the occupier was unknown; the publication requires them of
    // business accounts only, a rule across fields.
    expect(valueOf(buildAccount({ customers: [] })).customers).toEqual([]);
    expect(valueOf(buildAccount({ customers: undefined }))).not.toHaveProperty('customers');
  });
  it('refuses customers for an unknown occupier', () => {
    expectProblem(
      occupier({ customers: [buildCustomer()] }),
      'customer_with_unknown_occupier',
      'customers',
    );
  });
  it('accepts an unknown occupier with no or empty customers, and a null unknown_occupier', () => {
    expect(valueOf(occupier({ customers: [] })).customers).toEqual([]);
    const without = valueOf(occupier({ customers: undefined }));
    expect(without.unknown_occupier).toBe(true);
    expect(without).not.toHaveProperty('customers');
    expect(valueOf(buildAccount({ unknown_occupier: null })).unknown_occupier).toBeNull();
  });
  it('says nothing more when unknown_occupier has the wrong type', () => {
    expectProblem(
      buildAccount({ unknown_occupier: 'yes', customers: [buildCustomer()] }),
      'invalid_type',
      'unknown_occupier',
    );
  });
});
