/** JSON Schemas of the v2 routes: they feed the OpenAPI document and serialisation. */
import { errors, TOKEN_SECURITY } from '../http/error-schemas.js';
import { COMPONENTS_PATH } from '../payload/named.js';
import { SCHEDULE_STATUSES } from '../db/database.js';

const security = TOKEN_SECURITY;

/** The refusals a schedule shares with a v1 stage, besides its own. */
const SCHEDULE_REFUSALS = [
  'account_failed_validation',
  'malformed_request',
  'import_supplier_migration_not_ongoing',
  'account_import_process_already_imported',
  'account_import_process_skipped',
] as const;

const accountParams = {
  type: 'object',
  properties: {
    import_supplier_code: { type: 'string' },
    external_identifier: { type: 'string', description: 'The external account number' },
  },
  required: ['import_supplier_code', 'external_identifier'],
} as const;

/** The published `ImportStatusResponse`. */
const importStatus = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: SCHEDULE_STATUSES },
    service_identifier: {
      type: ['string', 'null'],
      description: 'The created account number, once created',
    },
    created_at: { type: 'string', format: 'date-time' },
    modified_at: { type: 'string', format: 'date-time' },
    latest_event: {
      type: 'object',
      properties: {
        event: { type: 'string' },
        occurred_at: { type: 'string', format: 'date-time' },
        data: { type: ['object', 'null'], additionalProperties: true },
      },
      required: ['event', 'occurred_at', 'data'],
    },
    latest_error: {
      type: ['object', 'null'],
      properties: {
        code: { type: ['string', 'null'] },
        detail: { type: ['string', 'null'] },
        domain: { type: ['string', 'null'] },
      },
    },
  },
  required: [
    'status',
    'service_identifier',
    'created_at',
    'modified_at',
    'latest_event',
    'latest_error',
  ],
} as const;

const STATUS_404 = [
  'import_supplier_not_found',
  'import_process_does_not_exist',
  'import_schedule_does_not_exist',
] as const;

export const scheduleSchema = {
  operationId: 'scheduleAccountCreation',
  tags: ['v2'],
  summary: 'Stage an account and schedule its creation in a window',
  security,
  body: { $ref: `${COMPONENTS_PATH}ScheduleAccountCreation` },
  response: {
    201: {
      description: 'Staged and scheduled (PENDING)',
      type: 'object',
      properties: {
        import_supplier_code: { type: 'string' },
        external_account_number: { type: 'string' },
        status: { type: 'string', enum: ['PENDING'] },
      },
      required: ['import_supplier_code', 'external_account_number', 'status'],
    },
    ...errors({ 400: SCHEDULE_REFUSALS, 409: ['account_import_in_progress'] }, { body: true }),
  },
};

export const validateV2Schema = {
  operationId: 'validateAccountV2',
  tags: ['v2'],
  summary: 'Validate an account without storing anything',
  security,
  body: { $ref: `${COMPONENTS_PATH}ValidateAccount` },
  response: {
    200: { description: 'The account is valid (no body)', type: 'null' },
    ...errors({ 400: ['account_failed_validation', 'malformed_request'] }, { body: true }),
  },
};

export const importStatusSchema = {
  operationId: 'getImportStatus',
  tags: ['v2'],
  summary: 'The scheduled creation of one account: status, latest event, latest error',
  security,
  params: accountParams,
  response: {
    200: { description: 'The account was scheduled', ...importStatus },
    ...errors({ 400: ['malformed_request'], 404: STATUS_404 }),
  },
};

export const cancelSchema = {
  operationId: 'cancelScheduledCreation',
  tags: ['v2'],
  summary: 'Cancel a PENDING scheduled creation (the account stays staged)',
  security,
  params: accountParams,
  response: {
    200: { description: 'Cancelled: the status after', ...importStatus },
    ...errors({
      400: ['malformed_request', 'import_schedule_not_cancellable'],
      404: STATUS_404,
      409: ['account_import_in_progress'],
    }),
  },
};
