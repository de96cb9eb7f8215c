/** Meter point identifiers: MPAN cores for electricity, MPRNs for gas. */
import { text } from '../scalars.js';
import { fail, type, type Type } from '../validators.js';

const MPAN_WEIGHTS = [3, 5, 7, 13, 17, 19, 23, 29, 31, 37, 41, 43] as const;
const THIRTEEN_DIGITS = /^\d{13}$/;
const MPRN = /^\d{6,10}$/;

/**
 * True for a 13-digit MPAN core whose last digit is its check digit, of a distributor id from 10
 * up: the 14 distribution areas (10-23) and the independent networks (24 on), which hold real
 * supply points too. No id starts with 0.
 */
export function isValidMpan(core: string): boolean {
  if (!THIRTEEN_DIGITS.test(core)) return false;
  const distributor = (core.charCodeAt(0) - 48) * 10 + (core.charCodeAt(1) - 48);
  if (distributor < 10) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (core.charCodeAt(i) - 48) * (MPAN_WEIGHTS[i] as number);
  return (sum % 11) % 10 === core.charCodeAt(12) - 48;
}

/** True for an MPRN: 6 to 10 digits. */
export function isValidMprn(value: string): boolean {
  return MPRN.test(value);
}

/** An identifier read with its meter point's supply_type (declared before it). */
export const supplyPointIdentifier: Type<string> = type(
  (value, path, run, parent) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    const supplyType = parent.supply_type;
    // An unrecognised supply type is reported on its own field; nothing to check against.
    if (supplyType === 'ELECTRICITY' && !isValidMpan(s)) {
      return fail(
        run,
        path,
        'invalid_supply_point_identifier',
        'Expected a 13-digit MPAN core: a distributor id of 10 or more and a valid check digit.',
      );
    }
    if (supplyType === 'GAS' && !isValidMprn(s)) {
      return fail(
        run,
        path,
        'invalid_supply_point_identifier',
        'Expected an MPRN of 6 to 10 digits.',
      );
    }
    return s;
  },
  {
    type: 'string',
    pattern: '^\\d{6,13}$',
    description:
      'ELECTRICITY: 13-digit MPAN core (distributor id 10 or more, valid check digit). GAS: MPRN of 6-10 digits. Unique across the account.',
  },
);
