/** Scalar types of the payload: strings, enums, booleans, integers, decimals and JSON values. */
import { Buffer } from 'node:buffer';
import { EMPTY, INVALID, fail, type, type Outcome, type Run, type Type } from './validators.js';

/** Counts Unicode code points, the unit every length rule of the payload uses. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * The trimmed string, EMPTY when nothing is left, INVALID (reported) when not a string or not
 * text: an unpaired surrogate (a lone `\ud800` escape in the JSON) cannot be stored, since the
 * databases keep UTF-8 and would turn it into U+FFFD, changing the value without a word.
 */
export function text(value: unknown, path: string, run: Run): Outcome<string> {
  if (typeof value !== 'string') return fail(run, path, 'invalid_type', 'Expected a string.');
  if (!value.isWellFormed()) {
    return fail(
      run,
      path,
      'invalid_format',
      'Expected text: the string holds an unpaired UTF-16 surrogate (a lone \\ud800-\\udfff escape).',
    );
  }
  const s = value.trim();
  return s === '' ? EMPTY : s;
}

// eslint-disable-next-line no-control-regex -- every character outside ASCII, controls aside
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * `s` in upper case when it is ASCII, else undefined: for codes made of ASCII letters, where
 * upper-casing would otherwise turn `ſ` into `S`, `ı` into `I` or `ﬀ` into `FF`.
 */
export function asciiUpperCase(s: string): string | undefined {
  return NON_ASCII.test(s) ? undefined : s.toUpperCase();
}

/** Reports `max_length` when `s` has more than `max` code points. */
export function tooLong(s: string, max: number, path: string, run: Run): boolean {
  // A UTF-16 length within the limit is always within it in code points too.
  if (s.length <= max || codePointLength(s) <= max) return false;
  fail(run, path, 'max_length', `Ensure this field has no more than ${max} characters.`);
  return true;
}

/** A trimmed string of at most `max` code points. */
export function str(max: number): Type<string> {
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      return tooLong(s, max, path, run) ? INVALID : s;
    },
    { type: 'string', maxLength: max },
  );
}

/** One of `values`, matched exactly after trimming. */
export function enumOf<const V extends string>(
  values: readonly V[],
  code = 'invalid_choice',
): Type<V> {
  const allowed = new Set<string>(values);
  const detail = `Expected one of: ${values.join(', ')}.`;
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      return allowed.has(s) ? (s as V) : fail(run, path, code, detail);
    },
    { type: 'string', enum: [...values] },
  );
}

/** A trimmed string matching `re`, else `code` (`invalid_format` unless a rule names one). */
export function pattern(re: RegExp, detail: string, code = 'invalid_format'): Type<string> {
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      return re.test(s) ? s : fail(run, path, code, detail);
    },
    { type: 'string', pattern: re.source },
  );
}

export const bool: Type<boolean> = type(
  (value, path, run) =>
    typeof value === 'boolean' ? value : fail(run, path, 'invalid_type', 'Expected a boolean.'),
  { type: 'boolean' },
);

/** A JSON integer (safe range), optionally bounded. */
export function integer(min?: number, max?: number): Type<number> {
  const schema: Record<string, unknown> = { type: 'integer' };
  if (min !== undefined) schema.minimum = min;
  if (max !== undefined) schema.maximum = max;
  // Beyond the safe range a JSON integer cannot be told from its neighbours once parsed.
  const least = min ?? Number.MIN_SAFE_INTEGER;
  const most = max ?? Number.MAX_SAFE_INTEGER;
  return type((value, path, run) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return fail(run, path, 'invalid_type', 'Expected an integer.');
    }
    if (value < least) {
      return fail(run, path, 'min_value', `Ensure this value is at least ${least}.`);
    }
    if (value > most) {
      return fail(run, path, 'max_value', `Ensure this value is at most ${most}.`);
    }
    return value;
  }, schema);
}

const DECIMAL = /^-?\d{1,10}(?:\.\d{1,10})?$/;

/** A decimal carried as a string and kept exactly as given (never through a float). */
export const decimal: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    return DECIMAL.test(s)
      ? s
      : fail(run, path, 'invalid_decimal', 'Expected a decimal string such as "-12.34".');
  },
  { type: 'string', pattern: DECIMAL.source, description: 'Decimal as a string, e.g. "-12.34".' },
);

/** How many levels of arrays and objects a JSON value may nest (see jsonValueProblem). */
export const MAX_JSON_DEPTH = 64;

/**
 * Any JSON value except null, nested at most MAX_JSON_DEPTH levels, whose serialised form fits
 * in `maxBytes` UTF-8 bytes.
 */
export function jsonValue(maxBytes: number): Type<unknown> {
  return type(
    (value, path, run) => {
      const problem = jsonValueProblem(value);
      if (problem !== undefined) return fail(run, path, 'invalid_type', problem);
      let serialised: string | undefined;
      try {
        serialised = JSON.stringify(value);
      } catch {
        // Only non-JSON input (cycles, BigInt) gets here; a parsed body never does.
        serialised = undefined;
      }
      if (serialised === undefined)
        return fail(run, path, 'invalid_type', 'Expected a JSON value.');
      if (serialised.length > maxBytes / 3 && Buffer.byteLength(serialised) > maxBytes) {
        return fail(
          run,
          path,
          'max_length',
          `Ensure this value is at most ${maxBytes} bytes as JSON.`,
        );
      }
      // A fresh copy: the output shares nothing with the caller's object graph.
      return JSON.parse(serialised) as unknown;
    },
    {
      description:
        `Any JSON value, nested at most ${MAX_JSON_DEPTH} levels; ` +
        `at most ${maxBytes} bytes once serialised.`,
      // A nullable field adds null back as an alternative (object.ts).
      not: { type: 'null' },
    },
  );
}

/**
 * Why a parsed JSON value cannot be stored as it is, or undefined. It may not nest deeper than
 * MAX_JSON_DEPTH: how deep JSON.stringify can go depends on the stack of the thread it runs on,
 * and a payload must get the same answer on every thread. Nor may it hold a number that is not
 * finite: JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as null. Iterative, as
 * a value may nest deeply.
 */
function jsonValueProblem(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current === 'number' && !Number.isFinite(current)) {
      return 'Expected a JSON value whose numbers are finite; one is too large to store.';
    }
    if (typeof current === 'object' && current !== null) {
      if (depth === MAX_JSON_DEPTH) {
        return `Expected a JSON value nested at most ${MAX_JSON_DEPTH} levels deep.`;
      }
      for (const inner of Object.values(current)) stack.push([inner, depth + 1]);
    }
  }
  return undefined;
}

export interface StringLimits {
  min?: number;
  max?: number;
}

/** A trimmed string, optionally of at least `min` and at most `max` code points. */
export function string({ min, max }: StringLimits = {}): Type<string> {
  const schema: Record<string, unknown> = { type: 'string' };
  if (min !== undefined) schema.minLength = min;
  if (max !== undefined) schema.maxLength = max;
  return type((value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    if (max !== undefined && tooLong(s, max, path, run)) return INVALID;
    if (min !== undefined && s.length < min && codePointLength(s) < min) {
      return fail(run, path, 'min_length', `Ensure this field has at least ${min} characters.`);
    }
    return s;
  }, schema);
}

const HAS_DIGIT = /\d/;

/**
 * A decimal carried as a string, of at most `whole` digits before the point and `fraction`
 * after it (the published `^-?\d{0,W}(?:\.\d{0,F})?$`), with at least one digit; kept as given.
 */
export function decimalOf(whole: number, fraction: number): Type<string> {
  const source = `^-?\\d{0,${whole}}(?:\\.\\d{0,${fraction}})?$`;
  const shape = new RegExp(source);
  const detail = `Expected a decimal string of at most ${whole} digits before the point and ${fraction} after it, such as "-12.34".`;
  return type(
    (value, path, run) => {
      const s = text(value, path, run);
      if (typeof s !== 'string') return s;
      return shape.test(s) && HAS_DIGIT.test(s) ? s : fail(run, path, 'invalid_decimal', detail);
    },
    { type: 'string', format: 'decimal', pattern: source },
  );
}

/** Any JSON object (`jsonValue` rules), at most `maxBytes` bytes once serialised. */
export function jsonObject(maxBytes: number): Type<Record<string, unknown>> {
  const any = jsonValue(maxBytes);
  return type(
    (value, path, run, parent) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return fail(run, path, 'invalid_type', 'Expected an object.');
      }
      return any.check(value, path, run, parent) as Outcome<Record<string, unknown>>;
    },
    { type: 'object', description: `Any JSON object; at most ${maxBytes} bytes once serialised.` },
  );
}

const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;

/** A time of day, `HH:MM` or `HH:MM:SS` (`invalid_format`), kept as given. */
export const timeOfDay: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    return TIME_OF_DAY.test(s)
      ? s
      : fail(run, path, 'invalid_format', 'Expected a time of day as HH:MM or HH:MM:SS.');
  },
  { type: 'string', format: 'time', pattern: TIME_OF_DAY.source },
);
