/**
 * Renders every failure in the one error format (docs/interface.md, Errors): domain errors, framework errors
 * (bad JSON, wrong content type, body too large, unknown route) and unexpected ones, whose
 * internals are logged but never sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, errorForStatus } from '../errors.js';
import { isDatabaseUnavailable } from '../db/availability.js';
import { nulCharacterRefused } from './json-body.js';

/** Maps any thrown value to the ServiceError the client sees. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode;
  // Client errors first: a client hanging up mid-body is a 400 whose code is ECONNRESET, which
  // must not be mistaken for a lost database connection (a 503 logged as an error).
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return new ServiceError({
        code: 'unsupported_media_type',
        detail: 'Send the body as application/json.',
      });
    }
    if (status === 400) {
      return new ServiceError({ code: 'malformed_request', detail: 'The body is not valid JSON.' });
    }
    return errorForStatus(status);
  }
  if (isDatabaseUnavailable(error)) {
    return new ServiceError({
      code: 'service_unavailable',
      detail: 'The database is unavailable; retry shortly.',
      headers: {
        'Retry-After': '1',
      },
    });
  }
  // PostgreSQL refuses U+0000 in text (SQLSTATE 22021) wherever it still reaches a query,
  // e.g. inside a forged list cursor: the request's fault, not the service's.
  if ((error as { code?: unknown }).code === '22021') return nulCharacterRefused(null);
  return new ServiceError({ code: 'internal_error', detail: 'An unexpected error occurred.' });
}

function send(reply: FastifyReply, error: ServiceError): FastifyReply {
  return reply.code(error.status).headers(error.headers).send(error.body);
}

/**
 * Fastify's `frameworkErrors`: URLs the router refuses before any route or hook runs (a bad
 * percent-encoding, a path segment over maxParamLength) get the one error format too, rather
 * than Fastify's own body echoing the path.
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const detail =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path segment of the URL is too long.'
      : 'The URL is not valid (bad percent-encoding).';
  request.log.info({ code: error.code }, 'request refused');
  reply.header('X-Request-Id', request.id);
  return send(reply, new ServiceError({ code: 'malformed_request', detail }));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const serviceError = toServiceError(error);
    if (serviceError.status >= 500) {
      request.log.error({ err: error }, 'request failed');
    } else if (error instanceof ServiceError) {
      // The codes only: a refusal's details may quote the payload.
      const errors = error.errors.map(({ code, attr }) => ({ code, attr }));
      request.log.info({ code: error.code, errors }, 'request refused');
    } else {
      request.log.info(
        { code: serviceError.code, reason: (error as Error).message },
        'request refused',
      );
    }
    return send(reply, serviceError);
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length > 0) {
      const detail = `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}.`;
      reply.header('Allow', allowed.join(', '));
      return send(reply, new ServiceError({ code: 'method_not_allowed', detail }));
    }
    return send(
      reply,
      new ServiceError({ code: 'not_found', detail: `No route for ${request.method} ${path}.` }),
    );
  });
}

/** The methods a path may have routes for, in the order an `Allow` header names them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
