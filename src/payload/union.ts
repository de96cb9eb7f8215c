/**
 * One of several object shapes, chosen by the input itself: by the value of a discriminator
 * field, or by whether some key is present. The chosen shape then checks the whole object.
 */
import { text } from './scalars.js';
import { EMPTY, INVALID, fail, isObject, type, type Infer, type Type } from './validators.js';

type Variants = Readonly<Record<string, Type<unknown>>>;

export interface TaggedUnion<V extends Variants> {
  /** The field whose value picks the variant. */
  field: string;
  variants: V;
  /** The code for a value that picks no variant (`invalid_choice` unless given). */
  code?: string;
}

/** An object whose `field` names its variant. */
export function tagged<V extends Variants>({
  field,
  variants,
  code = 'invalid_choice',
}: TaggedUnion<V>): Type<Infer<V[keyof V]>> {
  type T = Infer<V[keyof V]>;
  const choices = new Map(Object.entries(variants));
  const detail = `Expected one of: ${[...choices.keys()].join(', ')}.`;
  const at = (path: string, run: { paths: boolean }) =>
    run.paths ? (path === '' ? field : `${path}.${field}`) : path;
  const mapping: Record<string, string> = {};
  for (const [value, variant] of choices) {
    const ref = variant.schema.$ref;
    if (typeof ref === 'string') mapping[value] = ref;
  }
  const refs = [...new Set(Object.values(variants))].map((v) => v.schema);
  return type<T>(
    (value, path, run, parent) => {
      if (!isObject(value)) return fail(run, path, 'invalid_type', 'Expected an object.');
      const raw = value[field];
      if (raw === undefined) return fail(run, at(path, run), 'required', 'This field is required.');
      if (raw === null) return fail(run, at(path, run), 'null', 'This field may not be null.');
      const tag = text(raw, at(path, run), run);
      if (tag === EMPTY) return fail(run, at(path, run), 'blank', 'This field may not be blank.');
      if (tag === INVALID) return INVALID;
      const variant = choices.get(tag);
      if (variant === undefined) return fail(run, at(path, run), code, detail);
      return variant.check(value, path, run, parent) as T | typeof INVALID;
    },
    { oneOf: refs, discriminator: { propertyName: field, mapping } },
  );
}

export interface KeyedUnion<A, B> {
  /** The variant for an object holding any of `keys`. */
  withKeys: { keys: readonly string[]; variant: Type<A> };
  otherwise: Type<B>;
}

/** An object read as one variant when it holds any of some keys, as another otherwise. */
export function keyed<A, B>({ withKeys, otherwise }: KeyedUnion<A, B>): Type<A | B> {
  type T = A | B;
  const { keys, variant } = withKeys;
  return type<T>(
    (value, path, run, parent) => {
      if (!isObject(value)) return fail(run, path, 'invalid_type', 'Expected an object.');
      const chosen: Type<T> = keys.some((key) => value[key] !== undefined) ? variant : otherwise;
      return chosen.check(value, path, run, parent);
    },
    { oneOf: [variant.schema, otherwise.schema] },
  );
}
