/**
 * A JSON number as plain decimal text, for the decimal fields of a transactions request
 * (docs/decisions.md, "Transactions requests").
 */

/** A mantissa of one digit, then maybe a point and more digits, and an exponent: `-1.5e-7`. */
const EXPONENT_FORM = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * The number written without an exponent: the digits of its shortest round-trip text (what
 * `String` gives), with the point moved, so `1e-7` is `0.0000001` and `1e21` is
 * `1000000000000000000000`. A finite number only.
 */
export function decimalText(value: number): string {
  const shortest = String(value);
  const parts = EXPONENT_FORM.exec(shortest);
  if (parts === null) return shortest;
  const [, sign = '', first = '', rest = '', exponent = '0'] = parts;
  const digits = first + rest;
  // How many of the digits come before the point.
  const whole = 1 + Number(exponent);
  if (whole <= 0) return `${sign}0.${'0'.repeat(-whole)}${digits}`;
  if (whole >= digits.length) return `${sign}${digits}${'0'.repeat(whole - digits.length)}`;
  return `${sign}${digits.slice(0, whole)}.${digits.slice(whole)}`;
}
