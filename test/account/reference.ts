/**
 * The shared reference (../shared/reference beside the repository, or ACCOUNT_REFERENCE_DIR) and
 * the comparison of the publication with what the service states of it: its declarations
 * (conformance.test.ts) or its OpenAPI document (openapi-conformance.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import deviations from '../../src/account/deviations.json' with { type: 'json' };
import { COMPONENTS_PATH } from '../../src/payload/named.js';
import {
  loadReference,
  reachable,
  referenceFile,
  type ReferenceField,
  type ReferenceSchema,
} from '../../scripts/account-schema/reference.mjs';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const REFERENCE_FILE = referenceFile(repositoryRoot);
export const HAS_REFERENCE = existsSync(REFERENCE_FILE);

if (!HAS_REFERENCE) {
  console.warn(
    `account reference tests skipped: ${REFERENCE_FILE} is absent (CI has it; set ACCOUNT_REFERENCE_DIR to run them elsewhere)`,
  );
}

/** A published example payload, parsed. */
export function example(name: string): Record<string, unknown> {
  const file = join(dirname(REFERENCE_FILE), 'examples', name);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** The published schemas, `ledgers` gap filled in (empty without the reference). */
export const PUBLISHED: Record<string, ReferenceSchema> = HAS_REFERENCE
  ? loadReference(REFERENCE_FILE)
  : {};
/** The published schemas the request roots reach, dependencies first. */
export const PUBLISHED_NAMES: readonly string[] = HAS_REFERENCE ? reachable(PUBLISHED) : [];
/** `Schema.field` keys the service requires although the publication does not (deviations.json). */
export const REQUIRED_BY_SPEC: ReadonlySet<string> = new Set(Object.keys(deviations.required));

const TYPE_FACTS = ['type', 'format', 'maxLength', 'minLength', 'minimum', 'maximum'] as const;

/**
 * What a value's schema says, in the publication's terms (null in enums left out); a reference
 * is named without the components path unless `reference` (the publication's own form).
 */
export function valueFacts(schema: Json, reference = false): Json {
  const ref = (schema.$ref ?? (schema.allOf as Json[] | undefined)?.[0]?.$ref) as
    string | undefined;
  if (ref !== undefined) return { ref: reference ? ref : ref.slice(COMPONENTS_PATH.length) };
  const out: Json = {};
  for (const key of TYPE_FACTS) if (schema[key] !== undefined) out[key] = schema[key];
  if (Array.isArray(schema.enum)) out.enum = schema.enum.filter((v) => v !== null);
  if (schema.format === 'decimal') out.pattern = schema.pattern;
  if (schema.type === 'array') {
    out.items = valueFacts(schema.items as Json, reference);
    if (schema.minItems !== undefined) out.minItems = schema.minItems;
    if (schema.maxItems !== undefined) out.maxItems = schema.maxItems;
  }
  // An enum's type is the publication's `string`; an any-value field has none.
  if (out.enum !== undefined) out.type = 'string';
  return out;
}

/** Everything compared of one field. */
export interface FieldFacts {
  value: Json;
  required: boolean;
  nullable: boolean;
  default: unknown;
  deprecated: boolean;
}

/** How one side states the published schemas. */
export interface Statement {
  /** The fields of an object schema, or undefined when the schema is missing. */
  fields(schema: string): readonly string[] | undefined;
  /** The facts of one field, or undefined when it is missing. */
  field(schema: string, field: string): FieldFacts | undefined;
  /** The `$ref`s (components path included) of a schema's variants, for a published `oneOf`. */
  variants(schema: string): readonly string[] | undefined;
}

export interface Comparison {
  /** One line per difference, naming the schema, the field and the facts that differ. */
  differences: string[];
  fields: number;
  enums: number;
  enumValues: number;
}

function publishedFacts(name: string, field: string, definition: ReferenceField): FieldFacts {
  const required =
    (PUBLISHED[name]?.required ?? []).includes(field) || REQUIRED_BY_SPEC.has(`${name}.${field}`);
  return {
    value: valueFacts(definition, true),
    required,
    nullable: definition.nullable === true,
    default: definition.default,
    deprecated: definition.deprecated === true,
  };
}

/** Where `actual` departs from `expected`, as `fact stated (published …)`; `value` fact by fact. */
function factDifferences(actual: FieldFacts, expected: FieldFacts): string[] {
  const out: string[] = [];
  const compare = (prefix: string, a: Json, e: Json) => {
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      const [stated, published] = [JSON.stringify(a[key]), JSON.stringify(e[key])];
      if (stated !== published) out.push(`${prefix}${key} ${stated} (published ${published})`);
    }
  };
  compare('', actual.value, expected.value);
  const { value: _a, ...actualRest } = actual;
  const { value: _e, ...expectedRest } = expected;
  compare('', actualRest, expectedRest);
  return out;
}

/** Every difference between the publication (schemas the roots reach) and `side`. */
export function compareWithPublication(side: Statement): Comparison {
  const result: Comparison = { differences: [], fields: 0, enums: 0, enumValues: 0 };
  const differ = (line: string) => result.differences.push(line);
  for (const name of PUBLISHED_NAMES) {
    const schema = PUBLISHED[name] as ReferenceSchema;
    if (schema.oneOf !== undefined) {
      const published = schema.oneOf.map((o) => `${COMPONENTS_PATH}${o.$ref}`).sort();
      const stated = [...(side.variants(name) ?? [])].sort();
      if (JSON.stringify(published) !== JSON.stringify(stated)) {
        differ(
          `${name}: variants ${JSON.stringify(stated)} (published ${JSON.stringify(published)})`,
        );
      }
      continue;
    }
    const fields = side.fields(name);
    if (fields === undefined) {
      differ(`${name}: missing`);
      continue;
    }
    const published = schema.properties ?? {};
    for (const extra of fields.filter((field) => published[field] === undefined)) {
      differ(`${name}.${extra}: not published`);
    }
    for (const [field, definition] of Object.entries(published)) {
      result.fields++;
      const enumOf = definition.enum ?? definition.items?.enum;
      if (Array.isArray(enumOf)) {
        result.enums++;
        result.enumValues += enumOf.length;
      }
      const stated = side.field(name, field);
      if (stated === undefined) {
        differ(`${name}.${field}: published, missing`);
        continue;
      }
      const differences = factDifferences(stated, publishedFacts(name, field, definition));
      if (differences.length > 0) differ(`${name}.${field}: ${differences.join('; ')}`);
    }
  }
  return result;
}

/**
 * The published full account as one of our suppliers sends it: its supplier code set, and its
 * dunning path starting after `today` (the publication's start date has passed, which the
 * account refuses).
 */
export function publishedFullAccount(
  supplier: string,
  today = new Date().toISOString().slice(0, 10),
): Record<string, unknown> {
  const account = example('full-account.json');
  account.import_supplier = supplier;
  const start = new Date(`${today}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() + 30);
  account.dunning_path = {
    ...(account.dunning_path as object),
    start_date: start.toISOString().slice(0, 10),
  };
  return account;
}
