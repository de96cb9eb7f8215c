/** JSON Schemas of the data-import routes: they feed the OpenAPI document and serialisation. */
import { errors, TOKEN_SECURITY } from '../http/error-schemas.js';
import { COMPONENTS_PATH } from '../payload/named.js';
import { processRequestJsonSchema } from '../payload/process-request.js';

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

const security = TOKEN_SECURITY;

/** The published account (src/account/), a component of the OpenAPI document. */
const energyAccount = { $ref: `${COMPONENTS_PATH}EnergyAccount` } as const;

export const supplierParams = {
  type: 'object',
  properties: { import_supplier: { type: 'string', description: 'Import supplier code' } },
  required: ['import_supplier'],
} as const;

const NORMALISED = 'The normalised account';

export const validateSchema = {
  operationId: 'validateAccount',
  tags: ['data-import'],
  summary: 'Validate an account without storing anything',
  security,
  body: energyAccount,
  response: {
    // The handler writes the JSON text itself, so this schema serialises nothing; it is one the
    // serialiser can compile (it cannot resolve a component). The document shows the account
    // instead (documentValidate).
    200: { description: NORMALISED, type: 'object', additionalProperties: true },
    ...errors({ 400: ['account_failed_validation', 'malformed_request'] }, { body: true }),
  },
};

/** validate-account as the OpenAPI document shows it: the 200 answer is an EnergyAccount. */
export function documentValidate({ url }: { url: string }) {
  const response = {
    ...validateSchema.response,
    200: { description: NORMALISED, ...energyAccount },
  };
  return { url, schema: { ...validateSchema, response } };
}

const stageResult = {
  type: 'object',
  properties: {
    import_supplier: { type: 'string' },
    import_supplier_code: {
      type: 'string',
      description: 'The same code, as the publication names it',
    },
    external_account_number: { type: 'string' },
  },
  required: ['import_supplier', 'import_supplier_code', 'external_account_number'],
} as const;

export const stageSchema = {
  operationId: 'stageAccount',
  tags: ['data-import'],
  summary: 'Stage (create or update) the data of an account',
  security,
  body: energyAccount,
  response: {
    200: { description: 'Re-staged: the data was replaced', ...stageResult },
    201: { description: 'Staged for the first time', ...stageResult },
    ...errors({ 400: STAGE_REFUSALS, 409: ['account_import_in_progress'] }, { body: true }),
  },
};

export const processSchema = {
  operationId: 'processAccount',
  tags: ['data-import'],
  summary: 'Create the account from its staged data (or test it with dry_run)',
  security,
  body: processRequestJsonSchema,
  response: {
    201: {
      description: 'The account was created',
      type: 'object',
      properties: {
        service_account_number: { type: 'string' },
        external_account_number: { type: 'string' },
      },
      required: ['service_account_number', 'external_account_number'],
    },
    ...errors(
      {
        400: [
          ...STAGE_REFUSALS,
          'import_process_does_not_exist',
          'operations_team_name_does_not_exist',
          'dry_run_rolled_back',
        ],
        409: ['account_import_in_progress', 'account_import_scheduled'],
        429: ['too_many_accounts_in_progress'],
      },
      { body: true },
    ),
  },
};

export const statusSchema = {
  operationId: 'getAccountTransferStatus',
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
      description: 'The import process exists, or the account is marked to be skipped',
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
        skip_mark: {
          description:
            'The operator marked the account to be skipped: no stage nor creation of it is taken (status UNKNOWN, or COMPLETED when it was created before the mark)',
          type: 'object',
          properties: {
            reason: { type: ['string', 'null'] },
            marked_at: { type: 'string', format: 'date-time' },
          },
          required: ['reason', 'marked_at'],
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
export function listSchema(operationId: string, summary: string) {
  return {
    operationId,
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
