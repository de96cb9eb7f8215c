/**
 * The object and array checks are generated code (compile.ts). Field names are embedded as
 * literals, and a valid input is checked without error paths, an invalid one again with them.
 */
import { describe, expect, it } from 'vitest';
import { object, optional, required } from '../../src/payload/object.js';
import { runType, startRun } from '../../src/payload/run.js';
import { str } from '../../src/payload/scalars.js';
import { array } from '../../src/payload/validators.js';

describe('compiled checks', () => {
  it('embed any field name as a literal, quotes and backslashes included', () => {
    const name = 'we"ird\\name\u2028`${x}`';
    const shape = object({ [name]: required(str(3)), plain: optional(str(3)) });
    expect(runType(shape, { [name]: ' ab ', plain: 'x' }, startRun())).toEqual({
      ok: true,
      value: { [name]: 'ab', plain: 'x' },
    });
    expect(runType(shape, { [name]: 'abcd' }, startRun())).toEqual({
      ok: false,
      errors: [
        {
          code: 'max_length',
          attr: name,
          detail: 'Ensure this field has no more than 3 characters.',
        },
      ],
    });
  });

  it('refuse a field called __proto__, which would set the output prototype', () => {
    expect(() => object({ ['__proto__']: optional(str(3)) })).toThrow(/__proto__/);
  });

  it('report the full path of every error, found on the second run', () => {
    const inner = object({ name: required(str(2)) });
    const outer = object({ items: required(array(inner)), other: optional(str(1)) });
    const result = runType(
      outer,
      { items: [{ name: 'ok' }, { name: 'long' }, {}], other: 'xy', extra: 1 },
      startRun(),
    );
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.errors.map((e) => [e.code, e.attr])).toEqual([
      ['max_length', 'items.1.name'],
      ['required', 'items.2.name'],
      ['max_length', 'other'],
      ['unknown_field', 'extra'],
    ]);
  });

  it('bound a list at both ends, reporting a bound once and none of the items', () => {
    const list = array(str(1), { min: 2, max: 3 });
    const run = (input: unknown) => runType(list, input, startRun());
    expect(run(['a', 'b', 'c'])).toEqual({ ok: true, value: ['a', 'b', 'c'] });
    expect(run(['a'])).toMatchObject({ ok: false, errors: [{ code: 'min_length', attr: null }] });
    // Four items too long: only the bound is reported.
    expect(run(['aa', 'bb', 'cc', 'dd'])).toMatchObject({
      ok: false,
      errors: [{ code: 'too_many_items', attr: null }],
    });
    expect(list.schema).toMatchObject({ minItems: 2, maxItems: 3 });
  });
});
