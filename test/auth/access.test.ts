import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { confirmSupplierAccess, type Caller, type ConfirmedCaller } from '../../src/auth/access.js';
import type { AppContext } from '../../src/context.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import {
  changeOrganisation,
  authTestContext,
  createOrganisation,
  obtainToken,
  securityCases,
  uniqueName,
} from '../helpers/auth.js';
import { REFUSING_URL, WHOAMI_URL, buildAuthApp } from './auth-app.js';

await describeEachDialect('REST access', (dialect) => {
  let ctx: AppContext;
  let app: FastifyInstance;
  let destroy: () => Promise<void>;

  beforeAll(async () => {
    const test = await openTestDb(dialect);
    destroy = test.destroy;
    ctx = await authTestContext(test.db);
    app = await buildAuthApp(ctx);
  });
  afterAll(async () => {
    await app.close();
    await destroy();
  });

  describe('GET /v1/whoami/', () => {
    securityCases(() => ({ app, ctx, method: 'GET', url: WHOAMI_URL }));
  });

  it.each([
    ['Token', (token: string) => `Token ${token}`],
    ['Bearer', (token: string) => `Bearer ${token}`],
    ['JWT', (token: string) => `JWT ${token}`],
    ['bare', (token: string) => token],
    ['lower-case scheme', (token: string) => `token ${token}`],
  ])('accepts the %s form of the Authorization header', async (_form, header) => {
    const name = uniqueName();
    const { id, apiKey } = await createOrganisation(ctx.db, name, []);
    const { token } = await obtainToken(app, apiKey);
    const response = await app.inject({
      method: 'GET',
      url: WHOAMI_URL,
      headers: { authorization: header(token) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ organisationId: id, organisationName: name });
  });

  it('refuses an unknown scheme and extra words as invalid_token', async () => {
    const { apiKey } = await createOrganisation(ctx.db, uniqueName(), []);
    const { token } = await obtainToken(app, apiKey);
    for (const authorization of [`Basic ${token}`, `Token ${token} extra`, 'Tokens']) {
      const response = await app.inject({
        method: 'GET',
        url: WHOAMI_URL,
        headers: { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json()).toMatchObject({ code: 'invalid_token' });
    }
  });

  it('takes a scheme with no token after it for no credentials', async () => {
    for (const authorization of ['Token', 'Token   ', 'bearer', 'JWT ']) {
      const response = await app.inject({
        method: 'GET',
        url: WHOAMI_URL,
        headers: { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toBeDefined();
      expect(response.json()).toMatchObject({ code: 'not_authenticated' });
    }
  });

  it('tells a caller who sends its API key where the token belongs', async () => {
    const { apiKey } = await createOrganisation(ctx.db, uniqueName(), []);
    for (const authorization of [`Token ${apiKey}`, apiKey]) {
      const response = await app.inject({
        method: 'GET',
        url: WHOAMI_URL,
        headers: { authorization },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        code: 'invalid_token',
        detail:
          'This is an API key, not a token: exchange it for a token with the obtainToken ' +
          'mutation at /v1/graphql/, and send that token.',
      });
    }
  });

  it('stops a disabled organisation at once, for tokens already issued', async () => {
    const { id, apiKey } = await createOrganisation(ctx.db, uniqueName(), []);
    const { token } = await obtainToken(app, apiKey);
    const headers = { authorization: `Token ${token}` };
    expect((await app.inject({ method: 'GET', url: WHOAMI_URL, headers })).statusCode).toBe(200);
    await changeOrganisation(ctx.db, id, { enabled: 0 });
    const refused = await app.inject({ method: 'GET', url: WHOAMI_URL, headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(refused.json().detail).toBe(
      'The token has been revoked: its organisation was disabled or its API key was replaced.',
    );
  });

  it('works with typed route params', async () => {
    const { apiKey } = await createOrganisation(ctx.db, uniqueName(), []);
    const { token } = await obtainToken(app, apiKey);
    const response = await app.inject({
      method: 'GET',
      url: '/v1/whoami/SUP1/',
      headers: { authorization: `Token ${token}` },
    });
    expect(response.json()).toMatchObject({ code: 'SUP1' });
  });

  describe('confirmSupplierAccess', () => {
    const callerOf = (organisationId: number, keyVersion = 1): Caller => ({
      organisationId,
      organisationName: 'as the token says',
      keyVersion,
      bodyBytes: 0,
    });

    it('returns a granted supplier, hides the others, and confirms the caller', async () => {
      const granted = uniqueName('SUP');
      const other = uniqueName('SUP');
      const { id } = await createOrganisation(ctx.db, uniqueName(), [granted]);
      await createOrganisation(ctx.db, uniqueName(), [other]);
      const access = await confirmSupplierAccess(ctx.db, callerOf(id), granted);
      expect(access.supplier).toMatchObject({ code: granted, status: 'Ongoing' });
      expect(access.caller).toMatchObject({ organisationId: id, keyVersion: 1 });
      const supplierOf = async (code: string) =>
        (await confirmSupplierAccess(ctx.db, callerOf(id), code)).supplier;
      expect(await supplierOf(other)).toBeUndefined();
      expect(await supplierOf('NO-SUCH-SUPPLIER')).toBeUndefined();
    });

    it('throws 401 for a disabled organisation or an older key version, granted or not', async () => {
      const code = uniqueName('SUP');
      const { id } = await createOrganisation(ctx.db, uniqueName(), [code]);
      await expect(confirmSupplierAccess(ctx.db, callerOf(id, 0), code)).rejects.toMatchObject({
        status: 401,
        code: 'invalid_token',
      });
      await changeOrganisation(ctx.db, id, { enabled: 0 });
      for (const supplier of [code, 'NO-SUCH-SUPPLIER', undefined]) {
        await expect(confirmSupplierAccess(ctx.db, callerOf(id), supplier)).rejects.toMatchObject({
          status: 401,
        });
      }
    });

    it('is the only way to a confirmed caller: a verified token is not one', () => {
      // Checked by the compiler (npm run typecheck): services take a ConfirmedCaller.
      expectTypeOf<Caller>().not.toMatchTypeOf<ConfirmedCaller>();
      expectTypeOf<ConfirmedCaller>().toMatchTypeOf<Caller>();
    });
  });

  describe('answers refused before the organisation was checked', () => {
    it('keeps a refusal for an active organisation and turns it into 401 for a revoked one', async () => {
      const { id, apiKey } = await createOrganisation(ctx.db, uniqueName(), []);
      const { token } = await obtainToken(app, apiKey);
      const headers = { authorization: `Token ${token}` };
      const refused = await app.inject({ method: 'GET', url: REFUSING_URL, headers });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'malformed_request' });
      await changeOrganisation(ctx.db, id, { key_version: 2 });
      const revoked = await app.inject({ method: 'GET', url: REFUSING_URL, headers });
      expect(revoked.statusCode).toBe(401);
      expect(revoked.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(revoked.headers['content-type']).toMatch(/^application\/json/);
      expect(revoked.json()).toMatchObject({
        code: 'invalid_token',
        errors: [{ code: 'invalid_token', attr: null }],
      });
    });
  });
});
