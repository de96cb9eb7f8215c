/**
 * How the token endpoint reports failures. Refused credentials are GraphQL errors with
 * `extensions.code` and HTTP 200. Every 4xx/5xx (a document that does not parse or validate,
 * a body that is not a GraphQL request, the rate limit) is in the service error format, each
 * item also carrying GraphQL's `message` and `extensions.code`. Error messages are never
 * logged: a GraphQL coercion message quotes the submitted variables, and those hold API keys
 * and refresh tokens.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import mercurius, { type MercuriusContext, type MercuriusError } from 'mercurius';
import type { errorResponseBuilderContext } from '@fastify/rate-limit';
import { isDatabaseUnavailable } from '../db/availability.js';
import {
  ERROR_CATALOGUE,
  ServiceError,
  errorForStatus,
  type ErrorCode,
  type FieldError,
} from '../errors.js';
import { toServiceError } from '../http/errors.plugin.js';

const { ErrorWithProps } = mercurius;

/** A GraphQL error the client sees with `extensions.code`, over HTTP 200. */
export function graphqlError(code: string, message: string): Error {
  return new ErrorWithProps(message, { code });
}

function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const cause = error instanceof Error ? error : new Error(String(error));
  const extensions = (cause as { extensions?: Record<string, unknown> }).extensions;
  return new GraphQLError(cause.message, { originalError: cause, extensions });
}

/** Resolver failures that are not ours (a database outage) lose their message: no internals. */
function mask(error: GraphQLError, reply: FastifyReply): GraphQLError {
  const cause = error.originalError;
  if (error.path === undefined || !cause || cause instanceof ErrorWithProps) return error;
  const unavailable = isDatabaseUnavailable(cause);
  reply.log.error({ err: cause }, 'token endpoint resolver failed');
  return new GraphQLError(
    unavailable ? 'The database is unavailable; retry shortly.' : 'An unexpected error occurred.',
    {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: unavailable ? 'service_unavailable' : 'internal_error' },
    },
  );
}

type ErrorExecution = ExecutionResult & Required<Pick<ExecutionResult, 'errors'>>;

/** An error item both readers understand: the service's `detail`/`code`/`attr`, GraphQL's rest. */
type HybridItem = FieldError & { message: string; extensions: { code: string } };

/** The item of a failure of the request as a whole, in both formats. */
function requestItem(detail: string, code: string): HybridItem {
  return { detail, code, attr: null, message: detail, extensions: { code } };
}

/**
 * GraphQL's errors as items in both formats: the service's `detail`, `code` (the error's own
 * `extensions.code`, else `code`) and `attr`, beside GraphQL's `message`, `locations` and
 * `extensions.code`.
 */
function bothFormats(errors: GraphQLFormattedError[], code: string): HybridItem[] {
  return errors.map((error) => {
    const own = error.extensions?.code;
    const itemCode = typeof own === 'string' ? own : code;
    return { ...requestItem(error.message, itemCode), ...error, extensions: { code: itemCode } };
  });
}

/** The top-level code of a failure of the token endpoint with this status. */
const failureCode = (status: number): ErrorCode =>
  status === 400 ? 'invalid_graphql_request' : errorForStatus(status).code;

/**
 * Every 4xx/5xx body of the token endpoint in the service's error format (docs/interface.md, Errors: "every
 * 4xx/5xx body"): mercurius sends a GraphQL failure as `{data, errors}` alone, whatever the
 * formatter returns, so the top-level `detail` and `code` are added here (a preSerialization
 * hook). Bodies that have a `code` (a ServiceError's) are left as they are.
 */
export async function inErrorFormat(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const status = reply.statusCode;
  if (status < 400 || typeof payload !== 'object' || payload === null || 'code' in payload) {
    return payload;
  }
  const code = failureCode(status);
  const given = (payload as { errors?: unknown }).errors;
  const errors = Array.isArray(given) && given.length > 0 ? (given as HybridItem[]) : [];
  const first = errors[0] ?? requestItem(ERROR_CATALOGUE[code].summary, code);
  return { detail: first.detail, code, ...payload, errors: errors.length > 0 ? errors : [first] };
}

/** The status of a result that failed: see formatGraphqlErrors. */
function failureStatus(execution: ErrorExecution & { statusCode?: number }): number {
  if (execution.data) return 200;
  if (execution.statusCode !== undefined) return execution.statusCode;
  const [only, ...others] = execution.errors;
  const status = (only?.originalError as { statusCode?: unknown } | undefined)?.statusCode;
  if (others.length === 0 && typeof status === 'number') return status;
  // No data and no field failed: the request itself was refused (an unknown operation name, a
  // variable missing or of the wrong type), before anything ran.
  return execution.errors.every((error) => error.path === undefined) ? 400 : 200;
}

/**
 * Mercurius' default formatter, minus its logging of every error message, plus masking. A
 * result with data answers 200 with GraphQL's `{data, errors}`: a refused obtainToken. A
 * request refused before anything ran answers 400 (500 for a failure of the service) in the
 * service's error format (inErrorFormat). A document that fails validation arrives as one error
 * holding the validation errors; each becomes an item.
 */
export function formatGraphqlErrors(
  execution: ErrorExecution & { statusCode?: number },
  context: MercuriusContext,
): { statusCode: number; response: FormattedExecutionResult } {
  const errors = execution.errors
    .flatMap((error) => {
      const nested = (error.originalError as MercuriusError | undefined)?.errors;
      return Array.isArray(nested) ? nested.map(toGraphQLError) : [error];
    })
    .map((error) => mask(error, context.reply).toJSON());
  const statusCode = failureStatus(execution);
  if (statusCode < 400) return { statusCode, response: { data: execution.data ?? null, errors } };
  return {
    statusCode,
    response: { data: null, errors: bothFormats(errors, failureCode(statusCode)) },
  };
}

/**
 * Errors thrown around the resolvers (hooks, parsing, validation). A GraphQL document's
 * errors go through formatGraphqlErrors; every other refusal (the rate limit, a body that is
 * not a GraphQL request, a wrong media type or method, a body too large) is a ServiceError in
 * the service's format, its items readable by GraphQL clients too. Anything else is the
 * service's fault: logged, and answered 500 internal_error without its message.
 */
export async function handleGraphqlRouteError(
  error: MercuriusError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (!(error instanceof ServiceError) && (error instanceof GraphQLError || error.errors)) {
    const context = { app: request.server, reply } as MercuriusContext;
    const { statusCode, response } = formatGraphqlErrors(
      { errors: [toGraphQLError(error)] },
      context,
    );
    await reply.code(statusCode).send(response);
    return;
  }
  const refusal = toServiceError(error);
  if (refusal.status >= 500) request.log.error({ err: error }, 'token endpoint request failed');
  const body = refusal.body;
  await reply
    .code(refusal.status)
    .headers(refusal.headers)
    .send({ ...body, errors: body.errors.map((item) => requestItem(item.detail, item.code)) });
}

/**
 * The 429 of the token endpoint. Its error item also carries `message` and `extensions.code`,
 * so a GraphQL client reading `errors[0].extensions.code` sees `too_many_requests` as well.
 */
export function rateLimitError(_request: FastifyRequest, limit: errorResponseBuilderContext) {
  const retryAfter = Math.max(1, Math.ceil(limit.ttl / 1000));
  const detail = `Too many token requests; retry in ${retryAfter} seconds.`;
  return new ServiceError({
    code: 'too_many_requests',
    detail,
    errors: [requestItem(detail, 'too_many_requests')],
    headers: {
      'Retry-After': String(retryAfter),
    },
  });
}

/** graphql-js' suggestion of names, e.g. ` Did you mean "apiKey"?` or `Did you mean "a" or "b"?`. */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

const unsuggested = (text: unknown) =>
  typeof text === 'string' ? text.replace(SUGGESTION, '') : text;

/**
 * A preSerialization hook for production: no error message of the endpoint suggests names
 * that exist, as introspection is closed there too. Validation is told not to suggest; this
 * also covers graphql-js' coercion of variables, which has no such option in its executor.
 */
export async function withoutSuggestions(
  _request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (typeof payload !== 'object' || payload === null) return payload;
  const { detail, errors } = payload as { detail?: unknown; errors?: unknown };
  if (!Array.isArray(errors)) return payload;
  return {
    ...payload,
    ...(detail === undefined ? {} : { detail: unsuggested(detail) }),
    errors: errors.map((item: unknown) => {
      if (typeof item !== 'object' || item === null) return item;
      const { message, detail: itemDetail } = item as { message?: unknown; detail?: unknown };
      return {
        ...item,
        ...(message === undefined ? {} : { message: unsuggested(message) }),
        ...(itemDetail === undefined ? {} : { detail: unsuggested(itemDetail) }),
      };
    }),
  };
}
