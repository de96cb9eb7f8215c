/**
 * Named, reusable schemas: a named Type is referenced by `$ref` wherever it is used, and its
 * own schema is published once, as an OpenAPI component.
 */
import type { JsonSchema, Type } from './validators.js';

export const COMPONENTS_PATH = '#/components/schemas/';

export interface Named<T> extends Type<T> {
  readonly name: string;
  /** The schema published under `components.schemas[name]`. */
  readonly definition: JsonSchema;
}

/** `t` under `name`: its schema becomes a `$ref`, its definition a component. */
export function named<T>(name: string, t: Type<T>): Named<T> {
  return {
    name,
    check: t.check,
    schema: { $ref: `${COMPONENTS_PATH}${name}` },
    definition: t.schema,
  };
}

/** The components of `types`, by name; two different definitions under one name are refused. */
export function componentsOf(types: readonly Named<unknown>[]): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const t of types) {
    const known = components[t.name];
    if (known !== undefined && known !== t.definition) {
      throw new Error(`two schemas are named ${t.name}`);
    }
    components[t.name] = t.definition;
  }
  return components;
}
