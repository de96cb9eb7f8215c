/**
 * The cap on reported errors: a payload with more problems than MAX_FIELD_ERRORS lists the
 * first ones and ends with `too_many_errors`; one with fewer lists every problem, as before.
 */
import { describe, expect, it } from 'vitest';
import { validationFailed } from '../../src/errors.js';
import { MAX_FIELD_ERRORS } from '../../src/payload/validators.js';
import { buildAccount, buildCustomer, buildSupplyAddress } from './factory.js';
import { problemsOf } from './helpers.js';

const unknownKeys = (count: number, from = 0) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${from + i}`, 0]));

describe('the error cap', () => {
  it('is 1,000 items', () => {
    expect(MAX_FIELD_ERRORS).toBe(1000);
  });

  it('lists 999 of 90,000 unknown keys, then too_many_errors', () => {
    const problems = problemsOf(unknownKeys(90_000));
    expect(problems).toHaveLength(MAX_FIELD_ERRORS);
    // The missing required fields first, as always, then the unknown keys up to the cap.
    const codes = new Set(problems.slice(0, -1).map((p) => p.code));
    expect([...codes].sort()).toEqual(['required', 'unknown_field']);
    expect(problems.at(-1)).toEqual({ code: 'too_many_errors', attr: null });
    expect(validationFailed(problems.map((p) => ({ ...p, detail: '' }))).message).toBe(
      'The account failed validation with more than 999 errors.',
    );
  });

  it('cuts the unknown keys of a nested object too, keeping the errors found before them', () => {
    const account = buildAccount({
      billing_name: 7,
      supply_addresses: [buildSupplyAddress({ meter_points: [unknownKeys(90_000)] })],
    });
    const problems = problemsOf(account);
    expect(problems).toHaveLength(MAX_FIELD_ERRORS);
    expect(problems[0]).toEqual({ code: 'invalid_type', attr: 'billing_name' });
    expect(problems).toContainEqual({
      code: 'unknown_field',
      attr: 'supply_addresses.0.meter_points.0.k0',
    });
    expect(problems.at(-1)?.code).toBe('too_many_errors');
  });

  it('lists every error of a payload with fewer than the cap, cross-field codes included', () => {
    const account = {
      ...buildAccount({
        customers: [
          buildCustomer({ is_primary: true }),
          buildCustomer({ is_primary: true, email: 'x' }),
        ],
      }),
      ...unknownKeys(MAX_FIELD_ERRORS - 10),
    };
    const problems = problemsOf(account);
    expect(problems.length).toBeLessThan(MAX_FIELD_ERRORS);
    expect(problems.map((p) => p.code)).not.toContain('too_many_errors');
    expect(problems.map((p) => p.code)).toContain('multiple_primary_customers');
    expect(problems.map((p) => p.code)).toContain('invalid_email');
  });

  it('reports exactly 999 problems in full, and 1,000 as 999 and too_many_errors', () => {
    const withUnknown = (count: number) => ({ ...buildAccount(), ...unknownKeys(count) });
    const full = problemsOf(withUnknown(MAX_FIELD_ERRORS - 1));
    expect(full).toHaveLength(MAX_FIELD_ERRORS - 1);
    expect(full.at(-1)).toEqual({ code: 'unknown_field', attr: `k${MAX_FIELD_ERRORS - 2}` });
    const over = problemsOf(withUnknown(MAX_FIELD_ERRORS));
    expect(over).toHaveLength(MAX_FIELD_ERRORS);
    expect(over.at(-1)?.code).toBe('too_many_errors');
  });
});
