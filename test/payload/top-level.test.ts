import { describe, expect, it } from 'vitest';
import { buildAccount, buildCustomer } from './factory.js';
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
  it.each(['A-1', 'x'.repeat(128), 'ÄÖÜ-ß', 'a.b_c~d', '...', '.a', '..a'])(
    'accepts %s',
    (number) => {
      expect(
        valueOf(buildAccount({ external_account_number: number })).external_account_number,
      ).toBe(number);
    },
  );
  it.each([
    'A 1',
    'A/1',
    'A?1',
    'A#1',
    'A%1',
    'A\u00001',
    'A\u007f1',
    'A\u00a01',
    'x'.repeat(129),
    '.',
    '..',
  ])('refuses %j', (number) => {
    expectProblem(
      buildAccount({ external_account_number: number }),
      'invalid_external_account_number',
      'external_account_number',
    );
  });
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
  it('refuses an unknown account type', () => {
    expectProblem(buildAccount({ account_type: 'domestic' }), 'invalid_choice', 'account_type');
  });
  it('requires business_type for a BUSINESS account', () => {
    expectProblem(buildAccount({ account_type: 'BUSINESS' }), 'required', 'business_type');
    const value = valueOf(buildAccount({ account_type: 'BUSINESS', business_type: 'LTD' }));
    expect(value.business_type).toBe('LTD');
  });
  it('refuses an unknown business type', () => {
    expectProblem(
      buildAccount({ account_type: 'BUSINESS', business_type: 'GMBH' }),
      'invalid_choice',
      'business_type',
    );
  });
  it('forbids business_type otherwise, also for the default DOMESTIC', () => {
    expectProblem(buildAccount({ business_type: 'LTD' }), 'invalid_choice', 'business_type');
    expectProblem(
      buildAccount({ account_type: undefined, business_type: 'PLC' }),
      'invalid_choice',
      'business_type',
    );
  });
  it('takes a blank business_type of another account as absent, like any blank optional', () => {
    for (const blank of ['', '  ']) {
      expect(valueOf(buildAccount({ business_type: blank }))).not.toHaveProperty('business_type');
    }
    expectProblem(buildAccount({ business_type: 42 }), 'invalid_choice', 'business_type');
  });
  it('reports only account_type when it is itself invalid', () => {
    expectProblem(
      buildAccount({ account_type: 'X', business_type: 'LTD' }),
      'invalid_choice',
      'account_type',
    );
  });
});

describe('simple optional fields', () => {
  it('company_number is at most 100 characters', () => {
    expect(valueOf(buildAccount({ company_number: '0'.repeat(100) })).company_number).toHaveLength(
      100,
    );
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
  ])('%s accepts %s and refuses %s', (field, good, bad) => {
    expect(valueOf(buildAccount({ [field]: good }))).toMatchObject({ [field]: good });
    expectProblem(buildAccount({ [field]: bad }), 'invalid_choice', field);
  });
  it('billing_email must be an address', () => {
    expectProblem(
      buildAccount({ billing_email: 'not-an-email' }),
      'invalid_email',
      'billing_email',
    );
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
  it('requires a customer when the occupier is known', () => {
    expectProblem(buildAccount({ customers: [] }), 'customers_required', 'customers');
    expectProblem(buildAccount({ customers: undefined }), 'customers_required', 'customers');
    expectProblem(
      buildAccount({ unknown_occupier: false, customers: [] }),
      'customers_required',
      'customers',
    );
  });
  it('refuses customers for an unknown occupier', () => {
    expectProblem(
      buildAccount({ unknown_occupier: true, customers: [buildCustomer()] }),
      'customer_with_unknown_occupier',
      'customers',
    );
  });
  it('accepts an unknown occupier with no or empty customers', () => {
    expect(valueOf(buildAccount({ unknown_occupier: true, customers: [] })).customers).toEqual([]);
    expect(
      valueOf(buildAccount({ unknown_occupier: true, customers: undefined })).unknown_occupier,
    ).toBe(true);
  });
  it('says nothing more when unknown_occupier has the wrong type', () => {
    expectProblem(
      buildAccount({ unknown_occupier: 'yes', customers: [] }),
      'invalid_type',
      'unknown_occupier',
    );
  });
});
