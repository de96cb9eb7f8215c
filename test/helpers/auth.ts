/**
 * Auth factories and the shared security cases every protected route runs (Unkey's
 * runCommonRouteTests): organisations with API keys, tokens, and the standard 401 checks.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Updateable } from 'kysely';
import { expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/api-keys.js';
import { ensureTokenSecret } from '../../src/auth/secret.js';
import { signAccessToken } from '../../src/auth/tokens.js';
import { loadConfig } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db, OrganisationsTable } from '../../src/db/database.js';
import { livePlatformOf } from './platform.js';

/** Inserts an enabled organisation granted these suppliers (created as Ongoing when missing). */
export async function createOrganisation(
  db: Db,
  name: string,
  supplierCodes: string[],
): Promise<{ id: number; apiKey: string }> {
  const { apiKey, keyId, keyHash } = generateApiKey();
  const now = Date.now();
  const { id } = await db.kysely
    .insertInto('organisations')
    .values({ name, enabled: 1, key_id: keyId, key_hash: keyHash, key_version: 1, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const code of supplierCodes) {
    const existing = await db.kysely
      .selectFrom('import_suppliers')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirst();
    const supplierId = existing?.id ?? (await insertOngoingSupplier(db, code, now));
    await db.kysely
      .insertInto('organisation_suppliers')
      .values({ organisation_id: id, supplier_id: supplierId })
      .execute();
  }
  return { id, apiKey };
}

/** Inserts an Ongoing supplier (region GB, no document root, no e-mails); returns its id. */
export async function insertOngoingSupplier(db: Db, code: string, now: number): Promise<number> {
  const { id } = await db.kysely
    .insertInto('import_suppliers')
    .values({
      code,
      status: 'Ongoing',
      document_root: '',
      customer_emails: 0,
      phone_region: 'GB',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Changes an organisation directly, as an operator's CLI command would (disable, rotate). */
export async function changeOrganisation(
  db: Db,
  id: number,
  changes: Updateable<OrganisationsTable>,
): Promise<void> {
  await db.kysely.updateTable('organisations').set(changes).where('id', '=', id).execute();
}

/** A name no other test in the same database uses. */
export function uniqueName(prefix = 'org'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export interface ObtainedToken {
  token: string;
  refreshToken: string;
  refreshExpiresIn: number;
  payload: Record<string, unknown>;
}

export const OBTAIN_TOKEN_MUTATION = `mutation ($input: ObtainTokenInput!) {
  obtainToken(input: $input) { token refreshToken refreshExpiresIn payload }
}`;

/** Runs the obtainToken mutation through the app; fails the test on any GraphQL error. */
export async function obtainToken(app: FastifyInstance, apiKey: string): Promise<ObtainedToken> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/graphql/',
    payload: { query: OBTAIN_TOKEN_MUTATION, variables: { input: { apiKey } } },
  });
  const body = response.json<{ data?: { obtainToken: ObtainedToken | null }; errors?: unknown }>();
  if (response.statusCode !== 200 || body.errors || !body.data?.obtainToken) {
    throw new Error(`obtainToken failed: ${response.statusCode} ${response.body}`);
  }
  return body.data.obtainToken;
}

/** The request a security case sends; built lazily, after the suite's beforeAll ran. */
export interface ProtectedRequest {
  app: FastifyInstance;
  /** The context the app was built with (its database and token secret). */
  ctx: AppContext;
  method: InjectOptions['method'];
  url: string;
  payload?: InjectOptions['payload'];
}

export interface SecurityCaseOptions {
  /**
   * For supplier-scoped routes: the response expected when an enabled organisation without a
   * grant for the route's supplier calls it, e.g. `{ status: 404, code: 'import_supplier_not_found' }`.
   */
  ungranted?: { status: number; code: string };
  /** The route reads a JSON body (which a revoked token's request may get to send). */
  readsBody?: boolean;
}

async function send(request: ProtectedRequest, authorization?: string) {
  return request.app.inject({
    method: request.method,
    url: request.url,
    payload: request.payload,
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** A token for a fresh organisation of its own, so the cases may disable or rotate it freely. */
async function tokenForFreshOrganisation(ctx: AppContext, ttlSeconds = 300, nowSeconds?: number) {
  const name = uniqueName('security');
  const { id } = await createOrganisation(ctx.db, name, []);
  const subject = { organisationId: id, organisationName: name, keyVersion: 1 };
  const { token } = await signAccessToken(ctx.tokenSecret, subject, ttlSeconds, nowSeconds);
  return { id, token };
}

function expectUnauthorized(
  response: Awaited<ReturnType<typeof send>>,
  code: 'not_authenticated' | 'invalid_token' | 'token_expired',
): void {
  expect(response.statusCode).toBe(401);
  expect(response.headers['www-authenticate']).toMatch(CHALLENGE);
  expect(response.json()).toMatchObject({ code, errors: [{ code, attr: null }] });
}

/** The challenge of a 401, whole: RFC 6750 allows no `"` or `\` in an error_description. */
const CHALLENGE =
  /^Token realm="account-import"(, error="invalid_token", error_description="[\x20\x21\x23-\x5b\x5d-\x7e]*")?$/;

/**
 * Registers the standard security tests of one protected route; call it inside the route's
 * describe block (where `app` and `ctx` are set in beforeAll), once per route:
 *
 *   securityCases(() => ({ app, ctx, method: 'POST', url: '/v1/data-import/validate/', payload }), {
 *     ungranted: { status: 400, code: 'account_failed_validation' },
 *   });
 */
export function securityCases(
  request: () => ProtectedRequest,
  options: SecurityCaseOptions = {},
): void {
  it('refuses a request without a token (401 not_authenticated)', async () => {
    expectUnauthorized(await send(request()), 'not_authenticated');
  });

  it('refuses a garbage token (401 invalid_token)', async () => {
    expectUnauthorized(await send(request(), 'Token not.a.jwt'), 'invalid_token');
  });

  it('refuses another authentication scheme (401 invalid_token)', async () => {
    expectUnauthorized(await send(request(), 'Basic Zm9vOmJhcg=='), 'invalid_token');
  });

  it('refuses an expired token (401 token_expired)', async () => {
    const { token } = await tokenForFreshOrganisation(
      request().ctx,
      60,
      Math.floor(Date.now() / 1000) - 3600,
    );
    expectUnauthorized(await send(request(), `Token ${token}`), 'token_expired');
  });

  it('refuses a token of a disabled organisation (401)', async () => {
    const { ctx } = request();
    const { id, token } = await tokenForFreshOrganisation(ctx);
    await changeOrganisation(ctx.db, id, { enabled: 0 });
    expectUnauthorized(await send(request(), `Token ${token}`), 'invalid_token');
  });

  it('refuses a token issued before a key rotation (401)', async () => {
    const { ctx } = request();
    const { id, token } = await tokenForFreshOrganisation(ctx);
    await changeOrganisation(ctx.db, id, { key_version: 2 });
    expectUnauthorized(await send(request(), `Token ${token}`), 'invalid_token');
  });

  if (options.readsBody) {
    // The body is read, and found bad, before any query has checked the organisation.
    it('refuses a revoked token with 401 even when its body cannot be parsed', async () => {
      const { ctx, app, method, url } = request();
      const { id, token } = await tokenForFreshOrganisation(ctx);
      await changeOrganisation(ctx.db, id, { enabled: 0 });
      const response = await app.inject({
        method,
        url,
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        payload: '{"import_supplier": ',
      });
      expectUnauthorized(response, 'invalid_token');
    });

    it.each([
      ['of another media type', { 'content-type': 'text/plain' }, 'x'],
      ['too large', { 'content-type': 'application/json' }, `"${'x'.repeat(1024 * 1024)}"`],
    ])('refuses a revoked token with 401 even when its body is %s', async (_what, type, body) => {
      const { ctx, app, method, url } = request();
      const { id, token } = await tokenForFreshOrganisation(ctx);
      await changeOrganisation(ctx.db, id, { enabled: 0 });
      const headers = { authorization: `Token ${token}`, ...type };
      const response = await app.inject({ method, url, headers, payload: body });
      expectUnauthorized(response, 'invalid_token');
    });
  }

  const { ungranted } = options;
  if (ungranted) {
    it(`answers ${ungranted.status} ${ungranted.code} to an organisation without a grant`, async () => {
      const { token } = await tokenForFreshOrganisation(request().ctx);
      const response = await send(request(), `Token ${token}`);
      expect(response.statusCode).toBe(ungranted.status);
      expect(response.json()).toMatchObject({ code: ungranted.code });
    });
  }
}

/** An AppContext over a test database; env is passed to loadConfig (TOKEN_RATE_LIMIT, …). */
export async function authTestContext(
  db: Db,
  env: Record<string, string | undefined> = {},
): Promise<AppContext> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const tokenSecret = await ensureTokenSecret(db, config.tokenSecret);
  return { config, db, tokenSecret, platform: await livePlatformOf(db) };
}
