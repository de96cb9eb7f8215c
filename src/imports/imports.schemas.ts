/** JSON Schemas of the data-import routes: they feed the OpenAPI document and serialisation. */
import { ERROR_CATALOGUE } from '../errors.js';
import { accountPayloadJsonSchema } from '../payload/account.js';
import { processRequestJsonSchema } from '../payload/process-request.js';

const fieldError = {
  type: 'object',
  properties: {
    detail: { type: 'string' },
    code: { type: 'string' },
    attr: { type: ['string', 'null'] },
  },
  required: ['detail', 'code', 'attr'],
} as const;

/** The error body of SPEC.md 7.1; some codes add fields (e.g. service_account_number). */
export const errorBody = {
  type: 'object',
  properties: {
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    errors: { type: 'array', items: fieldError },
    external_account_number: { type: 'string' },
    service_account_number: { type: 'string' },
  },
  required: ['detail', 'code', 'errors'],
  additionalProperties: true,
} as const;

const RETRY_AFTER = {
  'Retry-After': { type: 'string', description: 'Seconds to wait before retrying' },
};

/** Headers some error statuses always carry. */
const ERROR_HEADERS: Record<number, Record<string, unknown>> = {
  401: {
    'WWW-Authenticate': { type: 'string', description: 'The Token challenge (RFC 6750 style)' },
  },
  429: RETRY_AFTER,
  503: RETRY_AFTER,
};

/** The documented error response of a status: its codes, the error body and its headers. */
export function errorResponse(status: number): Record<string, unknown> {
  const codes = Object.entries(ERROR_CATALOGUE)
    .filter(([, entry]) => entry.status === status)
    .map(([code]) => `\`${code}\``);
  const headers = ERROR_HEADERS[status];
  return { description: codes.join(', '), ...errorBody, ...(headers ? { headers } : {}) };
}

/** The error responses of a route: the given statuses and those every protected route has. */
export function errors(...statuses: number[]): Record<number, unknown> {
  const described: Record<number, unknown> = {};
  for (const status of [...statuses, 401, 413, 415, 500, 503]) {
    described[status] = errorResponse(status);
  }
  return described;
}

const security = [{ token: [] }];

export const supplierParams = {
  type: 'object',
  properties: { import_supplier: { type: 'string', description: 'Import supplier code' } },
  required: ['import_supplier'],
} as const;

export const validateSchema = {
  tags: ['data-import'],
  summary: 'Validate an account without storing anything',
  security,
  body: accountPayloadJsonSchema,
  response: {
    200: { description: 'The normalised account data', type: 'object', additionalProperties: true },
    ...errors(400),
  },
};

const stageResult = {
  type: 'object',
  properties: {
    import_supplier: { type: 'string' },
    external_account_number: { type: 'string' },
  },
  required: ['import_supplier', 'external_account_number'],
} as const;

export const stageSchema = {
  tags: ['data-import'],
  summary: 'Stage (create or update) the data of an account',
  security,
  body: accountPayloadJsonSchema,
  response: {
    200: { description: 'Re-staged: the data was replaced', ...stageResult },
    201: { description: 'Staged for the first time', ...stageResult },
    ...errors(400, 409),
  },
};

export const processSchema = {
  tags: ['data-import'],
  summary: 'Create the account from its staged data (or test it with dry_run)',
  security,
  body: processRequestJsonSchema,
  response: {
    201: {
      description: 'The account was created',
      type: 'object',
      properties: { service_account_number: { type: 'string' } },
      required: ['service_account_number'],
    },
    ...errors(400, 409, 429),
  },
};

export const statusSchema = {
  tags: ['queries'],
  summary: 'Import status of one account',
  security,
  params: {
    type: 'object',
    properties: {
      import_supplier: { type: 'string' },
      external_account_number: { type: 'string' },
    },
    required: ['import_supplier', 'external_account_number'],
  },
  response: {
    200: {
      description: 'The import process exists',
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['UNKNOWN', 'IN_PROGRESS', 'COMPLETED'] },
        service_account_number: { type: 'string' },
        last_attempt: {
          description: 'The last failed processing attempt, when the latest attempt failed',
          type: 'object',
          properties: {
            code: { type: 'string' },
            detail: { type: 'string' },
            at: { type: 'string', format: 'date-time' },
          },
          required: ['code', 'detail', 'at'],
        },
      },
      required: ['status', 'service_account_number'],
    },
    ...errors(404),
  },
};

const listItem = {
  type: 'object',
  properties: {
    external_account_number: { type: 'string' },
    service_account_number: { type: ['string', 'null'] },
    account_created_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['external_account_number', 'service_account_number', 'account_created_at'],
} as const;

const listQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'Page size' },
    after: { type: 'string', description: 'Cursor from the previous page\'s Link rel="next"' },
  },
} as const;

/** Schema of a list route; the body is written by hand (streamed), so no response serialiser. */
export function listSchema(summary: string) {
  return {
    tags: ['queries'],
    summary,
    security,
    params: supplierParams,
    querystring: listQuery,
    response: {
      200: {
        description:
          'Ordered by first staging time, then external account number. Paged with `limit`/`after`; a `Link: <…>; rel="next"` header is sent while more remain.',
        headers: {
          Link: {
            type: 'string',
            description: 'RFC 8288 link to the next page, while more remain',
          },
        },
        type: 'array',
        items: listItem,
      },
      ...errors(400, 404),
    },
  };
}
