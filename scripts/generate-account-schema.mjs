#!/usr/bin/env node
/**
 * Writes src/account/schema/generated.ts from the published schema: one named declaration per
 * schema reachable from the request roots, built with the combinators of src/payload. Rules
 * that need code are attached by src/account/field-rules.ts, so regenerating keeps them.
 *
 *   npm run generate:schema [-- path/to/published-schema.json]
 *
 * The default is ../shared/reference/ beside the repository, or ACCOUNT_REFERENCE_DIR.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import {
  identifierOf,
  loadReference,
  reachable,
  referenceFile,
  ROOTS,
} from './account-schema/reference.mjs';
import { UNIONS } from './account-schema/unions.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? referenceFile(root);
const target = join(root, 'src', 'account', 'schema', 'generated.ts');
const deviations = JSON.parse(
  readFileSync(join(root, 'src', 'account', 'deviations.json'), 'utf8'),
);

/** Any JSON value or object kept as given is bounded like v1's metadata values. */
const JSON_VALUE_BYTES = 10_000;
const DECIMAL = /^\^-\?\\d\{0,(\d+)\}\(\?:\\\.\\d\{0,(\d+)\}\)\?\$$/;

const js = (value) => JSON.stringify(value);

function refOf(field) {
  if (field.$ref !== undefined) return field.$ref;
  if (field.allOf !== undefined) {
    if (field.allOf.length !== 1) throw new Error(`allOf of ${field.allOf.length} schemas`);
    return field.allOf[0].$ref;
  }
  return undefined;
}

function stringType(field, where) {
  const { format, maxLength, minLength, pattern } = field;
  if (format === 'decimal') {
    const digits = DECIMAL.exec(pattern ?? '');
    if (digits === null) throw new Error(`${where}: decimal pattern ${pattern}`);
    return `decimalOf(${digits[1]}, ${digits[2]})`;
  }
  if (pattern !== undefined) throw new Error(`${where}: pattern ${pattern}`);
  if (format === 'date') return 'date()';
  if (format === 'date-time') return 'instant()';
  if (format === 'time') return 'timeOfDay';
  if (format === 'email') return `emailAddress(${maxLength === undefined ? '' : maxLength})`;
  if (format !== undefined) throw new Error(`${where}: format ${format}`);
  const limits = [];
  if (minLength !== undefined) limits.push(`min: ${minLength}`);
  if (maxLength !== undefined) limits.push(`max: ${maxLength}`);
  return limits.length === 0 ? 'string()' : `string({ ${limits.join(', ')} })`;
}

/** The combinator expression of a field's value (without presence and null rules). */
function typeOf(field, where) {
  const ref = refOf(field);
  if (ref !== undefined) return identifierOf(ref);
  if (field.enum !== undefined) {
    if (field.type !== 'string') throw new Error(`${where}: enum of ${field.type}`);
    // A nullable field publishes null among its values; null is the field's business.
    return `enumOf(${js(field.enum.filter((value) => value !== null))})`;
  }
  switch (field.type) {
    case 'string':
      return stringType(field, where);
    case 'integer': {
      const bounds = [field.minimum, field.maximum].map((b) => (b === undefined ? 'undefined' : b));
      return bounds.every((b) => b === 'undefined') ? 'integer()' : `integer(${bounds.join(', ')})`;
    }
    case 'boolean':
      return 'bool';
    case 'object':
      return `jsonObject(${JSON_VALUE_BYTES})`;
    case 'array': {
      const options = ['max: null'];
      if (field.minItems !== undefined) options.push(`min: ${field.minItems}`);
      return `array(${typeOf(field.items, `${where}[]`)}, { ${options.join(', ')} })`;
    }
    case undefined:
      return `jsonValue(${JSON_VALUE_BYTES})`;
    default:
      throw new Error(`${where}: type ${field.type}`);
  }
}

/** The field expression: presence, null and default rules around the value's type. */
function fieldOf(field, isRequired, where) {
  const t = typeOf(field, where);
  const extra = {};
  if (field.deprecated === true) extra.deprecated = true;
  let expression;
  const fallback = field.default;
  if (isRequired) {
    if (field.nullable === true || fallback !== undefined)
      throw new Error(`${where}: required with null or default`);
    expression = `required(${t})`;
  } else if (field.nullable === true) {
    if (fallback !== undefined && fallback !== '') throw new Error(`${where}: nullable default`);
    if (fallback === '') extra.default = '';
    expression = `nullable(${t})`;
  } else if (fallback === '') {
    // An empty optional string is absent (src/payload/README.md): nothing to fill in.
    extra.default = '';
    expression = `optional(${t})`;
  } else if (typeof fallback === 'object' && fallback !== null) {
    extra.default = fallback;
    expression = `defaulted(${t}, () => (${js(fallback)}))`;
  } else if (fallback !== undefined) {
    expression = `defaulted(${t}, ${js(fallback)})`;
  } else {
    expression = `optional(${t})`;
  }
  return Object.keys(extra).length === 0 ? expression : `annotate(${expression}, ${js(extra)})`;
}

function objectDeclaration(name, schema) {
  const requiredNames = new Set(schema.required ?? []);
  for (const key of Object.keys(deviations.required)) {
    const [owner, field] = key.split('.');
    if (owner === name) requiredNames.add(field);
  }
  const fields = Object.entries(schema.properties).map(
    ([field, definition]) =>
      `  ${field}: ${fieldOf(definition, requiredNames.has(field), `${name}.${field}`)},`,
  );
  return `export const ${identifierOf(name)} = declare(${js(name)}, {\n${fields.join('\n')}\n});`;
}

function unionDeclaration(name, schema) {
  const union = UNIONS[name];
  if (union === undefined) throw new Error(`${name}: a oneOf without a declared way to choose`);
  const published = schema.oneOf.map((option) => option.$ref).sort();
  const declared =
    union.keys === undefined ? Object.values(union.variants) : [union.variant, union.otherwise];
  if (js([...new Set(declared)].sort()) !== js(published)) {
    throw new Error(
      `${name}: variants ${published.join(', ')} differ from scripts/account-schema/unions.mjs`,
    );
  }
  if (union.keys !== undefined) {
    const variant = identifierOf(union.variant);
    return `export const ${identifierOf(name)} = named(${js(name)}, keyed({
  withKeys: { keys: ${js(union.keys)}, variant: ${variant} },
  otherwise: ${identifierOf(union.otherwise)},
}));`;
  }
  const variants = Object.entries(union.variants)
    .map(([value, variant]) => `    ${js(value)}: ${identifierOf(variant)},`)
    .join('\n');
  const code = union.code === undefined ? '' : `\n  code: ${js(union.code)},`;
  return `export const ${identifierOf(name)} = named(${js(name)}, tagged({
  field: ${js(union.field)},${code}
  variants: {\n${variants}\n  },
}));`;
}

function generate(schemas) {
  const order = reachable(schemas);
  const declarations = order.map((name) =>
    schemas[name].oneOf === undefined
      ? objectDeclaration(name, schemas[name])
      : unionDeclaration(name, schemas[name]),
  );
  const types = order.map(
    (name) => `export type ${identifierOf(name)} = Infer<typeof ${identifierOf(name)}>;`,
  );
  const from = 'published-schema.json of the shared reference';
  return `/**
 * GENERATED by scripts/generate-account-schema.mjs from ${from}; do not edit.
 * ${order.length} schemas reachable from ${ROOTS.join(', ')}, dependencies first. Rules that need
 * code are attached by ../field-rules.ts; deviations from the publication are in
 * ../deviations.json and ../README.md.
 */
import { date, instant } from '../../payload/dates.js';
import { named } from '../../payload/named.js';
import { annotate, defaulted, nullable, optional, required } from '../../payload/object.js';
import { emailAddress } from '../../payload/rules/email.js';
import {
  bool,
  decimalOf,
  enumOf,
  integer,
  jsonObject,
  jsonValue,
  string,
  timeOfDay,
} from '../../payload/scalars.js';
import { keyed, tagged } from '../../payload/union.js';
import { array, type Infer } from '../../payload/validators.js';
import { declare } from '../declare.js';

${declarations.join('\n\n')}

/** Every declaration, for the published components. */
export const ALL_SCHEMAS = [${order.map(identifierOf).join(', ')}] as const;

${types.join('\n')}
`;
}

const schemas = loadReference(source);
const config = await prettier.resolveConfig(target);
const text = await prettier.format(generate(schemas), { ...config, filepath: target });
writeFileSync(target, text);
process.stdout.write(
  `wrote ${relative(root, target)} (${reachable(schemas).length} schemas)` + '\n',
);
