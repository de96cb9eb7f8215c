/**
 * Realistic UK values for sample accounts: names, addresses with well-formed postcodes in towns
 * whose electricity distributor and gas zone are known, landlines from Ofcom's drama ranges,
 * mobiles near libphonenumber's example number, meter point identifiers with correct check
 * digits, meter serial numbers and set-ups. The platform's codes (tariffs, market participants,
 * PSR needs…) come from the demo catalogue instead (./codes.ts).
 */
import { known } from './codes.js';
import type { Prng } from './prng.js';

export const GIVEN_NAMES: readonly string[] = (
  'Olivia Amelia Isla Ava Mia Ivy Lily Isabella Rosie Sophia Grace Freya Florence ' +
  'Willow Evie Priya Aisha Niamh Siobhan Eilidh Oliver George Noah Arthur Muhammad Leo ' +
  'Harry Oscar Archie Henry Theodore Freddie Jack Charlie Thomas Rhys Dylan Callum ' +
  'Ravi Kwame'
).split(' ');

export const FAMILY_NAMES: readonly string[] = (
  'Smith Jones Williams Taylor Brown Davies Evans Wilson Thomas Johnson Roberts ' +
  'Robinson Thompson Wright Walker White Edwards Hughes Green Hall Lewis Harris Clarke ' +
  'Patel Jackson Wood Turner Martin Cooper Hill Ward Morris Moore Clark Lee King ' +
  "O'Brien MacDonald Khan Ahmed Singh Kaur Nowak Okafor Campbell Murphy Price Bennett"
).split(' ');

export const TITLES = ['Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Mx'];

const STREETS: readonly string[] = (
  'High Street|Station Road|Church Lane|Victoria Road|Green Lane|Manor Road|' +
  'Park Avenue|Mill Lane|Queens Road|Kings Road|New Street|The Crescent|Albert Road|' +
  'York Road|School Lane|Springfield Road|Chapel Street|Orchard Close'
).split('|');

interface Town {
  town: string;
  county?: string;
  outward: readonly string[];
  /** The electricity distributor's id, the first two digits of every MPAN there. */
  distributor: number;
  /** The gas local distribution zone. */
  ldz: string;
}

/** Towns with real outward codes, distributors and gas zones of theirs, so that they all agree. */
const TOWNS: readonly Town[] = [
  {
    town: 'London',
    outward: ['SW1A', 'SE1', 'N1', 'E2', 'W5', 'NW3', 'EC1V', 'WC2H', 'SW11'],
    distributor: 12,
    ldz: 'NT',
  },
  {
    town: 'Manchester',
    county: 'Greater Manchester',
    outward: ['M1', 'M4', 'M20'],
    distributor: 16,
    ldz: 'NW',
  },
  {
    town: 'Birmingham',
    county: 'West Midlands',
    outward: ['B1', 'B15', 'B33'],
    distributor: 14,
    ldz: 'WM',
  },
  {
    town: 'Leeds',
    county: 'West Yorkshire',
    outward: ['LS1', 'LS6', 'LS11'],
    distributor: 23,
    ldz: 'NE',
  },
  { town: 'Bristol', outward: ['BS1', 'BS6', 'BS8'], distributor: 22, ldz: 'SW' },
  {
    town: 'Sheffield',
    county: 'South Yorkshire',
    outward: ['S1', 'S10'],
    distributor: 23,
    ldz: 'NE',
  },
  {
    town: 'Newcastle upon Tyne',
    county: 'Tyne and Wear',
    outward: ['NE1', 'NE6'],
    distributor: 15,
    ldz: 'NO',
  },
  { town: 'Nottingham', outward: ['NG1', 'NG7'], distributor: 11, ldz: 'EM' },
  { town: 'Glasgow', outward: ['G1', 'G12'], distributor: 18, ldz: 'SC' },
  { town: 'Edinburgh', outward: ['EH1', 'EH9'], distributor: 18, ldz: 'SC' },
  { town: 'Cardiff', outward: ['CF10', 'CF24'], distributor: 21, ldz: 'WS' },
  {
    town: 'Liverpool',
    county: 'Merseyside',
    outward: ['L1', 'L8', 'L17'],
    distributor: 13,
    ldz: 'NW',
  },
  { town: 'York', county: 'North Yorkshire', outward: ['YO1', 'YO10'], distributor: 23, ldz: 'NE' },
  { town: 'Norwich', county: 'Norfolk', outward: ['NR1', 'NR2'], distributor: 10, ldz: 'EA' },
  { town: 'Brighton', county: 'East Sussex', outward: ['BN1', 'BN2'], distributor: 19, ldz: 'SE' },
  { town: 'Oxford', county: 'Oxfordshire', outward: ['OX1', 'OX4'], distributor: 20, ldz: 'SO' },
  { town: 'Exeter', county: 'Devon', outward: ['EX1', 'EX4'], distributor: 22, ldz: 'SW' },
];

// The letters a postcode's inward code may use (no C, I, K, M, O or V).
const INWARD_LETTERS = [...'ABDEFGHJLNPQRSTUWXYZ'];

export interface UkAddress {
  lines: string[];
  town: string;
  county: string | undefined;
  postcode: string;
  outward: string;
  distributor: number;
  ldz: string;
}

export function address(random: Prng): UkAddress {
  const place = random.pick(TOWNS);
  const outward = random.pick(place.outward);
  const inward = `${random.int(0, 9)}${random.pick(INWARD_LETTERS)}${random.pick(INWARD_LETTERS)}`;
  const house = random.chance(0.15)
    ? `Flat ${random.int(1, 24)}, ${random.int(1, 180)} ${random.pick(STREETS)}`
    : `${random.int(1, 250)} ${random.pick(STREETS)}`;
  return {
    lines: [house],
    town: place.town,
    county: place.county,
    postcode: `${outward} ${inward}`,
    outward,
    distributor: place.distributor,
    ldz: place.ldz,
  };
}

/** A postcode whose inward code lost its last letter: a typical keying error. */
export function truncatedPostcode(postcode: string): string {
  return postcode.slice(0, -1);
}

// Ofcom reserves these landline blocks for drama; libphonenumber-js accepts them as fixed lines.
const LANDLINE_BLOCKS = ['020 7946 0', '0113 496 0', '0117 496 0', '0121 496 0', '0161 496 0'];

export function landline(random: Prng): string {
  return `${random.pick(LANDLINE_BLOCKS)}${random.digits(3)}`;
}

/**
 * A mobile number. Ofcom's drama mobile range (07700 900xxx) is refused by libphonenumber-js as
 * not allocated, so the block around the library's own example number (07400 123456) is used.
 */
export function mobile(random: Prng): string {
  const subscriber = `123${random.digits(3)}`;
  return random.pick([`07400 ${subscriber}`, `+44 7400 ${subscriber}`, `07400${subscriber}`]);
}

/** A mobile number with a digit missing: what a truncated spreadsheet cell looks like. */
export function shortMobile(random: Prng): string {
  return `07400 123${random.digits(2)}`;
}

const MAIL_DOMAINS = ['gmail.com', 'outlook.com', 'btinternet.com', 'yahoo.co.uk', 'hotmail.co.uk'];

export function emailFor(random: Prng, given: string, family: string): string {
  const local = `${given}.${family}`.toLowerCase().replace(/[^a-z.]/g, '');
  return `${local}${random.int(1, 99)}@${random.pick(MAIL_DOMAINS)}`;
}

const MPAN_WEIGHTS = [3, 5, 7, 13, 17, 19, 23, 29, 31, 37, 41, 43];

/** The check digit of the first 12 digits of an MPAN core. */
export function mpanCheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (MPAN_WEIGHTS[i] ?? 0);
  return (sum % 11) % 10;
}

/** A 13-digit MPAN core: the distributor's id (10–23; any when not given), 10 digits, its check digit. */
export function mpan(random: Prng, distributor = random.int(10, 23)): string {
  const first12 = `${distributor}${random.digits(10)}`;
  return `${first12}${mpanCheckDigit(first12)}`;
}

/** The same MPAN core with a check digit that does not match. */
export function mpanWithBadCheckDigit(core: string): string {
  const good = Number(core.slice(-1));
  return `${core.slice(0, 12)}${(good + 1) % 10}`;
}

/** A gas meter point reference: 6 to 10 digits (mostly 10, as domestic ones are), no leading zero. */
export function mprn(random: Prng): string {
  const length = random.chance(0.7) ? 10 : random.int(6, 9);
  return `${random.int(1, 9)}${random.digits(length - 1)}`;
}

const MAKERS = [...'ADEFKLSZ'];
const SERIES = [...'ABEHKMNPW'];

/** A meter's serial number in the maker-year-series-number form most meters carry. */
export function meterSerial(random: Prng, installed: string): string {
  return `${random.pick(MAKERS)}${installed.slice(2, 4)}${random.pick(SERIES)}${random.digits(6)}`;
}

export interface RegisterSetUp {
  id: string;
  tpr: string;
}

const tpr = (code: string) => known('tpr', code);

/**
 * The electricity meter set-ups most homes have: profile class, SSC and the TPR of each
 * register (TPRs of the demo catalogue).
 */
export const METER_SET_UPS: readonly {
  rates: number;
  profileClass: number;
  ssc: string;
  registers: readonly RegisterSetUp[];
}[] = [
  { rates: 1, profileClass: 1, ssc: '0393', registers: [{ id: '1', tpr: tpr('00001') }] },
  {
    rates: 2,
    profileClass: 2,
    ssc: '0151',
    registers: [
      { id: '1', tpr: tpr('00206') },
      { id: '2', tpr: tpr('00210') },
    ],
  },
];

export const SALES_CHANNELS = ['DIRECT', 'PRICE_COMPARISON', 'TELESALES', 'MOVE_IN', 'FIELD_SALES'];

export const NOTES = [
  'Customer asked for paper bills to be sent to the billing address.',
  'Meter reading disputed in March; resolved with a customer reading.',
  'Prefers contact by e-mail after 5pm.',
  'Moved in after the previous occupier; final bill sent to them separately.',
  'Payment plan agreed for the winter quarter.',
  'Smart meter installation offered; customer will call back.',
  'Customer asked for a large-print copy of their last statement.',
  'Direct debit amount reviewed with the customer over the phone.',
];
