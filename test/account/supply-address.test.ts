import { describe, expect, it } from 'vitest';
import { buildAccount, buildGasMeterPoint, buildSupplyAddress } from './factory.js';
import { TODAY, expectProblem, expectProblems, valueOf } from './helpers.js';
import { testPlatform } from '../helpers/platform.js';

const withAddress = (fields: Record<string, unknown>) =>
  buildAccount({ supply_addresses: [buildSupplyAddress(fields)] });
const AT = 'supply_addresses.0';

describe('supply address fields', () => {
  it('requires address line 1, postcode, from date and meter points', () => {
    expectProblems(
      withAddress({
        supply_address1: undefined,
        supply_postcode: undefined,
        customer_at_supply_address_from_date: undefined,
        meter_points: undefined,
      }),
      [
        { code: 'required', attr: `${AT}.supply_address1` },
        { code: 'required', attr: `${AT}.supply_postcode` },
        { code: 'required', attr: `${AT}.customer_at_supply_address_from_date` },
        { code: 'required', attr: `${AT}.meter_points` },
      ],
    );
  });

  it('limits address lines to 512 characters', () => {
    expectProblems(
      withAddress({ supply_address1: 'x'.repeat(513), supply_address5: 'y'.repeat(513) }),
      [
        { code: 'max_length', attr: `${AT}.supply_address1` },
        { code: 'max_length', attr: `${AT}.supply_address5` },
      ],
    );
  });

  it.each([
    'SW1A 1AA',
    'W1A 0AX',
    'M1 1AE',
    'B33 8TH',
    'CR2 6XH',
    'DN55 1PT',
    'GIR 0AA',
    'ec1a1bb',
  ])('accepts the postcode %s', (postcode) => {
    expect(
      valueOf(withAddress({ supply_postcode: postcode })).supply_addresses?.[0]?.supply_postcode,
    ).toMatch(/^[A-Z0-9]{2,4} [0-9][A-Z]{2}$/);
  });

  it('holds a postcode of at most 10 characters as sent, however they are spaced', () => {
    expect(
      valueOf(withAddress({ supply_postcode: 'sw1a   1aa' })).supply_addresses?.[0]
        ?.supply_postcode,
    ).toBe('SW1A 1AA');
    expectProblem(
      withAddress({ supply_postcode: 'SW1A    1AA' }),
      'max_length',
      `${AT}.supply_postcode`,
    );
  });

  it.each(['SW1A', 'QW1 1AA', 'SW1A 1AAA', '12345', 'SW1A-1AA', 'D02 X285', 'V1 1AA'])(
    'refuses the postcode %s',
    (postcode) => {
      expectProblem(
        withAddress({ supply_postcode: postcode }),
        'invalid_postcode',
        `${AT}.supply_postcode`,
      );
    },
  );

  it('from date may not be in the future; to date may not be before it', () => {
    expectProblem(
      withAddress({ customer_at_supply_address_from_date: '2025-06-16' }),
      'date_in_future',
      `${AT}.customer_at_supply_address_from_date`,
    );
    expectProblem(
      withAddress({
        customer_at_supply_address_from_date: '2020-01-02',
        customer_at_supply_address_to_date: '2020-01-01',
      }),
      'start_date_later_than_end_date',
      `${AT}.customer_at_supply_address_to_date`,
    );
    const value = valueOf(
      withAddress({
        customer_at_supply_address_from_date: TODAY,
        customer_at_supply_address_to_date: TODAY,
      }),
    );
    expect(value.supply_addresses?.[0]?.customer_at_supply_address_to_date).toBe(TODAY);
  });

  it('is_landlord is a boolean', () => {
    expect(valueOf(withAddress({ is_landlord: true })).supply_addresses?.[0]?.is_landlord).toBe(
      true,
    );
    expectProblem(withAddress({ is_landlord: 1 }), 'invalid_type', `${AT}.is_landlord`);
  });

  it('holds any number of meter points, none included', () => {
    // Published without item limits (v1: 1 to 20). None at all only for a supplier that has
    // no supply point created (otherwise the account needs one).
    const noSupplyPoints = { platform: testPlatform('{"skip_supply_point_creation":true}') };
    expect(
      valueOf(withAddress({ meter_points: [] }), noSupplyPoints).supply_addresses?.[0]
        ?.meter_points,
    ).toEqual([]);
    const points = Array.from({ length: 21 }, (_, i) =>
      buildGasMeterPoint({ identifier: String(100000 + i) }),
    );
    expect(
      valueOf(withAddress({ meter_points: points })).supply_addresses?.[0]?.meter_points,
    ).toHaveLength(21);
  });
});
