import { describe, expect, it } from 'vitest';
import { buildAccount, buildCustomer } from './factory.js';
import { TODAY, expectProblem, expectProblems, valueOf } from './helpers.js';

const LEGACY = {
  billing_address: undefined,
  billing_address1: '1 Legacy Road',
  billing_address2: 'Old Town',
  billing_postcode: 'b33 8th',
};

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
  it.each(['A-1', 'x'.repeat(128), 'ÄÖÜ-ß', 'a.b_c~d'])('accepts %s', (number) => {
    expect(valueOf(buildAccount({ external_account_number: number })).external_account_number).toBe(
      number,
    );
  });
  it.each(['A 1', 'A/1', 'A?1', 'A#1', 'A%1', 'A\u00001', 'A\u007f1', 'A\u00a01', 'x'.repeat(129)])(
    'refuses %j',
    (number) => {
      expectProblem(
        buildAccount({ external_account_number: number }),
        'invalid_external_account_number',
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

describe('billing address forms', () => {
  it('accepts the legacy form and normalises its postcode', () => {
    const value = valueOf(buildAccount(LEGACY));
    expect(value.billing_address1).toBe('1 Legacy Road');
    expect(value.billing_postcode).toBe('B33 8TH');
    expect(value).not.toHaveProperty('billing_address');
  });
  it('refuses both forms', () => {
    expectProblem(
      buildAccount({
        ...LEGACY,
        billing_address: { country: 'GB', street_address: 'x', postal_code: 'M1 1AE' },
      }),
      'billing_address_new_style_and_legacy',
      'billing_address',
    );
  });
  it('refuses neither form', () => {
    expectProblem(
      buildAccount({ billing_address: undefined }),
      'billing_address_not_provided',
      'billing_address',
    );
  });
  it('requires address1 and postcode in the legacy form', () => {
    expectProblems(buildAccount({ billing_address: undefined, billing_address2: 'Flat 1' }), [
      { code: 'required', attr: 'billing_address1' },
      { code: 'required', attr: 'billing_postcode' },
    ]);
    expectProblem(buildAccount({ ...LEGACY, billing_address1: ' ' }), 'blank', 'billing_address1');
  });
  it('checks the legacy lines and postcode', () => {
    expectProblems(
      buildAccount({ ...LEGACY, billing_address3: 'x'.repeat(513), billing_postcode: 'ZZ' }),
      [
        { code: 'max_length', attr: 'billing_address3' },
        { code: 'invalid_postcode', attr: 'billing_postcode' },
      ],
    );
  });
});

describe('structured billing address', () => {
  const address = (fields: Record<string, unknown>) =>
    buildAccount({
      billing_address: {
        country: 'GB',
        street_address: '1 Road',
        postal_code: 'M1 1AE',
        ...fields,
      },
    });

  it('requires a real ISO 3166-1 alpha-2 country', () => {
    expectProblem(address({ country: 'UK' }), 'invalid_country', 'billing_address.country');
    expectProblem(address({ country: 'GBR' }), 'invalid_country', 'billing_address.country');
    expectProblem(address({ country: undefined }), 'required', 'billing_address.country');
    expect(
      valueOf(address({ country: 'ie', postal_code: 'D02 X285' })).billing_address?.country,
    ).toBe('IE');
  });
  it('requires a valid UK postcode for GB', () => {
    expectProblem(address({ postal_code: undefined }), 'required', 'billing_address.postal_code');
    expectProblem(
      address({ postal_code: 'D02 X285' }),
      'invalid_postcode',
      'billing_address.postal_code',
    );
  });
  it('takes any postal code of at most 16 characters elsewhere, or none', () => {
    expect(
      valueOf(address({ country: 'FR', postal_code: '75008' })).billing_address?.postal_code,
    ).toBe('75008');
    expect(
      valueOf(address({ country: 'AQ', postal_code: undefined })).billing_address,
    ).not.toHaveProperty('postal_code');
    expectProblem(
      address({ country: 'FR', postal_code: '1'.repeat(17) }),
      'max_length',
      'billing_address.postal_code',
    );
  });
  it('checks street_address, locality and administrative_area', () => {
    expect(
      valueOf(address({ street_address: 'Flat 1\n2 Road' })).billing_address?.street_address,
    ).toBe('Flat 1\n2 Road');
    expectProblems(
      address({
        street_address: 'x'.repeat(1025),
        locality: 'x'.repeat(513),
        administrative_area: 'x'.repeat(513),
      }),
      [
        { code: 'max_length', attr: 'billing_address.street_address' },
        { code: 'max_length', attr: 'billing_address.locality' },
        { code: 'max_length', attr: 'billing_address.administrative_area' },
      ],
    );
  });
});

describe('references and metadata', () => {
  it('(namespace, value) pairs are unique', () => {
    const references = [
      { namespace: 'crm', value: '1' },
      { namespace: 'crm', value: '2' },
      { namespace: 'erp', value: '1' },
      { namespace: 'crm', value: '1' },
    ];
    expectProblem(buildAccount({ references }), 'duplicate_references', 'references.3');
  });
  it('reference fields have their lengths', () => {
    expectProblems(
      buildAccount({ references: [{ namespace: 'n'.repeat(51), value: 'v'.repeat(101) }] }),
      [
        { code: 'max_length', attr: 'references.0.namespace' },
        { code: 'max_length', attr: 'references.0.value' },
      ],
    );
  });
  it('metadata keys are unique', () => {
    const metadata = [
      { key: 'a', value: 1 },
      { key: 'b', value: [1, 2] },
      { key: 'a', value: 'again' },
    ];
    expectProblem(buildAccount({ metadata }), 'duplicate_metadata_keys', 'metadata.2.key');
  });
  it('metadata values are any JSON up to 10,000 bytes', () => {
    const value = valueOf(
      buildAccount({ metadata: [{ key: 'k', value: { nested: [true, 'x'] } }] }),
    );
    expect(value.metadata?.[0]?.value).toEqual({ nested: [true, 'x'] });
    const fits = 'é'.repeat(4999); // 9,998 bytes plus two quotes
    expect(valueOf(buildAccount({ metadata: [{ key: 'k', value: fits }] })).metadata).toHaveLength(
      1,
    );
    expectProblem(
      buildAccount({ metadata: [{ key: 'k', value: `${fits}x` }] }),
      'max_length',
      'metadata.0.value',
    );
  });
  it('metadata values are required and not null', () => {
    expectProblems(buildAccount({ metadata: [{ key: 'k' }, { key: 'j', value: null }] }), [
      { code: 'required', attr: 'metadata.0.value' },
      { code: 'null', attr: 'metadata.1.value' },
    ]);
  });
});
