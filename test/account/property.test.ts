import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import type { ValidationResult } from '../../src/payload/run.js';
import { FIELD_ERROR_CODES } from '../../src/payload/codes.js';
import { validateProcessRequest } from '../../src/payload/process-request.js';
import { buildAccount } from './factory.js';
import { CONTEXT } from './helpers.js';

function expectWellFormed(result: ValidationResult<unknown>): void {
  if (result.ok) return;
  expect(result.errors.length).toBeGreaterThan(0);
  for (const error of result.errors) {
    expect(typeof error.detail).toBe('string');
    expect(FIELD_ERROR_CODES).toHaveProperty(error.code);
    expect(error.attr === null || typeof error.attr === 'string').toBe(true);
  }
}

const KEYS = ['customers', 'given_name', 'mobile', '__proto__', 'constructor', 'toString', 'x'];
const randomObject = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...KEYS)), fc.jsonValue());

/** The factory account with one value somewhere inside replaced by an arbitrary JSON value. */
const mutatedAccount = fc
  .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.jsonValue())
  .map(([steps, replacement]) => {
    const account = buildAccount();
    let node: unknown = account;
    for (const [i, step] of steps.entries()) {
      if (typeof node !== 'object' || node === null) break;
      const container = node as Record<string, unknown>;
      const keys = Object.keys(container);
      if (keys.length === 0) break;
      const key = keys[step % keys.length] as string;
      if (i === steps.length - 1) container[key] = replacement;
      else node = container[key];
    }
    return account;
  });

describe('validation never throws and always answers in the documented shape', () => {
  it('for arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        expectWellFormed(validateEnergyAccount(input, CONTEXT));
        expectWellFormed(validateProcessRequest(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it('for objects with random keys, some of them dangerous', () => {
    fc.assert(
      fc.property(randomObject, (input) => {
        const result = validateEnergyAccount(input, CONTEXT);
        expectWellFormed(result);
        expect(result.ok).toBe(false);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 2_000 },
    );
  });

  it('for realistic accounts with one value replaced anywhere', () => {
    fc.assert(
      fc.property(mutatedAccount, fc.boolean(), (input, supplierFound) => {
        expectWellFormed(validateEnergyAccount(input, { ...CONTEXT, supplierFound }));
      }),
      { numRuns: 3_000 },
    );
  });

  it('for JSON parsed from text with __proto__ keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = `{"__proto__":${JSON.stringify(value)},"customers":[{"__proto__":${JSON.stringify(value)}}]}`;
        const result = validateEnergyAccount(JSON.parse(text), CONTEXT);
        expectWellFormed(result);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
