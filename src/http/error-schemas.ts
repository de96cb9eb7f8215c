/**
 * Schema pieces shared by the routes of every feature: the token a protected route asks for,
 * the one error body and the headers some statuses always carry.
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';

/** A protected route's security requirement: the `token` scheme of the OpenAPI document. */
export const TOKEN_SECURITY = [{ token: [] }];

/** One field error, as the error body lists them (and a transaction's result carries one). */
export const fieldError = {
  type: 'object',
  properties: {
    detail: { type: 'string' },
    code: { type: 'string' },
    attr: { type: ['string', 'null'] },
  },
  required: ['detail', 'code', 'attr'],
} as const;

/** The one error body (docs/interface.md, Errors); some codes add fields (e.g. service_account_number). */
export const errorBody = {
  type: 'object',
  properties: {
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    errors: { type: 'array', items: fieldError },
    external_account_number: { type: 'string' },
    service_account_number: { type: 'string' },
    import_supplier: { type: 'string' },
    reference: { type: 'string' },
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

/** The codes of the catalogue whose usual status is `status` (not an endpoint's own). */
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
