/**
 * The cap on reported errors: a payload with more problems than MAX_FIELD_ERRORS lists the
 * first ones and ends with `too_many_errors`; one with fewer lists every problem, as before.
 */
import { describe, expect, it } from 'vitest';
import { validationFailed } from '../../src/errors.js';
import { MAX_FIELD_ERRORS } from '../../src/payload/validators.js';
import { buildAccount, buildCustomer, buildStatement, buildSupplyAddress } from './factory.js';
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
      `The account failed validation with more than 999 errors (the first: ${problems[0]?.code} at ${problems[0]?.attr}).`,
    );
  });

  it('cuts the unknown keys of a nested object too, keeping the errors found before them', () => {
    // A meter point needs its supply type before its other keys can be judged.
    const point = { supply_type: 'ELECTRICITY', ...unknownKeys(90_000) };
    const account = buildAccount({
      billing_name: 7,
      supply_addresses: [buildSupplyAddress({ meter_points: [point] })],
    });
    const problems = problemsOf(account);
    expect(problems).toHaveLength(MAX_FIELD_ERRORS);
    expect(problems[0]).toEqual({ code: 'invalid_type', attr: 'billing_name' });
    expect(problems).toContainEqual({
      code: 'required',
      attr: 'supply_addresses.0.meter_points.0.mpid',
    });
    expect(problems).toContainEqual({
      code: 'unknown_field',
      attr: 'supply_addresses.0.meter_points.0.k0',
    });
    expect(problems.at(-1)).toEqual({ code: 'too_many_errors', attr: null });
  });

  it('cuts a long list of bad items, which no item limit stops any more', () => {
    // 5,000 statements that each end before they start: v1 refused the list at 100 items.
    const statements = Array.from({ length: 5_000 }, (_, i) =>
      buildStatement(1, {
        statement_id: `S-${i}`,
        bill_period_from_date: '2024-01-02',
        bill_period_to_date: '2024-01-01',
      }),
    );
    const problems = problemsOf(buildAccount({ statements }));
    expect(problems).toHaveLength(MAX_FIELD_ERRORS);
    expect(problems.slice(0, -1)).toEqual(
      Array.from({ length: MAX_FIELD_ERRORS - 1 }, (_, i) => ({
        code: 'start_date_later_than_end_date',
        attr: `statements.${i}.bill_period_to_date`,
      })),
    );
    expect(problems.at(-1)).toEqual({ code: 'too_many_errors', attr: null });
  });

  it('lists every error of a payload with fewer than the cap, cross-field codes included', () => {
    const account = {
      ...buildAccount({
        customers: [buildCustomer(), buildCustomer({ email: 'x' })],
        billing_address1: '1 Legacy Road',
        metadata: [
          { key: 'a', value: 1 },
          { key: 'a', value: 2 },
        ],
      }),
      ...unknownKeys(MAX_FIELD_ERRORS - 10),
    };
    const problems = problemsOf(account);
    expect(problems.length).toBeLessThan(MAX_FIELD_ERRORS);
    const codes = problems.map((p) => p.code);
    expect(codes).not.toContain('too_many_errors');
    expect(codes).toContain('invalid_email');
    // Found after every field was checked: across the items of a list, across the fields.
    expect(codes).toContain('metadata_has_duplicate_keys');
    expect(codes).toContain('billing_address_new_style_and_legacy');
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
