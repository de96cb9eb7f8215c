/**
 * `declare(name, shape)`: a published object schema as a named declaration, with the rules of
 * ./field-rules.ts attached to its fields and ./object-rules.ts to the object. The generated
 * declarations call it, so regenerating them keeps the hand-written rules.
 */
import { named, type Named } from '../payload/named.js';
import { object, type Field, type ObjectOf, type Shape } from '../payload/object.js';
import { EMPTY, INVALID, type, type Type } from '../payload/validators.js';
import { FIELD_RULES, type FieldRule } from './field-rules.js';
import { OBJECT_RULES } from './object-rules.js';

/** `base`, then the rule on its normalised value. */
function refined<T>(base: Type<T>, rule: FieldRule): Type<T> {
  const check = rule.check;
  return type<T>((value, path, run, parent) => {
    const out = base.check(value, path, run, parent);
    if (out === INVALID || out === EMPTY) return out;
    return check(out, path, run, parent) as T | typeof INVALID;
  }, base.schema);
}

const unused = new Set(Object.keys(FIELD_RULES));
const shapes = new Map<string, Shape>();

/** The fields of a declared schema as given to `declare`, for introspection (conformance). */
export function declaredShape(name: string): Shape | undefined {
  return shapes.get(name);
}

export function declare<S extends Shape>(name: string, shape: S): Named<ObjectOf<S>> {
  const rules = FIELD_RULES[name] ?? {};
  unused.delete(name);
  shapes.set(name, shape);
  const fields: Shape = { ...shape };
  for (const [fieldName, rule] of Object.entries(rules)) {
    const field = shape[fieldName] as Field<unknown, boolean> | undefined;
    if (field === undefined) throw new Error(`a rule names ${name}.${fieldName}, not declared`);
    const schema = rule.schema === undefined ? field.schema : { ...field.schema, ...rule.schema };
    fields[fieldName] = { ...field, type: refined(field.type, rule), schema };
  }
  const refine = OBJECT_RULES[name];
  return named(name, object(fields as S, refine === undefined ? {} : { refine: refine.check }));
}

/** Schemas named by the rules but never declared (a rule left behind by a regeneration). */
export function undeclaredRuleTargets(): string[] {
  return [...unused];
}
