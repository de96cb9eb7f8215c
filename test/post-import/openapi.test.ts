/** The post-import endpoints in the OpenAPI document: bodies and answers as published. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestService } from '../helpers/app.js';
import { POST_IMPORT_PATHS } from './helpers.js';

type Operation = {
  requestBody: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// The document is the same on either database: one dialect is enough.
describe('the post-import endpoints in /v1/openapi.json', () => {
  const service = useTestService('sqlite');
  let operation: (path: string) => Operation;

  beforeAll(async () => {
    const response = await service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    const document = response.json() as { paths: Record<string, { post: Operation }> };
    operation = (path) => {
      const found = document.paths[path]?.post;
      if (!found) throw new Error(`${path} is not documented`);
      return found;
    };
  });

  const schemaOf = (part: { content?: Record<string, { schema: unknown }> } | undefined) =>
    part?.content?.['application/json']?.schema;

  it('takes each body as its published schema', () => {
    expect(schemaOf(operation(POST_IMPORT_PATHS.statements).requestBody)).toEqual(
      ref('HistoricalStatements'),
    );
    expect(schemaOf(operation(POST_IMPORT_PATHS.notes).requestBody)).toEqual(ref('AccountNote'));
    expect(schemaOf(operation(POST_IMPORT_PATHS.paymentInstruction).requestBody)).toEqual(
      ref('LegacyPaymentInstruction'),
    );
  });

  it('shows each 201 and the refusals of each endpoint', () => {
    const statements = operation(POST_IMPORT_PATHS.statements).responses;
    expect(schemaOf(statements['201'])).toEqual(ref('HistoricalStatements'));
    expect(statements['400']?.description).toContain('historical_statement_already_exists');
    expect(statements['404']?.description).toContain('account_not_found');
    const notes = schemaOf(operation(POST_IMPORT_PATHS.notes).responses['201']) as {
      type: string;
      items: { properties: Record<string, unknown> };
    };
    expect(notes.type).toBe('array');
    expect(notes.items.properties.status).toEqual({
      type: 'string',
      enum: ['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS'],
    });
    const instruction = operation(POST_IMPORT_PATHS.paymentInstruction).responses;
    expect(instruction['400']?.description).toContain('payment_instruction_already_active');
    expect(schemaOf(instruction['201'])).toMatchObject({
      required: ['account_number', 'service_account_number', 'reference'],
    });
  });
});
