/** A JSON number of a transactions request as plain decimal text. */
import { describe, expect, it } from 'vitest';
import { decimalText } from '../../src/post-import/transactions/decimal-text.js';

describe('decimalText', () => {
  it('writes the numbers String writes with an exponent without one', () => {
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(-1.25e-7)).toBe('-0.000000125');
    expect(decimalText(1.2345e-10)).toBe('0.00000000012345');
    expect(decimalText(1e21)).toBe('1000000000000000000000');
    expect(decimalText(-1.5e22)).toBe('-15000000000000000000000');
    expect(decimalText(5e-324)).toBe(`0.${'0'.repeat(323)}5`);
  });

  it('writes the others as String does', () => {
    for (const [value, text] of [
      [10.0, '10'],
      [0.1, '0.1'],
      [-0, '0'],
      [0.000001, '0.000001'],
      [123456789.5, '123456789.5'],
      [1e20, '100000000000000000000'],
    ] as const) {
      expect(decimalText(value)).toBe(text);
    }
  });

  it('reads back as the same number, with the digits of its shortest text', () => {
    const significant = (text: string) =>
      text
        .replace(/e.*$/, '')
        .replace(/[-.]/g, '')
        .replace(/^0+|0+$/g, '');
    const values = [1e-7, 3.14159e-9, 0.1 + 0.2, 9.999999999e-7, 1.7976931348623157e308, 2 ** -30];
    for (const value of values) {
      const text = decimalText(value);
      expect(text).toMatch(/^-?\d+(\.\d+)?$/);
      expect(Number(text)).toBe(value);
      expect(significant(text)).toBe(significant(String(value)));
    }
  });
});
