import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import type { Db } from '../../src/db/database.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import {
  changeOrganisation,
  authTestContext,
  createOrganisation,
  obtainToken,
  uniqueName,
  type ObtainedToken,
} from '../helpers/auth.js';
import { WHOAMI_URL, buildAuthApp, refusalCode, requestToken } from './auth-app.js';

await describeEachDialect('obtainToken with a refresh token', (dialect) => {
  let db: Db;
  let ctx: AppContext;
  let app: FastifyInstance;
  let destroy: () => Promise<void>;

  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
    ctx = await authTestContext(db);
    app = await buildAuthApp(ctx);
  });
  afterAll(async () => {
    await app.close();
    await destroy();
  });

  async function refresh(refreshToken: string): Promise<ObtainedToken> {
    const { body } = await requestToken(app, { refreshToken });
    expect(body.errors).toBeUndefined();
    const pair = body.data?.obtainToken;
    if (!pair) throw new Error('no token pair');
    return pair;
  }

  async function familiesOf(organisationId: number): Promise<string[]> {
    const rows = await db.kysely
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('organisation_id', '=', organisationId)
      .execute();
    return [...new Set(rows.map((row) => row.family_id))];
  }

  it('rotates: a new pair in the same family, the presented token spent', async () => {
    const name = uniqueName();
    const { id, apiKey } = await createOrganisation(db, name, []);
    const first = await obtainToken(app, apiKey);
    const second = await refresh(first.refreshToken);

    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.token).not.toBe(first.token);
    expect(second.payload).toMatchObject({ sub: String(id), org: name, kv: 1 });
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs(second.refreshExpiresIn - (now + ctx.config.refreshTokenTtl))).toBeLessThan(5);
    expect(await familiesOf(id)).toHaveLength(1);
    const whoami = await app.inject({
      method: 'GET',
      url: WHOAMI_URL,
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(whoami.statusCode).toBe(200);
  });

  it('refuses a second use and revokes the whole family', async () => {
    const { apiKey } = await createOrganisation(db, uniqueName(), []);
    const first = await obtainToken(app, apiKey);
    const second = await refresh(first.refreshToken);

    expect(await refusalCode(app, { refreshToken: first.refreshToken })).toBe(
      'invalid_refresh_token',
    );
    // The legitimate holder's newer token dies with the family: one of the two was a thief.
    expect(await refusalCode(app, { refreshToken: second.refreshToken })).toBe(
      'invalid_refresh_token',
    );
  });

  it('leaves other families of the organisation alone', async () => {
    const { apiKey } = await createOrganisation(db, uniqueName(), []);
    const stolen = await obtainToken(app, apiKey);
    const elsewhere = await obtainToken(app, apiKey);
    await refresh(stolen.refreshToken);
    await refusalCode(app, { refreshToken: stolen.refreshToken });
    await refresh(elsewhere.refreshToken);
  });

  it('lets only one of two concurrent uses rotate', async () => {
    const { apiKey } = await createOrganisation(db, uniqueName(), []);
    const { refreshToken } = await obtainToken(app, apiKey);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => requestToken(app, { refreshToken })),
    );
    const issued = results.filter(({ body }) => body.data?.obtainToken);
    expect(issued).toHaveLength(1);
    for (const { body } of results.filter(({ body }) => !body.data?.obtainToken)) {
      expect(body.errors?.[0]?.extensions?.code).toBe('invalid_refresh_token');
    }
  });

  it('refuses unknown refresh tokens', async () => {
    expect(await refusalCode(app, { refreshToken: 'not-a-refresh-token' })).toBe(
      'invalid_refresh_token',
    );
  });

  it('reports an expired refresh token as refresh_token_expired', async () => {
    const { id, apiKey } = await createOrganisation(db, uniqueName(), []);
    const { refreshToken } = await obtainToken(app, apiKey);
    await db.kysely
      .updateTable('refresh_tokens')
      .set({ expires_at: Date.now() - 1000 })
      .where('organisation_id', '=', id)
      .execute();
    expect(await refusalCode(app, { refreshToken })).toBe('refresh_token_expired');
  });

  it('refuses a refresh token minted before a key rotation', async () => {
    const { id, apiKey } = await createOrganisation(db, uniqueName(), []);
    const { refreshToken } = await obtainToken(app, apiKey);
    await changeOrganisation(db, id, { key_version: 2 });
    expect(await refusalCode(app, { refreshToken })).toBe('invalid_refresh_token');
  });

  it('tells a disabled organisation so', async () => {
    const { id, apiKey } = await createOrganisation(db, uniqueName(), []);
    const { refreshToken } = await obtainToken(app, apiKey);
    await changeOrganisation(db, id, { enabled: 0 });
    expect(await refusalCode(app, { refreshToken })).toBe('organisation_disabled');
  });
});
