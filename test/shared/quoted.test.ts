/** Text printed to a terminal: what a terminal could act on is escaped, and the JSON still parses back. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoted, showableJson } from '../../src/shared/quoted.js';

describe('quoted and showableJson', () => {
  it.each([
    ['a\nb', '"a\\nb"'],
    ['a\u001bb', '"a\\u001bb"'],
    ['a\u007fb', '"a\\u007Fb"'],
    ['a\u009bb', '"a\\u009Bb"'],
    ['acme\u202eevil', '"acme\\u202Eevil"'],
    ['a\u2028b\u2029', '"a\\u2028b\\u2029"'],
    ['plain é ✓', '"plain é ✓"'],
  ])('quotes %j as %s', (value, expected) => {
    expect(quoted(value)).toBe(expected);
  });

  it('indents a value, escaping inside strings only', () => {
    const text = showableJson({ name: 'x\u202ey', list: [1, '\u0085'] }, 2);
    expect(text).toBe('{\n  "name": "x\\u202Ey",\n  "list": [\n    1,\n    "\\u0085"\n  ]\n}');
  });

  it('parses back to the same value, with nothing a terminal could act on left', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: 'binary' }),
        fc.constantFrom(undefined, 2),
        (value, indent) => {
          const text = showableJson(value, indent);
          expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(value));
          // Line breaks of the indentation are the only controls left.
          expect(text.replaceAll('\n', '')).not.toMatch(/[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u);
        },
      ),
      { numRuns: 100 },
    );
  });
});
