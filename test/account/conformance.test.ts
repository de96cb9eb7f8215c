/**
 * The declarations against the published schema: every schema reachable from the request
 * roots, every field's type, format, enum, limits, default, nullability and required-ness.
 * Deviations are only those listed in src/account/deviations.json.
 */
import { describe, expect, it } from 'vitest';
import { accountComponents } from '../../src/account/account.js';
import { declaredShape, undeclaredRuleTargets } from '../../src/account/declare.js';
import deviations from '../../src/account/deviations.json' with { type: 'json' };
import { FIELD_RULES } from '../../src/account/field-rules.js';
import { OBJECT_RULES } from '../../src/account/object-rules.js';
import { FIELD_ERROR_CODES } from '../../src/payload/codes.js';
import { COMPONENTS_PATH } from '../../src/payload/named.js';
import {
  loadReference,
  reachable,
  type ReferenceField,
  type ReferenceSchema,
} from '../../scripts/account-schema/reference.mjs';
import { HAS_REFERENCE, REFERENCE_FILE } from './reference.js';

type Json = Record<string, unknown>;
const TYPE_FACTS = ['type', 'format', 'maxLength', 'minLength', 'minimum', 'maximum'] as const;

/** What a value's schema says, in the publication's terms (null in enums left out). */
function facts(schema: Json, reference = false): Json {
  const ref = (schema.$ref ?? (schema.allOf as Json[] | undefined)?.[0]?.$ref) as
    string | undefined;
  if (ref !== undefined) return { ref: reference ? ref : ref.slice(COMPONENTS_PATH.length) };
  const out: Json = {};
  for (const key of TYPE_FACTS) if (schema[key] !== undefined) out[key] = schema[key];
  if (Array.isArray(schema.enum)) out.enum = schema.enum.filter((v) => v !== null);
  if (schema.format === 'decimal') out.pattern = schema.pattern;
  if (schema.type === 'array') {
    out.items = facts(schema.items as Json, reference);
    if (schema.minItems !== undefined) out.minItems = schema.minItems;
    if (schema.maxItems !== undefined) out.maxItems = schema.maxItems;
  }
  // An enum's type is the publication's `string`; an any-value field has none.
  if (out.enum !== undefined) out.type = 'string';
  return out;
}

function referenceFacts(field: ReferenceField, required: boolean): Json {
  return {
    value: facts(field, true),
    required,
    nullable: field.nullable === true,
    default: field.default,
    deprecated: field.deprecated === true,
  };
}

function declaredFacts(name: string, field: string): Json | undefined {
  const f = declaredShape(name)?.[field];
  if (f === undefined) return undefined;
  return {
    value: facts(f.type.schema),
    required: f.required,
    nullable: f.nullable,
    default: f.schema.default,
    deprecated: f.schema.deprecated === true,
  };
}

const requiredBySpec = new Set(Object.keys(deviations.required));

describe.skipIf(!HAS_REFERENCE)('conformance with the published schema', () => {
  const schemas = HAS_REFERENCE ? loadReference(REFERENCE_FILE) : {};
  const names = HAS_REFERENCE ? reachable(schemas) : [];

  it('declares every reachable schema, and no other, as a component', () => {
    expect(Object.keys(accountComponents).sort()).toEqual([...names].sort());
    expect(undeclaredRuleTargets()).toEqual([]);
  });

  it('declares every field as published', () => {
    const differences: string[] = [];
    let fields = 0;
    let enums = 0;
    let enumValues = 0;
    for (const name of names) {
      const schema = schemas[name] as ReferenceSchema;
      if (schema.oneOf !== undefined) {
        const published = schema.oneOf.map((o) => `${COMPONENTS_PATH}${o.$ref}`).sort();
        const declared = (accountComponents[name]?.oneOf as Json[]).map((o) => o.$ref).sort();
        if (JSON.stringify(published) !== JSON.stringify(declared)) differences.push(name);
        continue;
      }
      const published = schema.properties ?? {};
      const declared = Object.keys(declaredShape(name) ?? {});
      for (const extra of declared.filter((field) => published[field] === undefined)) {
        differences.push(`${name}.${extra}: declared, not published`);
      }
      for (const [field, definition] of Object.entries(published)) {
        fields++;
        const enumOf = definition.enum ?? definition.items?.enum;
        if (Array.isArray(enumOf)) {
          enums++;
          enumValues += enumOf.length;
        }
        const key = `${name}.${field}`;
        const required = (schema.required ?? []).includes(field) || requiredBySpec.has(key);
        const expected = referenceFacts(definition, required);
        const actual = declaredFacts(name, field);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          differences.push(`${key}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
        }
      }
    }
    expect(differences).toEqual([]);
    console.log(
      `conformance: ${names.length} schemas, ${fields} fields, ${enums} enums (${enumValues} values)`,
    );
  });

  it('lists only deviations the publication needs', () => {
    for (const key of requiredBySpec) {
      const [name, field] = key.split('.') as [string, string];
      expect(schemas[name]?.properties?.[field]).toBeDefined();
      expect(schemas[name]?.required ?? []).not.toContain(field);
    }
  });

  it('attaches rules to published schemas, with published or v1 codes, all in the catalogue', () => {
    const codesOf = (rules: ReferenceSchema['rules']) => (rules ?? []).flatMap((r) => r.codes);
    const published = new Set<string>();
    for (const name of names) {
      const schema = schemas[name] as ReferenceSchema;
      for (const code of codesOf(schema.rules)) published.add(code);
      for (const field of Object.values(schema.properties ?? {})) {
        for (const code of codesOf(field.rules)) published.add(code);
      }
    }
    const covered = new Set<string>();
    const ours = new Set<string>();
    for (const name of Object.keys(FIELD_RULES)) expect(names).toContain(name);
    for (const name of names) {
      const attached = [
        ...Object.values(FIELD_RULES[name] ?? {}).flatMap((rule) => rule.codes),
        ...(OBJECT_RULES[name]?.codes ?? []),
      ];
      for (const code of attached) (published.has(code) ? covered : ours).add(code);
    }
    // Codes the publication has no name for are v1's; every code is in the catalogue.
    for (const code of [...covered, ...ours]) expect(FIELD_ERROR_CODES).toHaveProperty(code);
    console.log(
      `conformance: rules report ${covered.size} of the ${published.size} published codes ` +
        `(the others compare several objects or need platform data); v1 codes kept: ${[...ours].join(', ')}`,
    );
    expect(covered.size).toBeGreaterThanOrEqual(58);
  });
});
