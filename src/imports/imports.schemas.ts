/** JSON Schemas of the data-import routes: they feed the OpenAPI document and serialisation. */
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';
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

/** The codes of the catalogue that have `status`. */
function catalogueCodes(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter(
    (code) => ERROR_CATALOGUE[code].status === status,
  );
}

/**
 * The documented error response of a status: the codes answered with it (by default every code
 * of the catalogue with that status), the error body and its headers.
 */
export function errorResponse(
  status: number,
  codes: readonly ErrorCode[] = catalogueCodes(status),
): Record<string, unknown> {
  const headers = ERROR_HEADERS[status];
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    ...errorBody,
    ...(headers ? { headers } : {}),
  };
}

/** The codes a route answers with each of its own error statuses. */
type RouteErrors = Partial<Record<number, readonly ErrorCode[]>>;

/** What any protected route may answer, and what only one with a body may (size, media type). */
const SHARED_STATUSES = [401, 408, 431, 500, 503];
const BODY_STATUSES = [413, 415];
/** Codes any protected route may answer: past its organisation's share (organisation-shares.ts). */
const SHARED_CODES: RouteErrors = { 429: ['too_many_requests'] };

/**
 * The error responses of a route: its own (see RouteErrors) and those every protected route has;
 * `body`: the route reads a request body.
 */
export function errors(own: RouteErrors, { body = false } = {}): Record<number, unknown> {
  const described: Record<number, unknown> = {};
  const statuses = new Set([...Object.keys(own), ...Object.keys(SHARED_CODES)].map(Number));
  for (const status of statuses) {
    described[status] = errorResponse(status, [
      ...(own[status] ?? []),
      ...(SHARED_CODES[status] ?? []),
    ]);
  }
  for (const status of [...SHARED_STATUSES, ...(body ? BODY_STATUSES : [])]) {
    described[status] = errorResponse(status);
  }
  return described;
}

/** What refuses a stage, and a process besides its own reasons. */
const STAGE_REFUSALS = [
  'account_failed_validation',
  'malformed_request',
  'import_supplier_migration_not_ongoing',
  'account_import_process_already_imported',
  'account_import_process_skipped',
] as const;

/** A bad percent-encoding or a U+0000 in the URL, or a bad query parameter. */
const URL_REFUSALS = ['malformed_request'] as const;

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
    ...errors({ 400: ['account_failed_validation', 'malformed_request'] }, { body: true }),
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
    ...errors({ 400: STAGE_REFUSALS, 409: ['account_import_in_progress'] }, { body: true }),
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
    ...errors(
      {
        400: [
          ...STAGE_REFUSALS,
          'import_process_does_not_exist',
          'operations_team_name_does_not_exist',
          'dry_run_rolled_back',
        ],
        409: ['account_import_in_progress'],
        429: ['too_many_accounts_in_progress'],
      },
      { body: true },
    ),
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
        import_supplier: { type: 'string' },
        external_account_number: { type: 'string' },
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
      required: ['import_supplier', 'external_account_number', 'status', 'service_account_number'],
    },
    ...errors({
      400: URL_REFUSALS,
      404: ['import_supplier_not_found', 'import_process_does_not_exist'],
    }),
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
      ...errors({ 400: URL_REFUSALS, 404: ['import_supplier_not_found'] }),
    },
  };
}
