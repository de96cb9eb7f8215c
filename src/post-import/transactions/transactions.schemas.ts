/** JSON Schemas of transactions/create: they feed the OpenAPI document. */
import { errors, fieldError, TOKEN_SECURITY } from '../../http/error-schemas.js';
import { COMPONENTS_PATH } from '../../payload/named.js';

const STATUSES = [
  'TRANSACTION_ADDED_TO_ACCOUNT',
  'TRANSACTION_ALREADY_EXISTS',
  'TRANSACTION_IMPORT_ERROR',
] as const;

/** One transaction's outcome; `transactionData`: the schema of the transaction itself. */
const result = (transactionData: object) => ({
  type: 'object',
  properties: {
    added_transaction_id: {
      type: 'integer',
      description: 'The id the transaction was added under (not on a dry run)',
    },
    status: { type: 'string', enum: STATUSES },
    transaction_data: transactionData,
    error: { description: 'Why a TRANSACTION_IMPORT_ERROR was not added', ...fieldError },
  },
  required: ['status', 'transaction_data'],
});

const created = (transactionData: object) => ({
  description:
    'One result per transaction, in the order sent; on a dry run the same results, and nothing kept',
  type: 'object',
  properties: { results: { type: 'array', items: result(transactionData) } },
  required: ['results'],
});

export const createTransactionsSchema = {
  operationId: 'createTransactions',
  tags: ['data-import'],
  summary: 'Add transactions to a created account (or test it with dry_run)',
  security: TOKEN_SECURITY,
  // Published without a meaning; read as flags that change nothing (docs/decisions.md,
  // "Transactions requests").
  querystring: {
    type: 'object',
    properties: {
      check_previously_added: {
        type: 'boolean',
        default: true,
        description:
          'Accepted; the account is always checked: a transaction it holds already is TRANSACTION_ALREADY_EXISTS',
      },
      force_add_to_current_statement: {
        type: 'boolean',
        default: false,
        description: 'Accepted; changes nothing (the publication gives it no meaning)',
      },
    },
  },
  body: { $ref: `${COMPONENTS_PATH}Transactions` },
  response: {
    // The handler writes the JSON text itself; the document shows the transaction's schema
    // (documentCreateTransactions), which the serialiser could not resolve.
    201: created({ type: 'object', additionalProperties: true }),
    ...errors(
      {
        400: [
          'account_failed_validation',
          'malformed_request',
          'import_supplier_migration_not_ongoing',
        ],
        404: ['import_supplier_not_found', 'import_process_does_not_exist', 'account_not_found'],
      },
      { body: true },
    ),
  },
};

/** transactions/create as the OpenAPI document shows it: each result holds an EnergyTransaction. */
export function documentCreateTransactions({ url }: { url: string }) {
  const response = {
    ...createTransactionsSchema.response,
    201: created({ $ref: `${COMPONENTS_PATH}EnergyTransaction` }),
  };
  return { url, schema: { ...createTransactionsSchema, response } };
}
