import { describe, expect, it } from 'vitest';
import { buildAccount } from './factory.js';
import { expectProblem, expectProblems, valueOf } from './helpers.js';

const LEGACY = {
  billing_address: undefined,
  billing_address1: '1 Legacy Road',
  billing_address2: 'Old Town',
  billing_postcode: 'b33 8th',
};

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
  it('takes empty legacy lines beside a structured address for absent, not for a second form', () => {
    const structured = { country: 'GB', street_address: '1 Road', postal_code: 'M1 1AE' };
    const value = valueOf(
      buildAccount({ billing_address: structured, billing_address2: '', billing_postcode: '  ' }),
    );
    expect(value.billing_address).toMatchObject({ postal_code: 'M1 1AE' });
    expect(value).not.toHaveProperty('billing_address2');
    expect(value).not.toHaveProperty('billing_postcode');
    expectProblem(
      buildAccount({ billing_address: structured, billing_address5: 'Flat 2' }),
      'billing_address_new_style_and_legacy',
      'billing_address',
    );
    // null is still refused as null, and alone.
    expectProblems(buildAccount({ billing_address: structured, billing_address2: null }), [
      { code: 'null', attr: 'billing_address2' },
    ]);
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
    // Letters that only upper-case to ASCII (dotless ı, long ſ) are not the code's letters.
    expectProblem(address({ country: 'ıt' }), 'invalid_country', 'billing_address.country');
    expectProblem(address({ country: 'eſ' }), 'invalid_country', 'billing_address.country');
    expectProblem(address({ country: undefined }), 'required', 'billing_address.country');
    expect(
      valueOf(address({ country: 'ie', postal_code: 'D02 X285' })).billing_address?.country,
    ).toBe('IE');
  });
  it('requires a valid UK postcode for GB', () => {
    expectProblem(address({ postal_code: undefined }), 'required', 'billing_address.postal_code');
    for (const postalCode of ['D02 X285', 'ſw1a 1aa', 'm1 1aſ']) {
      expectProblem(
        address({ postal_code: postalCode }),
        'invalid_postcode',
        'billing_address.postal_code',
      );
    }
    // White space of any kind between the parts is still only spacing.
    expect(valueOf(address({ postal_code: 'sw1a\u00a01aa' })).billing_address?.postal_code).toBe(
      'SW1A 1AA',
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
