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
import { nulCharacterRefused, registerJsonBodies } from './http/json-body.js';
import { registerOpsRoutes } from './ops/ops.routes.js';
import { registerImportRoutes } from './imports/imports.routes.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

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
    // A caller-supplied X-Request-Id is kept when it is sane, so requests can be traced across services.
    requestIdHeader: 'x-request-id',
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming)
        ? incoming
        : randomUUID();
    },
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
  });

  trackHandlers(app, ['/v1/data-import', '/v1/graphql']);
  registerErrorHandling(app);
  registerJsonBodies(app);
  await registerDocs(app);
  await registerOpsRoutes(app, ctx);
  await registerTokenGraphql(app, ctx);
  await registerImportRoutes(app, ctx);
  return app;
}
