/**
 * Agreements, product characteristics and supply charges against the platform's tariffs,
 * products and characteristics (the rules across the account are in ./tariff-lookups.ts).
 *
 * Readings chosen (the published example passes all of them):
 * - A tariff code is found when the platform has a tariff of that code for the agreement's
 *   fuel. An agreement's product is its tariff's `product`; a tariff without one has no
 *   product the rules can check.
 * - A rate override names one of the tariff's rate bands (`rate_band_does_not_exist`). The
 *   overrides price the agreement's whole period, so the product must be on sale for all of it:
 *   overrides on an agreement running outside its product's `available_from`..`available_to`
 *   are `invalid_period`, at `rate_overrides` (an open end, or an early start on a variable
 *   product, has its own code instead).
 * - A product with an `available_to` ends: an agreement for it needs an `effective_to`.
 * - A characteristic's code is one the platform has, and its value one of that code's values.
 * Values that failed their own checks are not looked up: they are reported once.
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import type { ReferenceAttributes } from '../../reference/reference.kinds.js';
import { dayAfter } from '../periods.js';
import { referenceEntry } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

export type Market = 'ELECTRICITY' | 'GAS';
export type Tariff = Readonly<ReferenceAttributes<'tariff'>>;
export type Product = Readonly<ReferenceAttributes<'product'>>;

/** The tariff of `code` for `market`, or undefined when the platform has none. */
export function tariffOf(run: Run, code: unknown, market: Market): Tariff | undefined {
  if (typeof code !== 'string') return undefined;
  const tariff = referenceEntry(run, 'tariff', code);
  return tariff?.supply_type === market ? tariff : undefined;
}

/** The product a tariff prices, when it names one the platform has. */
export function productOf(run: Run, tariff: Tariff): Product | undefined {
  return tariff.product === undefined ? undefined : referenceEntry(run, 'product', tariff.product);
}

/** Milliseconds since the epoch at the start of a `YYYY-MM-DD` day (UTC). */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** An end date as sent: a date, open (null or absent), or refused by its own checks. */
export function endOf(out: Parent, input: Parent, field: string): string | null | undefined {
  const value = out[field];
  if (typeof value === 'string') return value;
  if (value === null || input[field] === undefined || input[field] === null) return null;
  return undefined;
}

const TARIFF_MISSING = 'tariff_code_not_found';
const BAND_MISSING = 'rate_band_does_not_exist';
const INVALID_PERIOD = 'invalid_period';
const OPEN_ENDED = 'open_ended_agreement_for_end_dated_product';

/** Overrides on bands of the tariff, for a period the product is on sale. */
function checkOverrides(
  out: Parent,
  prefix: string,
  run: Run,
  tariff: Tariff,
  product: Product | undefined,
  end: string | null | undefined,
): void {
  const overrides = out.rate_overrides;
  if (!Array.isArray(overrides) || overrides.length === 0) return;
  const bands = tariff.rate_bands;
  for (const [i, override] of (overrides as (Parent | undefined)[]).entries()) {
    const band = override?.rate_band;
    if (typeof band === 'string' && bands !== undefined && !bands.includes(band)) {
      fail(
        run,
        `${prefix}rate_overrides.${i}.rate_band`,
        BAND_MISSING,
        "The agreement's tariff has no such rate band.",
      );
    }
  }
  const from = out.effective_from;
  if (product === undefined || typeof from !== 'string') return;
  const { available_from: onSale, available_to: offSale } = product;
  const early =
    onSale !== undefined && product.variable !== true && dayStart(from) < Date.parse(onSale);
  const late =
    offSale !== undefined &&
    typeof end === 'string' &&
    dayStart(dayAfter(end)) > Date.parse(offSale);
  if (early || late) {
    fail(
      run,
      `${prefix}rate_overrides`,
      INVALID_PERIOD,
      'The overrides cover days when the product is not on sale.',
    );
  }
}

function agreementRule(market: Market): ObjectRule {
  return {
    codes: [TARIFF_MISSING, BAND_MISSING, INVALID_PERIOD, OPEN_ENDED],
    check: (out, prefix, run, input) => {
      const code = out.tariff_code;
      if (typeof code !== 'string') return;
      const tariff = tariffOf(run, code, market);
      if (tariff === undefined) {
        fail(
          run,
          `${prefix}tariff_code`,
          TARIFF_MISSING,
          `The platform has no ${market.toLowerCase()} tariff with this code.`,
        );
        return;
      }
      const product = productOf(run, tariff);
      const end = endOf(out, input, 'effective_to');
      if (product?.available_to !== undefined && end === null) {
        fail(
          run,
          `${prefix}effective_to`,
          OPEN_ENDED,
          "The agreement's product ends, so the agreement needs an end date.",
        );
      }
      checkOverrides(out, prefix, run, tariff, product, end);
    },
  };
}

/** A product characteristic the platform has, with one of its values. */
const characteristic: ObjectRule = {
  codes: ['characteristic_code_not_found', 'invalid_characteristic_value'],
  check: (out, prefix, run) => {
    const code = out.code;
    if (typeof code !== 'string') return;
    const known = referenceEntry(run, 'characteristic', code);
    if (known === undefined) {
      fail(
        run,
        `${prefix}code`,
        'characteristic_code_not_found',
        'The platform has no such product characteristic.',
      );
      return;
    }
    const value = out.value;
    if (typeof value === 'string' && !known.values.includes(value)) {
      fail(
        run,
        `${prefix}value`,
        'invalid_characteristic_value',
        'The platform does not allow this value for the characteristic.',
      );
    }
  },
};

/** A supply charge names a product the platform has. */
const supplyCharge: ObjectRule = {
  codes: ['product_code_does_not_exist'],
  check: (out, prefix, run) => {
    const code = out.product_code;
    if (typeof code !== 'string' || referenceEntry(run, 'product', code) !== undefined) return;
    fail(
      run,
      `${prefix}product_code`,
      'product_code_does_not_exist',
      'The platform has no product with this code.',
    );
  },
};

// Each published variant of ProductCharacteristic, by its declared name.
const CHARACTERISTIC_VARIANTS = [
  'SalesChannelCharacteristic',
  'Gbr-electricity.payment-methodCharacteristic',
  'Gbr-electricity.meter-rate-profileCharacteristic',
  'Gbr-gas.meter-point-grid-supply-point-equivalentCharacteristic',
  'Gbr-gas.payment-methodCharacteristic',
];

export const SUPPLY_LOOKUP_RULES: ObjectRules = {
  ElectricityAgreement: agreementRule('ELECTRICITY'),
  GasAgreement: agreementRule('GAS'),
  EnergySupplyCharge: supplyCharge,
  ...Object.fromEntries(CHARACTERISTIC_VARIANTS.map((name) => [name, characteristic])),
};
