/**
 * Industry identifiers the account carries, checked and written one standard way: meter serial
 * numbers, Companies House numbers and smart device ids (the readings are in ./README.md).
 */
import { asciiUpperCase } from '../payload/scalars.js';
import { normalisedBy, upperCaseMatching, type FieldRule } from './rules.js';

const METER_SERIAL = 'invalid_meter_serial_number';

/** An electricity meter serial number: 1 to 10 letters or digits, upper-cased. */
export const electricitySerialNumber: FieldRule = upperCaseMatching(
  /^[A-Z0-9]{1,10}$/,
  METER_SERIAL,
  'Expected an electricity meter serial number of 1 to 10 letters or digits.',
);

/** A gas meter serial number: 1 to 14 letters or digits, upper-cased. */
export const gasSerialNumber: FieldRule = upperCaseMatching(
  /^[A-Z0-9]{1,14}$/,
  METER_SERIAL,
  'Expected a gas meter serial number of 1 to 14 letters or digits.',
);

const DIGITS_ONLY = /^\d{1,8}$/;
const PREFIXED = /^([A-Z]{2}|R0)(\d{1,6})$/;
// Registered societies, some partnerships and Northern Irish companies end in letters.
const LETTERED = /^[A-Z]{2}\d{3}[A-Z0-9]{3}$/;

/**
 * The standard eight-character form of a Companies House number, or undefined: white space
 * removed, upper-cased, digits padded with zeros on the left (`1234567` is `01234567`,
 * `sc 1234` is `SC001234`).
 */
export function standardCompanyNumber(raw: string): string | undefined {
  const s = asciiUpperCase(raw.replace(/\s+/g, ''));
  if (s === undefined) return undefined;
  if (DIGITS_ONLY.test(s)) return /^0+$/.test(s) ? undefined : s.padStart(8, '0');
  const prefixed = PREFIXED.exec(s);
  if (prefixed !== null) {
    const prefix = prefixed[1] as string;
    const digits = prefixed[2] as string;
    return /^0+$/.test(digits) ? undefined : `${prefix}${digits.padStart(6, '0')}`;
  }
  return LETTERED.test(s) ? s : undefined;
}

export const companyNumber: FieldRule = normalisedBy(
  standardCompanyNumber,
  'invalid_company_number',
  'Expected a Companies House number such as 01234567 or SC123456.',
);

// 16 hex digits, in pairs written together or all separated by the same `-`, `:` or space.
const EUI_64 = /^[0-9A-F]{2}(?:([-: ]?)[0-9A-F]{2})(?:\1[0-9A-F]{2}){6}$/;

/** A smart device id (an EUI-64) as eight upper-case hex pairs joined by `-`, or undefined. */
export function standardDeviceId(raw: string): string | undefined {
  const s = asciiUpperCase(raw);
  if (s === undefined || !EUI_64.test(s)) return undefined;
  const hex = s.replace(/[-: ]/g, '');
  return hex.match(/../g)?.join('-');
}

export const smartDeviceId: FieldRule = normalisedBy(
  standardDeviceId,
  'invalid_smart_device_id',
  'Expected a device id of 16 hex digits, such as 00-0D-6F-00-0A-B1-C2-D3.',
);
