import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGrantedSupplier } from '../../src/auth/access.js';
import type { AppContext } from '../../src/context.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import {
  authTestContext,
  createOrganisation,
  obtainToken,
  securityCases,
  uniqueName,
} from '../helpers/auth.js';
import { WHOAMI_URL, buildAuthApp } from './auth-app.js';

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
    for (const authorization of [`Basic ${token}`, `Token ${token} extra`, 'Token']) {
      const response = await app.inject({
        method: 'GET',
        url: WHOAMI_URL,
        headers: { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json()).toMatchObject({ code: 'invalid_token' });
    }
  });

  it('stops a disabled organisation at once, for tokens already issued', async () => {
    const { id, apiKey } = await createOrganisation(ctx.db, uniqueName(), []);
    const { token } = await obtainToken(app, apiKey);
    const headers = { authorization: `Token ${token}` };
    expect((await app.inject({ method: 'GET', url: WHOAMI_URL, headers })).statusCode).toBe(200);
    await ctx.db.kysely
      .updateTable('organisations')
      .set({ enabled: 0 })
      .where('id', '=', id)
      .execute();
    const refused = await app.inject({ method: 'GET', url: WHOAMI_URL, headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
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

  describe('findGrantedSupplier', () => {
    it('returns a granted supplier and hides the others', async () => {
      const granted = uniqueName('SUP');
      const other = uniqueName('SUP');
      const { id } = await createOrganisation(ctx.db, uniqueName(), [granted]);
      await createOrganisation(ctx.db, uniqueName(), [other]);
      expect(await findGrantedSupplier(ctx.db, id, granted)).toMatchObject({
        code: granted,
        status: 'Ongoing',
      });
      expect(await findGrantedSupplier(ctx.db, id, other)).toBeUndefined();
      expect(await findGrantedSupplier(ctx.db, id, 'NO-SUCH-SUPPLIER')).toBeUndefined();
    });
  });
});
