/** Builds the Fastify application (plugins and routes). It never listens: server.ts does. */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppContext } from './context.js';
import { ServiceError } from './errors.js';
import { registerTokenGraphql } from './auth/graphql.js';
import { registerDocs } from './http/docs.plugin.js';
import { handleFrameworkError, registerErrorHandling } from './http/errors.plugin.js';
import { handleClientError } from './http/client-errors.js';
import { trackHandlers } from './http/inflight.js';
import { OrganisationShares, shareRequests } from './http/organisation-shares.js';
import { FairPace, paceOrganisations } from './http/fair-pace.js';
import { nulCharacterRefused, registerJsonBodies } from './http/json-body.js';
import { registerOpsRoutes } from './ops/ops.routes.js';
import { registerImportRoutes } from './imports/imports.routes.js';
import { wireImports } from './imports/imports.wiring.js';
import { registerPostImportRoutes } from './post-import/post-import.routes.js';
import { registerScheduleRoutes } from './schedules/schedules.routes.js';
import { registerEventRoutes } from './events/events.routes.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The X-Request-Id a caller may choose (README, "Request ids"): up to 128 letters, digits, `.`,
 * `_` and `-`. Anything else (too long, quotes, commas, a header given twice) is replaced by a
 * generated id, so a hostile id never reaches a log line or a response as it came. An id that
 * matches is kept even when another request used it: ids are for tracing, not for identity.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when it matches REQUEST_ID_PATTERN, else a new one. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
    ? incoming
    : randomUUID();
}

/** How many times the raw request carries the header `name` (lower case). */
function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === name) count++;
  }
  return count;
}

export interface BuildAppOptions {
  /** A pino logger configuration, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(
  ctx: AppContext,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: ctx.config.requestTimeoutMs,
    connectionTimeout: ctx.config.requestTimeoutMs,
    // Node 20 only honours these when given to the server's constructor (Fastify sets
    // requestTimeout afterwards, which lets a client trickling its body live on), and checks
    // them every connectionsCheckingInterval (30 s by default) rather than to the millisecond.
    http: {
      requestTimeout: ctx.config.requestTimeoutMs,
      headersTimeout: Math.min(ctx.config.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(1_000, ctx.config.requestTimeoutMs),
    },
    keepAliveTimeout: 5_000,
    // A caller-supplied X-Request-Id is kept when it is sane, so requests can be traced across
    // services. Fastify would take the header as it came, without calling genReqId, if it
    // were named here; so it is not, and genReqId reads it.
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers['x-request-id']),
    // Requests arriving while closing get our own 503 body (hook below), not Fastify's.
    return503OnClosing: false,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  });

  // Bodies are checked by the payload module, which reports every problem with its own codes;
  // route schemas exist to describe the interface (OpenAPI) and to serialise responses fast.
  app.setValidatorCompiler(() => (data) => ({ value: data }));

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (closing) {
      reply.header('Connection', 'close');
      throw new ServiceError({
        code: 'service_unavailable',
        detail: 'The service is shutting down; retry shortly.',
        headers: {
          'Retry-After': '1',
        },
      });
    }
    // A path segment or query value decoding to U+0000 (see nulCharacterRefused).
    if (request.url.includes('%00')) throw nulCharacterRefused(null);
    // Node keeps the first of two Authorization headers; a proxy keeping the last would
    // authenticate another caller than the service does, so neither is chosen.
    if (headerCount(request.raw.rawHeaders, 'authorization') > 1) {
      throw new ServiceError({
        code: 'malformed_request',
        detail: 'The request has more than one Authorization header; send exactly one.',
      });
    }
  });
  const requests = new OrganisationShares<string>(
    ctx.config.organisationRequestsInFlight,
    'requests',
  );
  shareRequests(app, requests);
  const pace = new FairPace(requests);
  paceOrganisations(app, pace);

  trackHandlers(app, ['/v1/data-import', '/v2/data-import', '/v1/graphql']);
  registerErrorHandling(app);
  registerJsonBodies(app);
  await registerDocs(app);
  await registerOpsRoutes(app, ctx);
  await registerTokenGraphql(app, ctx);
  const imports = wireImports(app, ctx, pace);
  await registerImportRoutes(app, ctx, imports);
  await registerScheduleRoutes(app, ctx, imports);
  await registerPostImportRoutes(app, ctx);
  await registerEventRoutes(app, ctx);
  return app;
}
