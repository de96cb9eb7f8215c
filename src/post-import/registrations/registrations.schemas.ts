/** JSON Schemas of the meter point registration routes: they feed the OpenAPI document. */
import { METER_POINT_STATUSES } from '../../accounts/registration-lifecycle.js';
import { errors, TOKEN_SECURITY } from '../../http/error-schemas.js';

const security = TOKEN_SECURITY;

export const accountParams = {
  type: 'object',
  properties: {
    import_supplier_code: { type: 'string', description: 'Import supplier code' },
    external_account_number: { type: 'string' },
  },
  required: ['import_supplier_code', 'external_account_number'],
} as const;

/** The 404s of both routes; their bodies also carry the published fields (see publishedFields). */
const NOT_FOUND = [
  'import_supplier_not_found',
  'import_process_does_not_exist',
  'account_not_found',
  'account_has_no_meter_points',
] as const;

/** A 404 body's fields besides ours, as the publication's GbrRegistrationFlowError has them. */
const publishedFields = {
  external_account_number: { type: 'string' },
  import_supplier_code: { type: 'string' },
  error_detail: { type: 'string', description: 'The same as detail' },
} as const;

function withPublishedFields(responses: Record<number, unknown>): Record<number, unknown> {
  const notFound = responses[404] as { properties: Record<string, unknown> };
  return {
    ...responses,
    404: { ...notFound, properties: { ...notFound.properties, ...publishedFields } },
  };
}

export const statusesSchema = {
  operationId: 'getMeterPointStatuses',
  tags: ['queries'],
  summary: 'Registration status of each meter point of a created account',
  security,
  params: accountParams,
  response: {
    200: {
      description: 'Each meter point with its status, in the order of the account',
      type: 'array',
      items: {
        type: 'object',
        properties: {
          mpxn: { type: 'string' },
          status: { type: 'string', enum: [...METER_POINT_STATUSES] },
        },
        required: ['mpxn', 'status'],
      },
    },
    ...withPublishedFields(errors({ 400: ['malformed_request'], 404: NOT_FOUND })),
  },
};

export const sendSchema = {
  operationId: 'sendRegistrationFlows',
  tags: ['data-import'],
  summary: 'Queue a registration flow for each meter point that may be registered',
  security,
  params: accountParams,
  response: {
    200: {
      description: 'What was done for each meter point, in the order of the account',
      type: 'object',
      properties: {
        external_account_number: { type: 'string' },
        import_supplier_code: { type: 'string' },
        meter_points: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              mpxn: { type: 'string' },
              status: {
                type: 'string',
                enum: ['REGISTRATION_FLOW_SUCCESS', 'REGISTRATION_FLOW_ERROR'],
              },
              error_detail: { type: 'string', description: 'Why no flow was sent' },
            },
            required: ['mpxn', 'status'],
          },
        },
      },
      required: ['external_account_number', 'import_supplier_code', 'meter_points'],
    },
    ...withPublishedFields(
      errors(
        { 400: ['malformed_request', 'import_supplier_migration_not_ongoing'], 404: NOT_FOUND },
        { body: true },
      ),
    ),
  },
};
