/**
 * Fields (presence, null and default rules around a Type) and the object combinator that
 * checks them in declaration order, so a field may depend on the siblings declared before it.
 */
import { generate, literal } from './compile.js';
import {
  EMPTY,
  INVALID,
  errorsFull,
  fail,
  isObject,
  type Check,
  type JsonSchema,
  type Parent,
  type Run,
  type Type,
} from './validators.js';

/** Required when a sibling declared earlier has a value; optionally forbidden otherwise. */
export interface When {
  field: string;
  equals: string;
  otherwise: 'optional' | 'forbidden';
}

export interface Field<T, Always extends boolean> {
  readonly type: Type<T>;
  /** Whether a valid output always carries the field (required or defaulted). */
  readonly always: Always;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly when: When | undefined;
  readonly fallback: ((parent: Parent) => T | undefined) | undefined;
  readonly schema: JsonSchema;
}

function field<T, A extends boolean>(
  t: Type<T>,
  always: A,
  parts: Partial<Omit<Field<T, A>, 'type' | 'always' | 'schema'>>,
  schemaExtra: JsonSchema,
): Field<T, A> {
  const schema: JsonSchema = { ...t.schema, ...schemaExtra };
  if (parts.nullable === true && typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
  }
  if (parts.nullable === true && schema.type === undefined) {
    // A reference, a choice or any JSON value: null is one more alternative.
    const { description, default: fallback, ...rest } = schema;
    const alternatives = Object.keys(rest).length === 0 ? [] : [rest];
    return {
      ...fieldOf(t, always, parts),
      schema: {
        ...(description === undefined ? {} : { description }),
        ...(alternatives.length === 0 ? {} : { anyOf: [...alternatives, { type: 'null' }] }),
        ...(fallback === undefined ? {} : { default: fallback }),
      },
    };
  }
  return { ...fieldOf(t, always, parts), schema };
}

function fieldOf<T, A extends boolean>(
  t: Type<T>,
  always: A,
  parts: Partial<Omit<Field<T, A>, 'type' | 'always' | 'schema'>>,
): Omit<Field<T, A>, 'schema'> {
  return {
    type: t,
    always,
    required: parts.required ?? false,
    nullable: parts.nullable ?? false,
    when: parts.when,
    fallback: parts.fallback,
  };
}

/**
 * `f` with more published schema (`deprecated`, a default the validator does not fill in). A
 * reference is wrapped in `allOf` first, as the publication writes it: OpenAPI 3.0 ignores the
 * keywords beside a `$ref`, and the OpenAPI generator drops them.
 */
export function annotate<T, A extends boolean>(f: Field<T, A>, extra: JsonSchema): Field<T, A> {
  const { $ref, ...rest } = f.schema;
  const schema = $ref === undefined ? f.schema : { allOf: [{ $ref }], ...rest };
  return { ...f, schema: { ...schema, ...extra } };
}

const describe = (description?: string): JsonSchema =>
  description === undefined ? {} : { description };

/** A field that must be present, non-null and (for strings) not blank. */
export function required<T>(t: Type<T>, description?: string): Field<T, true> {
  return field(t, true, { required: true }, describe(description));
}

/** A field that may be omitted; `when` makes it conditionally required or forbidden. */
export function optional<T>(t: Type<T>, description?: string, when?: When): Field<T, false> {
  return field(t, false, { when }, describe(description));
}

/** An optional field that also accepts `null`, kept as `null` in the output. */
export function nullable<T>(t: Type<T>, description?: string): Field<T | null, false> {
  return field<T | null, false>(t, false, { nullable: true }, describe(description));
}

/** An optional field filled in from `fallback` when absent; a plain value is published as default. */
export function defaulted<T>(
  t: Type<T>,
  fallback: T | ((parent: Parent) => T | undefined),
  description?: string,
): Field<T, true> {
  const fn =
    typeof fallback === 'function' ? (fallback as (p: Parent) => T | undefined) : () => fallback;
  const extra =
    typeof fallback === 'function'
      ? describe(description)
      : { ...describe(description), default: fallback };
  return field(t, true, { fallback: fn }, extra);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: any Field fits a shape
export type Shape = Record<string, Field<any, boolean>>;
type Out<F> = F extends Field<infer T, boolean> ? T : never;
type AlwaysKeys<S> = { [K in keyof S]: S[K] extends Field<unknown, true> ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<S extends Shape> = Simplify<
  { [K in AlwaysKeys<S>]: Out<S[K]> } & { [K in Exclude<keyof S, AlwaysKeys<S>>]?: Out<S[K]> }
>;

export interface ObjectOptions<O> {
  description?: string;
  /** Cross-field rules; `out` holds only the fields that passed; `prefix` is '' or ends in '.'. */
  refine?: (
    out: Partial<O>,
    prefix: string,
    run: Run,
    input: Readonly<Record<string, unknown>>,
  ) => void;
  /** Schema for rules the fields cannot express alone (e.g. `oneOf` between two forms). */
  schema?: JsonSchema;
}

function whenSchema(name: string, when: When): JsonSchema {
  const rule: JsonSchema = {
    if: { properties: { [when.field]: { const: when.equals } }, required: [when.field] },
    then: { required: [name] },
  };
  if (when.otherwise === 'forbidden') rule.else = { not: { required: [name] } };
  return rule;
}

function objectSchema(shape: Shape, options: ObjectOptions<unknown>): JsonSchema {
  const properties: JsonSchema = {};
  const requiredNames: string[] = [];
  const conditions: JsonSchema[] = [];
  for (const [name, f] of Object.entries(shape)) {
    properties[name] = f.schema;
    if (f.required) requiredNames.push(name);
    if (f.when !== undefined) conditions.push(whenSchema(name, f.when));
  }
  const schema: JsonSchema = { type: 'object', ...describe(options.description), properties };
  if (requiredNames.length > 0) schema.required = requiredNames;
  schema.additionalProperties = false;
  const { allOf, ...extra } = options.schema ?? {};
  if (Array.isArray(allOf)) conditions.push(...(allOf as JsonSchema[]));
  if (conditions.length > 0) schema.allOf = conditions;
  return { ...schema, ...extra };
}

/** What the object compiler needs of a field (a Field satisfies it). */
interface CompiledField {
  readonly type: { readonly check: Check<unknown> };
  readonly required: boolean;
  readonly nullable: boolean;
  readonly when: { field: string; equals: string; otherwise: 'optional' | 'forbidden' } | undefined;
  readonly fallback: ((parent: Parent) => unknown) | undefined;
}

type Refine = (out: Parent, prefix: string, run: Run, input: Parent) => void;

/** Statements that report `code` at the field's path. */
const failAt = (name: string, code: string, detail: string) =>
  `fail(run, prefix + ${literal(name)}, ${literal(code)}, ${literal(detail)});`;

/** Statements that fill the field in from its fallback, if it has one. */
function fallbackOf(field: CompiledField, name: string, index: number): string {
  if (field.fallback === undefined) return '';
  return `{ const filled = fallback${index}(out); if (filled !== undefined) out[${literal(name)}] = filled; }`;
}

/** Required, or conditionally required and the condition holds; otherwise `orElse`. */
function requiredOr(
  field: CompiledField,
  name: string,
  code: string,
  detail: string,
  orElse: string,
) {
  if (field.required) return failAt(name, code, detail);
  const { when } = field;
  if (when === undefined) return orElse;
  const condition = `out[${literal(when.field)}] === ${literal(when.equals)}`;
  return `if (${condition}) ${failAt(name, code, detail)} else { ${orElse} }`;
}

function fieldSource(field: CompiledField, name: string, index: number): string {
  const key = literal(name);
  const fill = fallbackOf(field, name, index);
  const absent = requiredOr(field, name, 'required', 'This field is required.', fill);
  const blank = requiredOr(field, name, 'blank', 'This field may not be blank.', fill);
  const isNull = field.nullable
    ? `out[${key}] = null;`
    : failAt(name, 'null', 'This field may not be null.');
  let present = `{
      const result = check${index}(raw, run.paths ? prefix + ${key} : ${key}, run, out);
      if (result !== INVALID) {
        if (result !== EMPTY) out[${key}] = result;
        else { ${blank} }
      }
    }`;
  const { when } = field;
  if (when?.otherwise === 'forbidden') {
    const detail = `Only allowed when ${when.field} is ${when.equals}.`;
    // A blank string is an absent field, here as for any optional one: nothing to forbid.
    present = `{
      const sibling = out[${literal(when.field)}];
      if (sibling !== undefined && sibling !== ${literal(when.equals)}) {
        if (typeof raw !== 'string' || raw.trim() !== '') ${failAt(name, 'invalid_choice', detail)}
      } else ${present}
    }`;
  }
  return `
  raw = value[${key}];
  if (raw === undefined) { ${absent} }
  else {
    present++;
    if (raw === null) { ${isNull} }
    else ${present}
  }`;
}

/**
 * The check of a JSON object with exactly these fields, checked in declaration order (a field
 * may depend on siblings declared before it). The output holds only declared names.
 */
function compileObjectCheck(
  names: readonly string[],
  fields: readonly CompiledField[],
  refine: Refine | undefined,
): Check<Record<string, unknown>> {
  for (const name of names) {
    // Such a key would set the output's prototype rather than a field.
    if (name === '__proto__') throw new Error('a payload field may not be called __proto__');
  }
  const body = `
  return function checkObject(value, path, run) {
    if (!isObject(value)) return fail(run, path, 'invalid_type', 'Expected an object.');
    const prefix = run.paths && path !== '' ? path + '.' : '';
    const out = {};
    let present = 0;
    let raw;
    ${names.map((name, i) => fieldSource(fields[i] as CompiledField, name, i)).join('\n')}
    // Counting is cheaper than looking every key up; a mismatch means some key is unknown.
    let keys = 0;
    for (const _ in value) keys++;
    if (keys !== present) {
      // Past the error cap the rest of the keys could only be counted, not reported.
      for (const key in value) {
        if (known.has(key)) continue;
        fail(run, prefix + key, 'unknown_field', 'This field is not allowed.');
        if (errorsFull(run)) break;
      }
    }
    if (refine !== undefined) refine(out, prefix, run, value);
    return out;
  };`;
  const constants: Record<string, unknown> = {
    fail,
    errorsFull,
    isObject,
    INVALID,
    EMPTY,
    known: new Set(names),
    refine,
  };
  fields.forEach((field, i) => {
    constants[`check${i}`] = field.type.check;
    if (field.fallback !== undefined) constants[`fallback${i}`] = field.fallback;
  });
  return generate(constants, body) as Check<Record<string, unknown>>;
}

/** A JSON object with exactly the fields of `shape`; the output holds only known keys. */
export function object<S extends Shape>(
  shape: S,
  options: ObjectOptions<ObjectOf<S>> = {},
): Type<ObjectOf<S>> {
  const names = Object.keys(shape);
  const fields = names.map((name) => shape[name] as Field<unknown, boolean>);
  const refine = options.refine as Parameters<typeof compileObjectCheck>[2];
  const check = compileObjectCheck(names, fields, refine) as unknown as Check<ObjectOf<S>>;
  return { check, schema: objectSchema(shape, options as ObjectOptions<unknown>) };
}
