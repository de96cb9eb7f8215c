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
    // The published limit (2 characters) is checked first.
    expectProblem(address({ country: 'GBR' }), 'max_length', 'billing_address.country');
    // Letters that only upper-case to ASCII (dotless ı, long ſ) are not the code's letters.
    expectProblem(address({ country: 'ıt' }), 'invalid_country', 'billing_address.country');
    expectProblem(address({ country: 'eſ' }), 'invalid_country', 'billing_address.country');
    expectProblem(address({ country: undefined }), 'required', 'billing_address.country');
    expect(
      valueOf(address({ country: 'ie', postal_code: 'D02 X285' })).billing_address?.country,
    ).toBe('IE');
  });
  it('takes a GB postal code only as a valid UK postcode, and none at all', () => {
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
    // Only the country is a required field, but an address in GB is complete with a first
    // line and a postcode (as v1 required): without them it is an invalid address.
    expectProblems(address({ postal_code: undefined, street_address: undefined }), [
      { code: 'invalid_address', attr: 'billing_address.postal_code' },
      { code: 'invalid_address', attr: 'billing_address.street_address' },
    ]);
  });
  it('takes any postal code of at most 512 characters elsewhere, or none', () => {
    expect(
      valueOf(address({ country: 'FR', postal_code: '75008' })).billing_address?.postal_code,
    ).toBe('75008');
    // v1 allowed 16 characters; the published limit is 512.
    const long = '1'.repeat(512);
    expect(
      valueOf(address({ country: 'FR', postal_code: long })).billing_address?.postal_code,
    ).toBe(long);
    expect(
      valueOf(address({ country: 'AQ', postal_code: undefined })).billing_address,
    ).not.toHaveProperty('postal_code');
    expectProblem(
      address({ country: 'FR', postal_code: `${long}1` }),
      'max_length',
      'billing_address.postal_code',
    );
  });
  it('checks the other lines with their published limits', () => {
    const street = `Flat 1\n${'x'.repeat(5_000)}`;
    expect(valueOf(address({ street_address: street })).billing_address?.street_address).toBe(
      street,
    );
    expectProblems(
      address({
        locality: 'x'.repeat(513),
        dependent_locality: 'x'.repeat(513),
        administrative_area: 'x'.repeat(513),
        sorting_code: 'x'.repeat(513),
        delivery_point_identifier: 'X'.repeat(12),
      }),
      [
        { code: 'max_length', attr: 'billing_address.locality' },
        { code: 'max_length', attr: 'billing_address.dependent_locality' },
        { code: 'max_length', attr: 'billing_address.administrative_area' },
        { code: 'max_length', attr: 'billing_address.sorting_code' },
        { code: 'max_length', attr: 'billing_address.delivery_point_identifier' },
      ],
    );
  });
  it('takes a delivery point identifier of capital letters and digits', () => {
    expect(
      valueOf(address({ delivery_point_identifier: '1A2B3C' })).billing_address
        ?.delivery_point_identifier,
    ).toBe('1A2B3C');
    expectProblem(
      address({ delivery_point_identifier: '1a-2b' }),
      'invalid_delivery_point_identifier',
      'billing_address.delivery_point_identifier',
    );
  });
});
