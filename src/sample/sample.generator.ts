/**
 * Generates realistic account payloads one at a time, so a million lines
 * never need a million objects; a chosen fraction carries exactly one known defect.
 */
import { DEFECTS, type ExpectedError } from './defects.js';
import { lineRandom, type Prng } from './prng.js';
import * as uk from './uk-data.js';

export type { ExpectedError } from './defects.js';

export interface SampleOptions {
  count: number;
  supplier: string;
  /** Fraction of lines (0–1) that carry one defect each. */
  invalidRatio?: number;
  seed: number;
}

export interface SampleLine {
  payload: Record<string, unknown>;
  /** Present on defective lines: the one error the service must report. */
  defect?: ExpectedError;
}

/** The external account number of line `index` (0-based): unique per supplier and seed. */
export function sampleAccountNumber(supplier: string, seed: number, index: number): string {
  return `${supplier}-${seed}-${String(index + 1).padStart(7, '0')}`;
}

/** The sample lines in order; defective lines are spread evenly, their kind drawn at random. */
export function* generateSample(options: SampleOptions): Generator<SampleLine> {
  const ratio = Math.min(1, Math.max(0, options.invalidRatio ?? 0));
  // An offset drawn from the seed, so the defective lines are not always the same indexes.
  const offset = lineRandom(options.seed, -1).next();
  for (let index = 0; index < options.count; index++) {
    const random = lineRandom(options.seed, index);
    const payload = account(random, sampleAccountNumber(options.supplier, options.seed, index));
    payload.import_supplier = options.supplier;
    // Exactly floor or ceil of count × ratio lines are defective, never a random number of them.
    if (Math.floor((index + 1) * ratio + offset) > Math.floor(index * ratio + offset)) {
      const defect = random.pick(DEFECTS);
      defect.apply(payload, random);
      yield { payload, defect: defect.expected };
    } else {
      yield { payload };
    }
  }
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A real calendar date in the given years (the 28th at the latest), always in the past. */
function date(random: Prng, fromYear: number, toYear: number): string {
  return `${random.int(fromYear, toYear)}-${pad2(random.int(1, 12))}-${pad2(random.int(1, 28))}`;
}

function datetime(random: Prng, fromYear: number, toYear: number): string {
  const time = `${pad2(random.int(0, 23))}:${pad2(random.int(0, 59))}:${pad2(random.int(0, 59))}`;
  return `${date(random, fromYear, toYear)}T${time}Z`;
}

function customer(random: Prng, primary: boolean, family: string): Record<string, unknown> {
  const given = random.pick(uk.GIVEN_NAMES);
  const person: Record<string, unknown> = {
    title: random.pick(uk.TITLES),
    given_name: given,
    family_name: family,
    email: uk.emailFor(random, given, family),
    mobile: uk.mobile(random),
    date_of_birth: date(random, 1940, 2003),
    is_primary: primary,
  };
  if (random.chance(0.3)) person.landline = uk.landline(random);
  if (random.chance(0.4)) {
    person.consents = [
      { type: 'MARKETING_EMAIL', value: random.pick(['ACCEPTED', 'REJECTED']) },
      { type: 'MARKETING_SMS', value: 'UNKNOWN', signed_at: datetime(random, 2019, 2023) },
    ];
  }
  if (random.chance(0.05)) {
    person.psr = [
      { code: random.pick(['07', '14', '19']), effective_from: date(random, 2018, 2023) },
    ];
  }
  return person;
}

function meterPoint(random: Prng, electricity: boolean): Record<string, unknown> {
  const start = date(random, 2012, 2020);
  const point: Record<string, unknown> = {
    supply_type: electricity ? 'ELECTRICITY' : 'GAS',
    identifier: electricity ? uk.mpan(random) : uk.mprn(random),
    supply_start_date: start,
    agreements: [
      {
        tariff_code: `${electricity ? 'E' : 'G'}-1R-VAR-${random.int(19, 24)}-04-01`,
        effective_from: start,
      },
    ],
  };
  if (random.chance(0.5)) {
    point.meters = [
      {
        meter_serial_number: `${electricity ? 'E' : 'G'}${random.int(10, 23)}Z${random.digits(6)}`,
        installed_on: start,
        registers: [{ register_id: '1', tpr: '00001', number_of_digits: 5 }],
        transfer_readings: [
          {
            register_id: '1',
            reading_date: date(random, 2024, 2024),
            reading_value: String(random.int(100, 99999)),
            reading_type: random.pick(['CUSTOMER', 'ESTIMATE', 'SMART']),
          },
        ],
      },
    ];
  }
  return point;
}

function account(random: Prng, external: string): Record<string, unknown> {
  const home = uk.address(random);
  const family = random.pick(uk.FAMILY_NAMES);
  const customers = [customer(random, true, family)];
  if (random.chance(0.25)) customers.push(customer(random, false, random.pick(uk.FAMILY_NAMES)));
  const meterPoints = [meterPoint(random, true)];
  if (random.chance(0.6)) meterPoints.push(meterPoint(random, false));
  const payload: Record<string, unknown> = {
    import_supplier: '',
    external_account_number: external,
    account_type: 'DOMESTIC',
    date_of_sale: date(random, 2018, 2024),
    communication_preference: random.pick(['ONLINE', 'ONLINE', 'PRINT']),
    billing_address: {
      country: 'GB',
      street_address: home.lines.join('\n'),
      locality: home.town,
      ...(home.county === undefined ? {} : { administrative_area: home.county }),
      postal_code: home.postcode,
    },
    transfer_balance: `${random.chance(0.3) ? '-' : ''}${random.int(0, 900)}.${random.digits(2)}`,
    last_billed_to_date: date(random, 2024, 2024),
    customers,
    supply_addresses: [
      {
        supply_address1: home.lines[0],
        supply_address2: home.town,
        supply_postcode: home.postcode,
        customer_at_supply_address_from_date: date(random, 2010, 2017),
        meter_points: meterPoints,
      },
    ],
    statements: [
      {
        statement_id: `ST-${random.digits(8)}`,
        bill_period_from_date: '2024-01-01',
        bill_period_to_date: '2024-01-31',
        issued_date: '2024-02-03',
        gross_amount: random.int(1500, 40000),
        statement_path: `/statements/2024/${external}-1.pdf`,
      },
    ],
    notes: [
      {
        body: random.pick(NOTES),
        created_at: datetime(random, 2020, 2024),
        ...(random.chance(0.1) ? { is_pinned: true } : {}),
      },
    ],
  };
  if (random.chance(0.5)) {
    payload.payment_instructions = [
      {
        type: 'DIRECT_DEBIT',
        vendor: 'Bacs',
        reference: `DD${random.digits(10)}`,
        valid_from: date(random, 2018, 2023),
      },
    ];
  }
  if (random.chance(0.3))
    payload.references = [{ namespace: 'legacy-crm', value: random.digits(9) }];
  return payload;
}

const NOTES = [
  'Customer asked for paper bills to be sent to the billing address.',
  'Meter reading disputed in March; resolved with a customer reading.',
  'Prefers contact by e-mail after 5pm.',
  'Moved in after the previous occupier; final bill sent to them separately.',
  'Payment plan agreed for the winter quarter.',
  'Smart meter installation offered; customer will call back.',
];
