/**
 * The realistic defects a sample line may carry, one each, with the error the service must
 * answer: tests compare the loader's report against these exactly.
 */
import type { Prng } from './prng.js';
import { mpanWithBadCheckDigit, shortMobile, truncatedPostcode } from './uk-data.js';

/** The one field error a defective line must produce. */
export interface ExpectedError {
  code: string;
  attr: string;
}

type Payload = Record<string, unknown>;

interface Defect {
  name: string;
  expected: ExpectedError;
  /** Changes the (freshly generated, unshared) payload in place. */
  apply(payload: Payload, random: Prng): void;
}

function firstCustomer(payload: Payload): Record<string, unknown> {
  return (payload.customers as Record<string, unknown>[])[0] as Record<string, unknown>;
}

function firstMeterPoint(payload: Payload): Record<string, unknown> {
  const supply = (payload.supply_addresses as Payload[])[0] as Payload;
  return (supply.meter_points as Payload[])[0] as Payload;
}

export const DEFECTS: readonly Defect[] = [
  {
    name: 'mobile number with a digit missing',
    expected: { code: 'invalid_phone_number', attr: 'customers.0.mobile' },
    apply: (payload, random) => {
      firstCustomer(payload).mobile = shortMobile(random);
    },
  },
  {
    name: 'MPAN with a wrong check digit',
    expected: {
      code: 'invalid_supply_point_identifier',
      attr: 'supply_addresses.0.meter_points.0.identifier',
    },
    apply: (payload) => {
      const point = firstMeterPoint(payload);
      point.identifier = mpanWithBadCheckDigit(point.identifier as string);
    },
  },
  {
    name: 'impossible calendar date',
    expected: { code: 'invalid_date', attr: 'date_of_sale' },
    apply: (payload) => {
      payload.date_of_sale = '2023-02-30';
    },
  },
  {
    name: 'column the payload does not define',
    expected: { code: 'unknown_field', attr: 'customers.0.middle_name' },
    apply: (payload) => {
      firstCustomer(payload).middle_name = 'Anne';
    },
  },
  {
    name: 'postcode cut short',
    expected: { code: 'invalid_postcode', attr: 'billing_address.postal_code' },
    apply: (payload) => {
      const billing = payload.billing_address as Payload;
      billing.postal_code = truncatedPostcode(billing.postal_code as string);
    },
  },
  {
    name: 'e-mail address without its @',
    expected: { code: 'invalid_email', attr: 'customers.0.email' },
    apply: (payload, random) => {
      const customer = firstCustomer(payload);
      const given = String(customer.given_name)
        .toLowerCase()
        .replace(/[^a-z]/g, '');
      customer.email = `${given}${random.int(1, 99)}.gmail.com`;
    },
  },
];
