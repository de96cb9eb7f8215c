/** A minimal app for the auth tests: the token endpoint and one protected route. */
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  authenticate,
  confirmCaller,
  confirmSupplierAccess,
  refuseConfirmed,
} from '../../src/auth/access.js';
import { registerTokenGraphql } from '../../src/auth/graphql.js';
import type { AppContext } from '../../src/context.js';
import { ServiceError } from '../../src/errors.js';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db, Dialect } from '../../src/db/database.js';
import { openTestDb } from '../helpers/databases.js';
import { OBTAIN_TOKEN_MUTATION, authTestContext, type ObtainedToken } from '../helpers/auth.js';

export const WHOAMI_URL = '/v1/whoami/';
/** Refuses its request (400) before any query, once the caller is confirmed. */
export const REFUSING_URL = '/v1/refusing/';

/** logStream, when given, receives every log line at trace level (to check what is logged). */
export async function buildAuthApp(
  ctx: AppContext,
  logStream?: Writable,
): Promise<FastifyInstance> {
  const app = Fastify({
    routerOptions: { ignoreTrailingSlash: true },
    logger: logStream ? { level: 'trace', stream: logStream } : false,
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof ServiceError) {
      return reply.code(error.status).headers(error.headers).send(error.body);
    }
    return reply.code(500).send({ detail: 'internal error', code: 'internal_error', errors: [] });
  });
  await registerTokenGraphql(app, ctx);
  const access = authenticate(ctx);
  app.get<{ Params: { code: string } }>('/v1/whoami/:code/', { ...access }, async (request) => {
    const { supplier } = await confirmSupplierAccess(ctx.db, request.caller, request.params.code);
    return { code: request.params.code, granted: supplier !== undefined };
  });
  app.get(WHOAMI_URL, { ...access }, async (request) => {
    const { organisationId, organisationName } = await confirmCaller(ctx.db, request.caller);
    return { organisationId, organisationName };
  });
  app.get(REFUSING_URL, { ...access }, async (request) =>
    refuseConfirmed(
      ctx.db,
      request.caller,
      new ServiceError({ code: 'malformed_request', detail: 'Refused before any query.' }),
    ),
  );
  await app.ready();
  return app;
}

export interface GraphqlBody {
  data?: { obtainToken: ObtainedToken | null } | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Sends obtainToken with this input; returns the raw response and its parsed body. */
export async function requestToken(
  app: FastifyInstance,
  input: Record<string, unknown>,
  url = '/v1/graphql/',
) {
  const response = await app.inject({
    method: 'POST',
    url,
    payload: { query: OBTAIN_TOKEN_MUTATION, variables: { input } },
  });
  return { response, body: response.json<GraphqlBody>() };
}

/** The extensions.code of the single GraphQL error of a refused token request. */
export async function refusalCode(
  app: FastifyInstance,
  input: Record<string, unknown>,
): Promise<string | undefined> {
  const { response, body } = await requestToken(app, input);
  expect(response.statusCode).toBe(200);
  expect(body.data?.obtainToken ?? null).toBeNull();
  expect(body.errors).toHaveLength(1);
  return body.errors?.[0]?.extensions?.code;
}

export interface AuthFixture {
  db: Db;
  ctx: AppContext;
  app: FastifyInstance;
}

/**
 * The enclosing suite's database and auth app, opened before its first test and closed after
 * its last; filled in place, like useTestService.
 */
export function useAuthApp(dialect: Dialect, env: Record<string, string> = {}): AuthFixture {
  const fixture = {} as AuthFixture;
  let destroy: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const opened = await openTestDb(dialect);
    destroy = opened.destroy;
    const ctx = await authTestContext(opened.db, env);
    Object.assign(fixture, { db: opened.db, ctx, app: await buildAuthApp(ctx) });
  });
  afterAll(async () => {
    await fixture.app?.close();
    await destroy();
  });
  return fixture;
}
