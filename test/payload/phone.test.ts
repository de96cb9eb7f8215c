import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CountryCode } from 'libphonenumber-js/core';
import { fastParse, parsePhone, parseWithLibrary } from '../../src/payload/rules/phone.js';

const REGIONS: CountryCode[] = ['GB', 'FR', 'US', 'DE', 'IE', 'IT', 'RU', 'IM'];

const digits = (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max })
    .map((d) => d.join(''));
const punctuation = fc.constantFrom('', ' ', '-', '.', '(', ')', '  ');

/** Phone-like strings: a likely prefix, digits, and formatting sprinkled in. */
const phoneLike = fc
  .tuple(
    fc.constantFrom(
      '',
      '0',
      '07',
      '07400',
      '020',
      '+44',
      '+447',
      '+33',
      '+1',
      '0044',
      '+44 (0)',
      '8',
      '1',
      '+',
    ),
    fc.array(fc.tuple(punctuation, digits(1, 4)), { minLength: 1, maxLength: 5 }),
  )
  .map(([prefix, parts]) => prefix + parts.map(([p, d]) => p + d).join(''));

describe('the phone fast path', () => {
  it('agrees with libphonenumber on whatever it confirms', () => {
    fc.assert(
      fc.property(phoneLike, fc.constantFrom(...REGIONS), (input, region) => {
        expect(parsePhone(input, region)).toEqual(parseWithLibrary(input, region));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees on valid numbers built from real ranges', () => {
    const gbValid = fc
      .tuple(
        fc.constantFrom('07400', '07911', '020 7946', '0121 234', '0800 0', '0345 0', '+44 7400 '),
        digits(5, 6),
      )
      .map(([prefix, rest]) => prefix + rest);
    fc.assert(
      fc.property(gbValid, (input) => {
        expect(parsePhone(input, 'GB')).toEqual(parseWithLibrary(input, 'GB'));
      }),
      { numRuns: 5_000 },
    );
  });

  it('handles the common national and international forms itself', () => {
    expect(fastParse('07400 123456', 'GB')).toEqual({ e164: '+447400123456', type: 'MOBILE' });
    expect(fastParse('+44 20 7946 0018', 'GB')).toEqual({
      e164: '+442079460018',
      type: 'FIXED_LINE',
    });
    expect(fastParse('06 12 34 56 78', 'FR')).toEqual({ e164: '+33612345678', type: 'MOBILE' });
    expect(fastParse('+44 (0)20 7946 0018', 'GB')).toEqual(
      parseWithLibrary('+44 (0)20 7946 0018', 'GB'),
    );
  });

  it('leaves other shapes to the library', () => {
    expect(fastParse('020 7946 0018 ext. 12', 'GB')).toBeUndefined();
    expect(fastParse('07624 123456', 'GB')).toBeUndefined(); // Isle of Man range
    expect(parsePhone('07624 123456', 'GB')).toEqual({ e164: '+447624123456', type: 'MOBILE' });
    expect(fastParse('07400 123456', 'IM')).toBeUndefined(); // not the main country of +44
  });
});
