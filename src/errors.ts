/**
 * The one error type of the service, the closed catalogue of its top-level codes and the
 * HTTP status each maps to. Field-level codes live in payload/codes.ts.
 */

export const ERROR_CATALOGUE = {
  account_failed_validation: { status: 400, summary: 'The payload failed validation.' },
  malformed_request: { status: 400, summary: 'The body is not valid JSON or not an object.' },
  import_supplier_migration_not_ongoing: {
    status: 400,
    summary: 'The import supplier is Paused or Complete.',
  },
  account_import_process_already_imported: {
    status: 400,
    summary: 'An account was already created for this supplier and external account number.',
  },
  account_import_process_skipped: {
    status: 400,
    summary: 'The operator marked this account to be skipped.',
  },
  import_process_does_not_exist: {
    status: 400,
    /** The status endpoint asks about the account itself: there, nothing staged is a 404. */
    statusOn: { account_status: 404, post_import: 404, schedule: 404 },
    summary:
      'Nothing was staged for this supplier and external account number (404 on the status, post-import and v2 schedule endpoints).',
  },
  import_schedule_does_not_exist: {
    status: 404,
    summary:
      'The account was staged but never scheduled for creation with v2 (its v1 status is at account-transfer-status).',
  },
  import_schedule_not_cancellable: {
    status: 400,
    summary:
      'Only a PENDING schedule can be cancelled; this one is over (processed, errored, cancelled…).',
  },
  account_not_found: {
    status: 404,
    summary:
      'The account was staged but not created yet (post-import endpoints need a created account).',
  },
  account_has_no_meter_points: {
    status: 404,
    summary: 'The created account has no meter points, so it has no registrations.',
  },
  historical_statement_already_exists: {
    status: 400,
    summary:
      'A historical statement sent has the statement_id of one the account already has (each is named in errors).',
  },
  payment_instruction_already_active: {
    status: 400,
    summary: 'The account already has an active payment instruction of this type.',
  },
  operations_team_name_does_not_exist: {
    status: 400,
    summary: 'No operations team has this name.',
  },
  dry_run_rolled_back: {
    status: 400,
    summary: 'The account would import successfully and was rolled back due to the dry run.',
  },
  invalid_graphql_request: {
    status: 400,
    summary:
      'The GraphQL document does not parse or fails validation, or the variables or operation name do not fit it (token endpoint).',
  },
  not_authenticated: { status: 401, summary: 'No token was sent.' },
  invalid_token: { status: 401, summary: 'The token is malformed, badly signed or revoked.' },
  token_expired: { status: 401, summary: 'The token has expired.' },
  import_supplier_not_found: {
    status: 404,
    summary: 'No import supplier with this code is available to the caller.',
  },
  account_events_not_found: {
    status: 404,
    summary:
      'Nothing was ever recorded for this supplier and external account number (account timeline).',
  },
  not_found: { status: 404, summary: 'No such resource.' },
  method_not_allowed: { status: 405, summary: 'The method is not allowed on this path.' },
  request_timeout: {
    status: 408,
    summary: 'The request did not arrive within the request timeout.',
  },
  account_import_in_progress: {
    status: 409,
    summary: 'Another request is creating this account right now.',
  },
  account_import_scheduled: {
    status: 409,
    summary:
      'The account is scheduled for creation (v2, PENDING or IN_PROGRESS): a v1 process waits for the schedule to end or be cancelled.',
  },
  request_too_large: { status: 413, summary: 'The body is larger than 1 MiB.' },
  unsupported_media_type: {
    status: 415,
    summary: 'The body must be application/json, in UTF-8 and uncompressed.',
  },
  request_header_fields_too_large: {
    status: 431,
    summary: 'The request headers are larger than the server accepts.',
  },
  too_many_accounts_in_progress: {
    status: 429,
    summary: 'The concurrency limit is reached; retry after Retry-After seconds.',
  },
  too_many_requests: {
    status: 429,
    summary: "Too many requests from this client, or from the caller's organisation at once.",
  },
  internal_error: { status: 500, summary: 'An unexpected error; no internals are disclosed.' },
  service_unavailable: {
    status: 503,
    summary: 'The database is unreachable or the service is shutting down.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * The codes of the token endpoint's GraphQL errors (`errors[].extensions.code`), sent with
 * HTTP 200 beside `data`: the request was a valid GraphQL request, and its mutation refused.
 */
export const TOKEN_ERROR_CODES = {
  invalid_api_key: 'The API key is unknown, malformed or was replaced by a rotation.',
  invalid_refresh_token:
    'The refresh token is unknown or was already used (which also ends every token of its sign-in).',
  refresh_token_expired: 'The refresh token has expired; sign in again with the API key.',
  organisation_disabled: 'The organisation is disabled.',
  invalid_input:
    'Not exactly one of apiKey and refreshToken; also, with 400, a document selecting obtainToken twice or asking for too much.',
  internal_error: 'An unexpected error; no internals are disclosed.',
  service_unavailable: 'The database is unreachable; retry shortly.',
} as const;

export interface FieldError {
  detail: string;
  code: string;
  attr: string | null;
}

export interface ErrorBody {
  detail: string;
  code: ErrorCode;
  errors: FieldError[];
  [extra: string]: unknown;
}

type Catalogue = typeof ERROR_CATALOGUE;

/** The codes whose status differs on some endpoint (the entry's `statusOn`). */
type CodeWithEndpoints = {
  [C in ErrorCode]: Catalogue[C] extends { statusOn: object } ? C : never;
}[ErrorCode];

/** The code, and for a code whose status depends on the endpoint, the endpoint by its name. */
type CodeOptions =
  | { code: Exclude<ErrorCode, CodeWithEndpoints>; endpoint?: never }
  | {
      [C in CodeWithEndpoints]: { code: C; endpoint?: keyof Catalogue[C]['statusOn'] };
    }[CodeWithEndpoints];

export type ServiceErrorOptions = CodeOptions & {
  /** What went wrong, for a person; the catalogue's summary by default. */
  detail?: string;
  /** The field errors; by default one item repeating the top-level code. */
  errors?: FieldError[];
  /** Fields the body carries besides detail, code and errors (service_account_number…). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** The HTTP status of a code, on the named endpoint if its catalogue entry sets one there. */
function statusOf({ code, endpoint }: CodeOptions): number {
  const entry: { status: number; statusOn?: Record<string, number> } = ERROR_CATALOGUE[code];
  return (endpoint === undefined ? undefined : entry.statusOn?.[endpoint]) ?? entry.status;
}

/** An error the client is told about, with a catalogue code and the one error body (docs/interface.md). */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[];
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(options: ServiceErrorOptions) {
    super(options.detail ?? ERROR_CATALOGUE[options.code].summary);
    this.code = options.code;
    this.status = statusOf(options);
    this.errors = options.errors ?? [];
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  get body(): ErrorBody {
    return {
      ...this.extra,
      detail: this.message,
      code: this.code,
      errors:
        this.errors.length > 0
          ? this.errors
          : [{ detail: this.message, code: this.code, attr: null }],
    };
  }
}

/** A 400 account_failed_validation carrying every field error of the payload. */
export function validationFailed(
  errors: FieldError[],
  /** What failed: the account payload, or a process request's own fields. */
  subject: 'account' | 'request' = 'account',
): ServiceError {
  // A list cut at the cap ends with too_many_errors (payload/validators.ts): more were found.
  const cut = errors[errors.length - 1]?.code === 'too_many_errors';
  const count = cut
    ? `more than ${errors.length - 1} errors`
    : errors.length === 1
      ? '1 error'
      : `${errors.length} errors`;
  // The first error named in the detail too: a status's last_attempt and a loader's summary
  // keep the detail alone.
  const first = errors[0];
  const at = first?.attr == null ? '' : ` at ${first.attr}`;
  const lead =
    first === undefined ? '' : ` (${errors.length === 1 ? '' : 'the first: '}${first.code}${at})`;
  return new ServiceError({
    code: 'account_failed_validation',
    detail: `The ${subject} failed validation with ${count}${lead}.`,
    errors,
  });
}

/** The refusal of a supplier code that names no supplier the caller may use (404). */
export const supplierNotFound = (code: string): ServiceError =>
  new ServiceError({
    code: 'import_supplier_not_found',
    detail: `No import supplier ${code} is available to you.`,
  });

/** The body for a status code that has no domain meaning (framework-level failures). */
export function errorForStatus(status: number): ServiceError {
  switch (status) {
    case 404:
      return new ServiceError({ code: 'not_found' });
    case 405:
      return new ServiceError({ code: 'method_not_allowed' });
    case 413:
      return new ServiceError({ code: 'request_too_large' });
    case 415:
      return new ServiceError({ code: 'unsupported_media_type' });
    case 429:
      return new ServiceError({ code: 'too_many_requests' });
    case 503:
      return new ServiceError({ code: 'service_unavailable' });
    default:
      return status >= 400 && status < 500
        ? new ServiceError({ code: 'malformed_request' })
        : new ServiceError({ code: 'internal_error' });
  }
}
