/**
 * Fields (presence, null and default rules around a Type) and the object combinator that
 * checks them in declaration order, so a field may depend on the siblings declared before it.
 */
import {
  EMPTY,
  INVALID,
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
  return {
    type: t,
    always,
    required: parts.required ?? false,
    nullable: parts.nullable ?? false,
    when: parts.when,
    fallback: parts.fallback,
    schema,
  };
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

function absent(f: Field<unknown, boolean>, name: string, prefix: string, run: Run, out: Parent) {
  const when = f.when;
  if (f.required || (when !== undefined && out[when.field] === when.equals)) {
    fail(run, prefix + name, 'required', 'This field is required.');
  } else if (f.fallback !== undefined) {
    const fallback = f.fallback(out);
    if (fallback !== undefined) (out as Record<string, unknown>)[name] = fallback;
  }
}

/** A JSON object with exactly the fields of `shape`; the output holds only known keys. */
export function object<S extends Shape>(
  shape: S,
  options: ObjectOptions<ObjectOf<S>> = {},
): Type<ObjectOf<S>> {
  const names = Object.keys(shape);
  const fields = names.map((name) => shape[name] as Field<unknown, boolean>);
  const known = new Set(names);
  const { refine } = options;

  const check: Check<ObjectOf<S>> = (value, path, run) => {
    if (!isObject(value)) return fail(run, path, 'invalid_type', 'Expected an object.');
    const prefix = path === '' ? '' : `${path}.`;
    // Only declared names are ever written, so `__proto__` and friends cannot reach `out`.
    const out: Record<string, unknown> = {};
    let present = 0;
    for (let i = 0; i < fields.length; i++) {
      const name = names[i] as string;
      const f = fields[i] as Field<unknown, boolean>;
      const raw = value[name];
      if (raw === undefined) {
        absent(f, name, prefix, run, out);
        continue;
      }
      present++;
      const at = prefix + name;
      if (raw === null) {
        if (f.nullable) out[name] = null;
        else fail(run, at, 'null', 'This field may not be null.');
        continue;
      }
      const when = f.when;
      const sibling = when === undefined ? undefined : out[when.field];
      if (when?.otherwise === 'forbidden' && sibling !== undefined && sibling !== when.equals) {
        fail(run, at, 'invalid_choice', `Only allowed when ${when.field} is ${when.equals}.`);
        continue;
      }
      const result = f.type.check(raw, at, run, out);
      if (result === INVALID) continue;
      if (result !== EMPTY) out[name] = result;
      else if (f.required || (when !== undefined && sibling === when.equals)) {
        fail(run, at, 'blank', 'This field may not be blank.');
      } else if (f.fallback !== undefined) {
        const fallback = f.fallback(out);
        if (fallback !== undefined) out[name] = fallback;
      }
    }
    // Counting is cheaper than looking every key up; a mismatch means some key is unknown.
    let keys = 0;
    for (const _ in value) keys++;
    if (keys !== present) {
      for (const key in value) {
        if (!known.has(key)) fail(run, prefix + key, 'unknown_field', 'This field is not allowed.');
      }
    }
    if (refine !== undefined) refine(out as Partial<ObjectOf<S>>, prefix, run, value);
    return out as ObjectOf<S>;
  };
  return { check, schema: objectSchema(shape, options as ObjectOptions<unknown>) };
}
