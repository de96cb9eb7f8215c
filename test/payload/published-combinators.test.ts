import { describe, expect, it } from 'vitest';
import { instant } from '../../src/payload/dates.js';
import { componentsOf, named } from '../../src/payload/named.js';
import { annotate, nullable, object, optional, required } from '../../src/payload/object.js';
import { emailAddress } from '../../src/payload/rules/email.js';
import { runType, startRun } from '../../src/payload/run.js';
import { decimalOf, enumOf, jsonValue, string, timeOfDay } from '../../src/payload/scalars.js';
import { keyed, tagged } from '../../src/payload/union.js';
import { array, type Type } from '../../src/payload/validators.js';

function check<T>(t: Type<T>, input: unknown) {
  const result = runType(t, input, startRun({ today: '2026-11-26' }));
  return result.ok ? { value: result.value } : { errors: result.errors.map((e) => e.code) };
}

describe('the combinators the published schema needs', () => {
  it('bounds strings at both ends in code points', () => {
    expect(check(string({ min: 4, max: 4 }), 'AB')).toEqual({ errors: ['min_length'] });
    expect(check(string({ min: 4, max: 4 }), 'ABCDE')).toEqual({ errors: ['max_length'] });
    expect(check(string({ min: 2 }), '😀😀')).toEqual({ value: '😀😀' });
    expect(string({ min: 4, max: 4 }).schema).toEqual({
      type: 'string',
      minLength: 4,
      maxLength: 4,
    });
  });

  it('reads published decimals with their digit limits and at least one digit', () => {
    const money = decimalOf(8, 2);
    expect(check(money, '-12.50')).toEqual({ value: '-12.50' });
    expect(check(money, '.5')).toEqual({ value: '.5' });
    expect(check(money, '-')).toEqual({ errors: ['invalid_decimal'] });
    expect(check(money, '1.234')).toEqual({ errors: ['invalid_decimal'] });
    expect(check(money, 12)).toEqual({ errors: ['invalid_type'] });
    expect(money.schema.pattern).toBe('^-?\\d{0,8}(?:\\.\\d{0,2})?$');
  });

  it('normalises RFC 3339 datetimes and bare dates to UTC', () => {
    expect(check(instant(), '2024-01-31T10:00:00Z')).toEqual({ value: '2024-01-31T10:00:00Z' });
    expect(check(instant(), '2024-01-31')).toEqual({ value: '2024-01-31T00:00:00Z' });
    expect(check(instant(), '2024-01-31T10:00:00+01:00')).toEqual({
      value: '2024-01-31T09:00:00Z',
    });
    expect(check(instant(), '2024-01-31T10:00:00.250Z')).toEqual({
      value: '2024-01-31T10:00:00.250Z',
    });
    expect(check(instant(), '2024-02-30T10:00:00Z')).toEqual({ errors: ['invalid_datetime'] });
    expect(check(instant(), '2024-01-31T24:00:00Z')).toEqual({ errors: ['invalid_datetime'] });
  });

  it('refuses a datetime whose offset moves it out of four-digit years, at either end', () => {
    expect(check(instant(), '9999-12-31T23:30:00Z')).toEqual({ value: '9999-12-31T23:30:00Z' });
    expect(check(instant(), '9999-12-31T23:30:00-01:00')).toEqual({
      errors: ['invalid_datetime'],
    });
    expect(check(instant(), '0001-01-01T00:30:00Z')).toEqual({ value: '0001-01-01T00:30:00Z' });
    expect(check(instant(), '0001-01-01T00:30:00+01:00')).toEqual({
      errors: ['invalid_datetime'],
    });
  });

  it('checks times of day and e-mail shapes', () => {
    expect(check(timeOfDay, '07:30')).toEqual({ value: '07:30' });
    expect(check(timeOfDay, '7:30')).toEqual({ errors: ['invalid_format'] });
    expect(check(emailAddress(), 'a@b.co.uk')).toEqual({ value: 'a@b.co.uk' });
    expect(check(emailAddress(), 'test@example.com')).toEqual({ value: 'test@example.com' });
    expect(check(emailAddress(254), 'a@b')).toEqual({ errors: ['invalid_email'] });
  });

  it('leaves an array unbounded with max null', () => {
    const many = array(string(), { max: null });
    const items = Array.from({ length: 500 }, (_, i) => `x${i}`);
    expect(check(many, items)).toEqual({ value: items });
    expect(many.schema).not.toHaveProperty('maxItems');
    expect(check(array(string(), { max: null, min: 1 }), [])).toEqual({ errors: ['min_length'] });
  });

  it('names schemas as components referred to by $ref, null included where allowed', () => {
    const inner = named('Inner', object({ a: required(string()) }));
    const outer = named(
      'Outer',
      object({
        inner: nullable(inner),
        kind: annotate(optional(enumOf(['X', ''])), { default: '', deprecated: true }),
        // Keywords beside a bare $ref are dropped by OpenAPI tools: the reference is wrapped.
        legacy: annotate(optional(inner), { deprecated: true }),
        value: required(jsonValue(100)),
        anything: nullable(jsonValue(100)),
      }),
    );
    expect(componentsOf([inner, outer])).toEqual({
      Inner: inner.definition,
      Outer: outer.definition,
    });
    expect(outer.definition).toMatchObject({
      properties: {
        inner: { anyOf: [{ $ref: '#/components/schemas/Inner' }, { type: 'null' }] },
        kind: { enum: ['X', ''], default: '', deprecated: true },
        legacy: { allOf: [{ $ref: '#/components/schemas/Inner' }], deprecated: true },
        value: { not: { type: 'null' } },
        anything: { anyOf: [{ not: { type: 'null' } }, { type: 'null' }] },
      },
    });
    expect(check(outer, { inner: null, kind: '', value: 1 })).toEqual({
      value: { inner: null, value: 1 },
    });
    expect(check(outer, { value: null })).toEqual({ errors: ['null'] });
  });

  it('chooses a variant by a discriminator or by keys', () => {
    const a = named('A', object({ t: required(enumOf(['A', 'B'])), a: optional(string()) }));
    const b = named('B', object({ t: required(enumOf(['A', 'B'])), b: optional(string()) }));
    const byTag = tagged({ field: 't', variants: { A: a, B: b }, code: 'bad_tag' });
    expect(check(byTag, { t: 'B', b: 'x' })).toEqual({ value: { t: 'B', b: 'x' } });
    expect(check(byTag, { t: 'A', b: 'x' })).toEqual({ errors: ['unknown_field'] });
    expect(check(byTag, { t: 'C' })).toEqual({ errors: ['bad_tag'] });
    expect(check(byTag, { t: ' ' })).toEqual({ errors: ['blank'] });
    expect(check(byTag, {})).toEqual({ errors: ['required'] });
    expect(check(byTag, [])).toEqual({ errors: ['invalid_type'] });
    const byKeys = keyed({ withKeys: { keys: ['b'], variant: b }, otherwise: a });
    expect(check(byKeys, { t: 'A', b: 'x' })).toEqual({ value: { t: 'A', b: 'x' } });
    expect(check(byKeys, { t: 'A', a: 'x' })).toEqual({ value: { t: 'A', a: 'x' } });
  });
});
