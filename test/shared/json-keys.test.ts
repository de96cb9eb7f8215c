/** Keys repeated in a JSON object: found wherever they are, and never where there are none. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repeatedKey } from '../../src/shared/json-keys.js';

const check = (text: string) => repeatedKey(text, JSON.parse(text))?.path;

describe('repeatedKey', () => {
  it.each([
    ['{"dry_run":true,"dry_run":false}', 'dry_run'],
    ['{"a" : 1 ,\n "a"\t:\r\n2}', 'a'],
    ['{"a":1,"\\u0061":2}', 'a'],
    ['{"a":{"b":[1,{"c":"x:y","c":":"}]}}', 'a.b.1.c'],
    ['[{"k":1},{"k":2},{"k":3,"j":"\\"k\\":","k":4}]', '2.k'],
    ['{"x:y":1,"x:y":2}', 'x:y'],
    ['{"a":"\\u003a","a":"\\u003A"}', 'a'],
    ['{"":1,"":2}', ''],
  ])('finds the repeated key in %s', (text, path) => {
    expect(check(text)).toBe(path);
  });

  it.each([
    '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
    '{"a":"\\u003a","\\u003a":"b:c","t":"12:30","q":"\\\\","r":":"}',
    '{"a":"\\\\","b":"\\"a\\":1"}',
    '[]',
    '"a:b"',
    '{"__proto__":1,"constructor":{"__proto__":2}}',
  ])('finds none in %s', (text) => {
    expect(check(text)).toBeUndefined();
  });

  it('finds none in any JSON a serialiser writes, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(check(JSON.stringify(value))).toBeUndefined();
        expect(check(JSON.stringify(value, null, 2))).toBeUndefined();
        // An escaped colon sends the check down the token-by-token path, which must agree.
        expect(
          check(JSON.stringify([value, '\u003a']).replace(/":"\]$/, '"\\u003a"]')),
        ).toBeUndefined();
      }),
    );
  });

  it('names the key and its path, and ignores keys added to Object.prototype', () => {
    expect(repeatedKey('{"x":[{"k.y":1,"k.y":2}]}', { x: [{ 'k.y': 2 }] })).toEqual({
      key: 'k.y',
      path: 'x.0.k.y',
    });
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      expect(check('{"dry_run":true,"dry_run":false}')).toBe('dry_run');
    } finally {
      delete prototype.polluted;
    }
  });

  it('finds a key written twice in any object', () => {
    const object = fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 });
    fc.assert(
      fc.property(object, fc.jsonValue(), (value, extra) => {
        const [key] = Object.keys(value) as [string];
        const text = `{${JSON.stringify(key)}:${JSON.stringify(extra)},${JSON.stringify(value).slice(1)}`;
        expect(check(`[0,${text}]`)).toBe(`1.${key}`);
        // Written as Go and Gson escape "<" by default: still found.
        expect(check(`["\\u003c",${text}]`)).toBe(`1.${key}`);
      }),
    );
  });

  it('walks a body nested 200,000 deep without running out of stack', () => {
    const depth = 200_000;
    expect(check(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBeUndefined();
    const repeated = `${'['.repeat(depth)}{"a":1,"a":2}${']'.repeat(depth)}`;
    expect(check(repeated)).toBe(`${'0.'.repeat(depth)}a`);
  });
});
