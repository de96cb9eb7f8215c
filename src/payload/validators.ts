/**
 * The declarative core: a Type pairs a check (a closure composed once at module load) with
 * its JSON Schema fragment, so the runtime rules and the published schema cannot drift.
 */
import type { FieldError } from '../errors.js';
import { generate, literal } from './compile.js';

/** Per-call state shared by every check of one validation. */
export interface Run {
  readonly errors: FieldError[];
  readonly today: string;
  readonly now: string;
  readonly phoneRegion: string;
  readonly supplierFound: boolean;
  /** The platform's reference data and settings, for the rules that look things up. */
  readonly platform: PlatformView;
  /**
   * Whether checks build the path of each field for its errors. A first run skips them (a
   * concatenation per field is a sizeable part of checking a valid payload); a payload with
   * errors is checked again with paths on, and only that run's errors are reported.
   */
  readonly paths: boolean;
}

/**
 * What the platform holds that lookup rules read, as the caller hands it in: reference entries
 * by kind and code, the platform's settings and the import supplier's. Typed readers are in
 * src/account/platform.ts; the data comes from src/reference/ and src/settings/.
 */
export interface PlatformView {
  /** The attributes of the reference entry, or undefined when the platform has none. */
  entry(kind: string, code: string): object | undefined;
  /** Every entry of the kind as [code, attributes]; none for a kind the platform lacks. */
  entries(kind: string): Iterable<readonly [string, object]>;
  /** Platform settings by key; a key not given has its default. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** The import supplier's rule settings by key; a key not given has its default. */
  readonly supplier: Readonly<Record<string, unknown>>;
}

/** A platform with no reference data and every setting at its default. */
export const EMPTY_PLATFORM: PlatformView = Object.freeze({
  entry: () => undefined,
  entries: () => [],
  settings: Object.freeze({}),
  supplier: Object.freeze({}),
});

export const INVALID: unique symbol = Symbol('invalid');
/** A string that is empty once trimmed: the object decides whether that is `blank` or absent. */
export const EMPTY: unique symbol = Symbol('empty');
export type Outcome<T> = T | typeof INVALID | typeof EMPTY;

export type Parent = Readonly<Record<string, unknown>>;
/** Checks a present, non-null value, reports its own errors, returns the normalised value. */
export type Check<T> = (value: unknown, path: string, run: Run, parent: Parent) => Outcome<T>;
export type JsonSchema = Record<string, unknown>;

export interface Type<T> {
  readonly check: Check<T>;
  readonly schema: JsonSchema;
}

export type Infer<T> = T extends Type<infer O> ? O : never;

/**
 * At most this many error items are reported for one request (docs/decisions.md). The first
 * MAX_FIELD_ERRORS - 1 are listed; when more were found, the last item is `too_many_errors`.
 * A real payload has tens at most; a hostile one could otherwise cost an item per key it sends.
 */
export const MAX_FIELD_ERRORS = 1000;

const TOO_MANY_ERRORS: FieldError = {
  detail: `More errors were found; only the first ${MAX_FIELD_ERRORS - 1} are listed.`,
  code: 'too_many_errors',
  attr: null,
};

/** Adds `error` to `errors` within MAX_FIELD_ERRORS (see there); false once the list is full. */
export function addFieldError(errors: FieldError[], error: FieldError): boolean {
  if (errors.length < MAX_FIELD_ERRORS - 1) {
    errors.push(error);
    return true;
  }
  if (errors.length === MAX_FIELD_ERRORS - 1) errors.push(TOO_MANY_ERRORS);
  return false;
}

/** True once a run has found as many errors as it reports: its checks may stop looking. */
export function errorsFull(run: Run): boolean {
  return run.errors.length >= MAX_FIELD_ERRORS;
}

/** Records one field error and returns INVALID so checks can `return fail(...)`. */
export function fail(run: Run, path: string, code: string, detail: string): typeof INVALID {
  addFieldError(run.errors, { detail, code, attr: path === '' ? null : path });
  return INVALID;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Builds a Type from a check and its schema fragment. */
export function type<T>(check: Check<T>, schema: JsonSchema): Type<T> {
  return { check, schema };
}

const NO_PARENT: Parent = Object.freeze({});

/** What the array compiler needs: the item's check, the bounds, the cross-item rule. */
interface CompiledArray {
  readonly item: Check<unknown>;
  readonly min: number;
  /** null: no upper bound (the body size limit bounds the work). */
  readonly max: number | null;
  readonly refine: ((items: readonly unknown[], path: string, run: Run) => void) | undefined;
}

/** The check of a JSON array of one item type, each item checked in order. */
function compileArrayCheck({ item, min, max, refine }: CompiledArray): Check<unknown[]> {
  if (!Number.isSafeInteger(min) || (max !== null && !Number.isSafeInteger(max))) {
    throw new Error('array bounds must be integers');
  }
  // Item errors past the limit would only be noise, and the limit bounds the work done.
  const upper =
    max === null
      ? ''
      : `if (value.length > ${max}) {
      return fail(run, path, 'too_many_items', ${literal(`Ensure this list has at most ${max} items.`)});
    }`;
  const lower =
    min === 0
      ? ''
      : `if (value.length < ${min}) {
      return fail(run, path, 'min_length', ${literal(`Ensure this list has at least ${min} item(s).`)});
    }`;
  const body = `
  return function checkArray(value, path, run) {
    if (!Array.isArray(value)) return fail(run, path, 'invalid_type', 'Expected a list of items.');
    ${upper}
    ${lower}
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const raw = value[i];
      const at = run.paths ? path + '.' + i : path;
      let result = INVALID;
      if (raw === null) fail(run, at, 'null', 'This item may not be null.');
      else if (raw === undefined) fail(run, at, 'invalid_type', 'Expected a value.');
      else result = item(raw, at, run, NO_PARENT);
      if (result === EMPTY) fail(run, at, 'blank', 'This item may not be blank.');
      out[i] = result === INVALID || result === EMPTY ? undefined : result;
    }
    if (refine !== undefined) refine(out, path, run);
    // Holes only remain when errors were reported, and then the output is never returned.
    return out;
  };`;
  const constants = { fail, INVALID, EMPTY, NO_PARENT, item, refine };
  return generate(constants, body) as Check<unknown[]>;
}

export interface ArrayOptions<T> {
  min?: number;
  /** At most this many items; 100 unless given; `null` for no bound of its own. */
  max?: number | null;
  /** Cross-item rules; items that failed are `undefined` so indexes match the input. */
  refine?: (items: readonly (T | undefined)[], path: string, run: Run) => void;
  description?: string;
}

/** A JSON array of `item`; at most 100 items unless `max` says otherwise (`null`: unbounded). */
export function array<T>(item: Type<T>, options: ArrayOptions<T> = {}): Type<T[]> {
  const { min = 0, max = 100, refine } = options;
  const schema: JsonSchema = { type: 'array', items: item.schema };
  if (max !== null) schema.maxItems = max;
  if (min > 0) schema.minItems = min;
  if (options.description !== undefined) schema.description = options.description;
  const check = compileArrayCheck({
    item: item.check,
    min,
    max,
    refine: refine as CompiledArray['refine'],
  }) as Check<T[]>;
  return { check, schema };
}
