/** The generator checked against the published account's validator, line by line. */
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { addDays, utcToday } from '../../src/sample/calendar.js';
import { DEFECTS, applyDefect } from '../../src/sample/defects.js';
import { Prng } from '../../src/sample/prng.js';
import { generateSample } from '../../src/sample/sample.generator.js';
import { SAMPLE_SHAPES, type SampleShape } from '../../src/sample/shape.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

const CONTEXT = TEST_ACCOUNT_CONTEXT;

function errorsOf(payload: unknown, today?: string) {
  const result = validateEnergyAccount(
    payload,
    today === undefined ? CONTEXT : { ...CONTEXT, today },
  );
  return result.ok ? [] : result.errors.map(({ code, attr }) => ({ code, attr }));
}

/** The defects of each shape: a defect only spoils a field the shape's accounts have. */
const MINIMAL = [
  'MPAN with a wrong check digit, or MPRN cut short',
  'impossible date',
  'column no schema defines',
  'postcode cut short',
  'e-mail with a dot for its @',
  'transfer reading without its type',
];
const TYPICAL = [
  ...MINIMAL,
  'mobile with a digit missing',
  'PSR need written as its label',
  'gas meter point without its shipper',
];
const FITTING: Record<SampleShape, readonly string[]> = {
  minimal: MINIMAL,
  typical: TYPICAL,
  full: DEFECTS.map((defect) => defect.name),
};
const codesOf = (names: readonly string[]) =>
  [...new Set(DEFECTS.filter((d) => names.includes(d.name)).map((d) => d.code))].sort();

describe.each(SAMPLE_SHAPES)('%s sample accounts against validateEnergyAccount', (shape) => {
  it('are valid on every line without a defect, today and for a past as-of day', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      for (const { payload, defect } of generateSample({
        count: 150,
        supplier: 'ACME',
        seed,
        shape,
      })) {
        expect(defect).toBeUndefined();
        expect(errorsOf(payload)).toEqual([]);
      }
    }
    // Checked on the day they were written as of, accounts of that day are valid as well.
    const asOf = '2024-02-29';
    for (const { payload } of generateSample({
      count: 150,
      supplier: 'ACME',
      seed: 9,
      shape,
      asOf,
    })) {
      expect(errorsOf(payload, asOf)).toEqual([]);
    }
  });

  it('normalise to accounts that validate to themselves, as a creation trusting its stage needs', () => {
    for (const seed of [1, 2, 3]) {
      for (const { payload } of generateSample({ count: 100, supplier: 'ACME', seed, shape })) {
        const normalised = validateEnergyAccount(payload, CONTEXT);
        if (!normalised.ok) throw new Error(JSON.stringify(normalised.errors));
        const again = validateEnergyAccount(JSON.parse(JSON.stringify(normalised.value)), CONTEXT);
        expect(again).toEqual(normalised);
      }
    }
  });

  it('give each defect exactly its expected error, wherever the defect fits', () => {
    const fitted = new Set<string>();
    for (const [d, defect] of DEFECTS.entries()) {
      const lines = generateSample({ count: 60, supplier: 'ACME', seed: 100 + d, shape });
      for (const [i, { payload }] of [...lines].entries()) {
        const expected = applyDefect(defect, payload, new Prng(i), utcToday());
        if (expected === undefined) continue;
        fitted.add(defect.name);
        expect(expected.code).toBe(defect.code);
        expect(errorsOf(payload), defect.name).toEqual([expected]);
      }
    }
    expect([...fitted].sort()).toEqual([...FITTING[shape]].sort());
  });

  it('gives each defective line of a mixed sample exactly its one expected error', () => {
    const seen = new Set<string>();
    const lines = generateSample({
      count: 400,
      supplier: 'ACME',
      seed: 42,
      invalidRatio: 0.5,
      shape,
    });
    for (const { payload, defect } of lines) {
      const errors = errorsOf(payload);
      if (defect === undefined) {
        expect(errors).toEqual([]);
        continue;
      }
      seen.add(defect.code);
      expect(errors).toEqual([defect]);
    }
    // Every kind of defect that fits the shape was drawn and checked at least once.
    expect([...seen].sort()).toEqual(codesOf(FITTING[shape]));
  });

  it('still gives exactly the expected errors when loaded ten days after its as-of day', () => {
    const asOf = addDays(utcToday(), -10);
    const options = { count: 200, supplier: 'ACME', seed: 8, invalidRatio: 0.5, shape, asOf };
    for (const { payload, defect } of generateSample(options)) {
      expect(errorsOf(payload)).toEqual(defect === undefined ? [] : [defect]);
    }
  });
});
