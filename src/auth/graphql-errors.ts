/**
 * How the token endpoint reports failures. Refused credentials are GraphQL errors with
 * `extensions.code` and HTTP 200; the rate limit is a 429 in the service error format. Error
 * messages are never logged: a GraphQL coercion message quotes the submitted variables, and
 * those hold API keys and refresh tokens.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import mercurius, { type MercuriusContext, type MercuriusError } from 'mercurius';
import type { errorResponseBuilderContext } from '@fastify/rate-limit';
import { isDatabaseUnavailable } from '../db/availability.js';
import { ServiceError, type FieldError } from '../errors.js';

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

/**
 * Mercurius' default formatter, minus its logging of every error message, plus masking. The
 * status rules match the default: 200 when there is data, else the single error's status. A
 * document that fails validation arrives as one error holding the validation errors: the
 * default counted those, so one validation error gave 400 and two gave 200; here both give
 * the 400 of the error that holds them.
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

  let statusCode = execution.data ? 200 : (execution.statusCode ?? 200);
  const [only, ...others] = execution.errors;
  if (!execution.data && execution.statusCode === undefined && only && others.length === 0) {
    const status = (only.originalError as { statusCode?: unknown } | undefined)?.statusCode;
    statusCode = typeof status === 'number' ? status : 200;
  }
  return { statusCode, response: { data: execution.data ?? null, errors } };
}

/**
 * Errors thrown around the resolvers (hooks, parsing, validation). ServiceError (the rate
 * limit) keeps the service format and its headers; the rest are GraphQL errors.
 */
export async function handleGraphqlRouteError(
  error: MercuriusError,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (error instanceof ServiceError) {
    await reply.code(error.status).headers(error.headers).send(error.body);
    return;
  }
  const context = { app: request.server, reply } as MercuriusContext;
  const { statusCode, response } = formatGraphqlErrors(
    { errors: [toGraphQLError(error)] },
    context,
  );
  await reply.code(statusCode).send(response);
}

/**
 * The 429 of the token endpoint. Its error item also carries `message` and `extensions.code`,
 * so a GraphQL client reading `errors[0].extensions.code` sees `too_many_requests` as well.
 */
export function rateLimitError(_request: FastifyRequest, limit: errorResponseBuilderContext) {
  const retryAfter = Math.max(1, Math.ceil(limit.ttl / 1000));
  const detail = `Too many token requests; retry in ${retryAfter} seconds.`;
  const item: FieldError & { message: string; extensions: { code: string } } = {
    detail,
    code: 'too_many_requests',
    attr: null,
    message: detail,
    extensions: { code: 'too_many_requests' },
  };
  return new ServiceError(
    'too_many_requests',
    detail,
    [item],
    {},
    {
      'Retry-After': String(retryAfter),
    },
  );
}
