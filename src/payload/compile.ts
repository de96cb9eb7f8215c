/**
 * Generated code for the object and array checks (object.ts, validators.ts). An interpreted check (one closure that loops over
 * any shape's fields) is shared by every shape, so V8 sees every field name and every field
 * type at the same few sites: its property reads, stores and calls all go megamorphic, and the
 * loop costs more than the leaf checks it runs. A compiled check is generated once per shape
 * at module load, with the field names as literals and each field's check as its own constant,
 * so every site sees one shape and one callee.
 *
 * Only our own declarations reach the generated source: field names (embedded with
 * JSON.stringify), fixed messages and the declared `when` conditions. Input never does.
 */

/** A string as a JavaScript literal, to embed in generated source. */
export const literal = (value: string): string => JSON.stringify(value);

/** Evaluates `body` with `constants` in scope; `body` returns the generated function. */
export function generate(constants: Record<string, unknown>, body: string): unknown {
  const names = Object.keys(constants);
  const factory = new Function(...names, body) as (...values: unknown[]) => unknown;
  return factory(...names.map((name) => constants[name]));
}
