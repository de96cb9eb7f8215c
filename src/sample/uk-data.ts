/**
 * Realistic UK values for sample accounts: names, addresses with well-formed postcodes, landlines
 * from Ofcom's drama ranges, mobiles near libphonenumber's example number, and meter point
 * identifiers with correct check digits.
 */
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

/** Towns with real outward codes of theirs, so addresses and postcodes agree. */
const TOWNS: readonly { town: string; county?: string; outward: readonly string[] }[] = [
  { town: 'London', outward: ['SW1A', 'SE1', 'N1', 'E2', 'W5', 'NW3', 'EC1V', 'WC2H', 'SW11'] },
  { town: 'Manchester', county: 'Greater Manchester', outward: ['M1', 'M4', 'M20'] },
  { town: 'Birmingham', county: 'West Midlands', outward: ['B1', 'B15', 'B33'] },
  { town: 'Leeds', county: 'West Yorkshire', outward: ['LS1', 'LS6', 'LS11'] },
  { town: 'Bristol', outward: ['BS1', 'BS6', 'BS8'] },
  { town: 'Sheffield', county: 'South Yorkshire', outward: ['S1', 'S10'] },
  { town: 'Newcastle upon Tyne', county: 'Tyne and Wear', outward: ['NE1', 'NE6'] },
  { town: 'Nottingham', outward: ['NG1', 'NG7'] },
  { town: 'Glasgow', outward: ['G1', 'G12'] },
  { town: 'Edinburgh', outward: ['EH1', 'EH9'] },
  { town: 'Cardiff', outward: ['CF10', 'CF24'] },
  { town: 'Belfast', county: 'County Antrim', outward: ['BT1', 'BT9'] },
  { town: 'York', county: 'North Yorkshire', outward: ['YO1', 'YO10'] },
  { town: 'Norwich', county: 'Norfolk', outward: ['NR1', 'NR2'] },
  { town: 'Brighton', county: 'East Sussex', outward: ['BN1', 'BN2'] },
  { town: 'Oxford', county: 'Oxfordshire', outward: ['OX1', 'OX4'] },
  { town: 'Exeter', county: 'Devon', outward: ['EX1', 'EX4'] },
];

// The letters a postcode's inward code may use (no C, I, K, M, O or V).
const INWARD_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

export interface UkAddress {
  lines: string[];
  town: string;
  county: string | undefined;
  postcode: string;
  outward: string;
}

export function address(random: Prng): UkAddress {
  const place = random.pick(TOWNS);
  const outward = random.pick(place.outward);
  const inward = `${random.int(0, 9)}${random.pick([...INWARD_LETTERS])}${random.pick([...INWARD_LETTERS])}`;
  const house = random.chance(0.15)
    ? `Flat ${random.int(1, 24)}, ${random.int(1, 180)} ${random.pick(STREETS)}`
    : `${random.int(1, 250)} ${random.pick(STREETS)}`;
  return {
    lines: [house],
    town: place.town,
    county: place.county,
    postcode: `${outward} ${inward}`,
    outward,
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

const MPAN_WEIGHTS = [3, 5, 7, 13, 17, 19, 23, 29, 31, 37, 41, 43];

/** The check digit of the first 12 digits of an MPAN core. */
export function mpanCheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (MPAN_WEIGHTS[i] ?? 0);
  return (sum % 11) % 10;
}

/** A 13-digit MPAN core: distributor id 10–23, 10 digits, then its check digit. */
export function mpan(random: Prng): string {
  const first12 = `${random.int(10, 23)}${random.digits(10)}`;
  return `${first12}${mpanCheckDigit(first12)}`;
}

/** The same MPAN core with a check digit that does not match. */
export function mpanWithBadCheckDigit(core: string): string {
  const good = Number(core.slice(-1));
  return `${core.slice(0, 12)}${(good + 1) % 10}`;
}

/** A gas meter point reference: 6 to 10 digits, no leading zero. */
export function mprn(random: Prng): string {
  const length = random.int(6, 10);
  return `${random.int(1, 9)}${random.digits(length - 1)}`;
}

const MAIL_DOMAINS = ['gmail.com', 'outlook.com', 'btinternet.com', 'yahoo.co.uk', 'hotmail.co.uk'];

export function emailFor(random: Prng, given: string, family: string): string {
  const local = `${given}.${family}`.toLowerCase().replace(/[^a-z.]/g, '');
  return `${local}${random.int(1, 99)}@${random.pick(MAIL_DOMAINS)}`;
}
