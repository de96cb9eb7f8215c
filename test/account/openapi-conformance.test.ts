/**
 * The OpenAPI document, as a client fetches it from /v1/openapi.json, against the published
 * schema: the account routes refer to EnergyAccount, every schema it reaches is a named component
 * that states each published field (type, enum, limits, nullability, required-ness, default,
 * deprecation) with only the deviations of src/account/deviations.json and the `ledgers` gap,
 * and every operation has its own stable operationId.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { accountComponents } from '../../src/account/account.js';
import { COMPONENTS_PATH } from '../../src/payload/named.js';
import { PATHS, listenLocally, useTestService } from '../helpers/app.js';
import {
  HAS_REFERENCE,
  PUBLISHED_NAMES,
  compareWithPublication,
  valueFacts,
  type Statement,
} from './reference.js';

type Json = Record<string, unknown>;
type Operation = { operationId?: string; requestBody?: Json; responses: Record<string, Json> };

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

/** Each operation of the interface and its operationId (docs/interface.md, "Operations"). */
const OPERATIONS = {
  'GET /healthz': 'getHealth',
  'GET /readyz': 'getReadiness',
  'GET /v1/graphql/': 'graphqlGet',
  'POST /v1/graphql/': 'graphql',
  [`POST ${PATHS.validate}`]: 'validateAccount',
  [`POST ${PATHS.stage}`]: 'stageAccount',
  [`POST ${PATHS.process}`]: 'processAccount',
  'GET /v1/data-import/account-transfer-status/{import_supplier}/{external_account_number}/':
    'getAccountTransferStatus',
  'GET /v1/data-import/all-account-import-processes/{import_supplier}/':
    'listAllAccountImportProcesses',
  'GET /v1/data-import/pending-account-import-processes/{import_supplier}/':
    'listPendingAccountImportProcesses',
  'GET /v1/data-import/imported-account-import-processes/{import_supplier}/':
    'listImportedAccountImportProcesses',
  'GET /v1/data-import/meterpoint-statuses-for-account/{import_supplier_code}/{external_account_number}/':
    'getMeterPointStatuses',
  'POST /v1/data-import/send-registration-flows/{import_supplier_code}/{external_account_number}/':
    'sendRegistrationFlows',
  'POST /v1/data-import/historical-statements/create/': 'createHistoricalStatements',
  'POST /v1/data-import/notes/create/': 'createAccountNotes',
  'POST /v1/data-import/payment-instruction/create/': 'createPaymentInstruction',
  'POST /v2/data-import/accounts/': 'scheduleAccountCreation',
  'POST /v2/data-import/accounts/validate/': 'validateAccountV2',
  'GET /v2/data-import/accounts/{import_supplier_code}/{external_identifier}/': 'getImportStatus',
  'POST /v2/data-import/accounts/{import_supplier_code}/{external_identifier}/cancel/':
    'cancelScheduledCreation',
  'GET /v2/data-import/accounts/{import_supplier_code}/{external_account_number}/events/':
    'getAccountEvents',
  'GET /v2/data-import/events/{import_supplier_code}/': 'getSupplierEventFeed',
  'POST /v1/data-import/transactions/create/': 'createTransactions',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operationsOf(document: OpenApiDocument): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      item[method]!,
    ]),
  );
}

/** Whether a JSON Schema accepts null. */
function admitsNull(schema: Json): boolean {
  if (schema.$ref !== undefined || schema.allOf !== undefined) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if (schema.type !== undefined) {
    return Array.isArray(schema.type) ? schema.type.includes('null') : schema.type === 'null';
  }
  for (const choice of ['anyOf', 'oneOf'] as const) {
    const options = schema[choice];
    if (Array.isArray(options)) return (options as Json[]).some(admitsNull);
  }
  const not = schema.not as Json | undefined;
  return not === undefined || !admitsNull(not);
}

/** A property's schema with its null alternative taken out (`["string", "null"]`, `anyOf`). */
function withoutNull(schema: Json): Json {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  if (Array.isArray(schema.anyOf)) {
    const { anyOf, ...outer } = schema;
    const others = (anyOf as Json[]).filter((option) => option.type !== 'null');
    if (others.length === 1) return { ...outer, ...others[0] };
  }
  return schema;
}

/** What the document's components state of the published schemas. */
function documentStatement(components: Record<string, Json>): Statement {
  const propertiesOf = (name: string) =>
    components[name]?.properties as Record<string, Json> | undefined;
  return {
    fields: (name) => {
      const properties = propertiesOf(name);
      return properties === undefined ? undefined : Object.keys(properties);
    },
    field: (name, field) => {
      const property = propertiesOf(name)?.[field];
      if (property === undefined) return undefined;
      return {
        value: valueFacts(withoutNull(property)),
        required: ((components[name]?.required as string[] | undefined) ?? []).includes(field),
        nullable: admitsNull(property),
        default: property.default,
        deprecated: property.deprecated === true,
      };
    },
    variants: (name) =>
      (components[name]?.oneOf as { $ref: string }[] | undefined)?.map((o) => o.$ref),
  };
}

/** Every `$ref` in `value`, wherever it is. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

const energyAccount = { $ref: `${COMPONENTS_PATH}EnergyAccount` };

// The document is the same on either database: one dialect is enough.
describe('the OpenAPI document at /v1/openapi.json', () => {
  const service = useTestService('sqlite');
  let document: OpenApiDocument;

  beforeAll(async () => {
    const base = await listenLocally(service.app);
    const response = await fetch(`${base}/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as OpenApiDocument;
  });

  it('gives every operation its own camelCase operationId, and the tools none', async () => {
    const operations = operationsOf(document);
    const ids = operations.map(([, operation]) => operation.operationId);
    expect(Object.fromEntries(operations.map(([key, op]) => [key, op.operationId]))).toEqual(
      OPERATIONS,
    );
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    // GraphiQL (served outside production, as here) and the docs page are not operations.
    const graphiql = await service.app.inject({ method: 'GET', url: '/v1/graphiql' });
    expect(graphiql.statusCode).toBe(200);
    const tools = Object.keys(document.paths).filter((path) => /graphiql|^\/docs/.test(path));
    expect(tools).toEqual([]);
  });

  it('describes both account bodies and the validated answer as the EnergyAccount', () => {
    const bodyOf = (operation: Operation | undefined) =>
      (operation?.requestBody?.content as Record<string, Json> | undefined)?.['application/json'];
    const validate = document.paths[PATHS.validate]?.post;
    const stage = document.paths[PATHS.stage]?.post;
    expect(bodyOf(validate)).toEqual({ schema: energyAccount });
    expect(bodyOf(stage)).toEqual({ schema: energyAccount });
    expect(validate?.responses['200']).toEqual({
      description: 'The normalised account',
      content: { 'application/json': { schema: energyAccount } },
    });
    // The payload v1 schema is gone from the document.
    expect(JSON.stringify(document)).not.toContain('AccountPayloadV1');
  });

  it('holds every account component by name, and every $ref names a component', () => {
    for (const name of Object.keys(accountComponents)) {
      expect(document.components.schemas, name).toHaveProperty([name]);
    }
    const unresolved = refsIn(document).filter(
      (ref) =>
        !ref.startsWith(COMPONENTS_PATH) ||
        document.components.schemas[ref.slice(COMPONENTS_PATH.length)] === undefined,
    );
    expect(unresolved).toEqual([]);
  });

  it('closes every account object: an unknown field is not part of the interface', () => {
    const open = Object.entries(document.components.schemas)
      .filter(([, schema]) => schema.type === 'object' && schema.additionalProperties !== false)
      .map(([name]) => name);
    expect(open).toEqual([]);
  });

  describe.skipIf(!HAS_REFERENCE)('against the published schema', () => {
    it('names every published schema EnergyAccount reaches as a component', () => {
      const missing = PUBLISHED_NAMES.filter((name) => !(name in document.components.schemas));
      expect(missing).toEqual([]);
    });

    it('states every published field as published', () => {
      const { differences, fields } = compareWithPublication(
        documentStatement(document.components.schemas),
      );
      expect(differences).toEqual([]);
      expect(fields).toBeGreaterThan(600);
    });

    it('reports a component that departs from the publication, by schema and field', () => {
      const components = structuredClone(document.components.schemas);
      const properties = (name: string) => components[name]?.properties as Record<string, Json>;
      delete properties('Address').country;
      properties('Address').extra = { type: 'string' };
      properties('EnergyAccount').billing_name = { type: 'string', maxLength: 511 };
      properties('EnergyAccount').communication_preference = {
        type: 'string',
        enum: ['ONLINE'],
        default: 'ONLINE',
      };
      properties('EnergyAccount').affiliate_subdomain = { type: 'string' };
      properties('EnergyAccountBillingOptions').period_start_day = {
        type: ['number', 'null'],
        minimum: 1,
        maximum: 28,
      };
      const { differences } = compareWithPublication(documentStatement(components));
      expect(differences).toEqual(
        expect.arrayContaining([
          'Address.extra: not published',
          'Address.country: published, missing',
          'EnergyAccount.billing_name: maxLength 511 (published 510)',
          'EnergyAccount.communication_preference: enum ["ONLINE"] (published ["ONLINE","PRINT"])',
          'EnergyAccount.affiliate_subdomain: nullable false (published true)',
          'EnergyAccountBillingOptions.period_start_day: type "number" (published "integer")',
        ]),
      );
      expect(differences).toHaveLength(6);
    });
  });
});
