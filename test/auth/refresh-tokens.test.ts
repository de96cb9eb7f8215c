import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  uniqueName,
  type ObtainedToken,
} from '../helpers/auth.js';
import { WHOAMI_URL, refusalCode, requestToken, useAuthApp } from './auth-app.js';

await describeEachDialect('obtainToken with a refresh token', (dialect) => {
  const fixture = useAuthApp(dialect);

  async function refresh(refreshToken: string): Promise<ObtainedToken> {
    const { body } = await requestToken(fixture.app, { refreshToken });
    expect(body.errors).toBeUndefined();
    const pair = body.data?.obtainToken;
    if (!pair) throw new Error('no token pair');
    return pair;
  }

  async function familiesOf(organisationId: number): Promise<string[]> {
    const rows = await fixture.db.kysely
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('organisation_id', '=', organisationId)
      .execute();
    return [...new Set(rows.map((row) => row.family_id))];
  }

  it('rotates: a new pair in the same family, the presented token spent', async () => {
    const name = uniqueName();
    const { id, apiKey } = await createOrganisation(fixture.db, name, []);
    const first = await obtainToken(fixture.app, apiKey);
    const second = await refresh(first.refreshToken);

    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.token).not.toBe(first.token);
    expect(second.payload).toMatchObject({ sub: String(id), org: name, kv: 1 });
    const now = Math.floor(Date.now() / 1000);
    expect(
      Math.abs(second.refreshExpiresIn - (now + fixture.ctx.config.refreshTokenTtl)),
    ).toBeLessThan(5);
    expect(await familiesOf(id)).toHaveLength(1);
    const whoami = await fixture.app.inject({
      method: 'GET',
      url: WHOAMI_URL,
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(whoami.statusCode).toBe(200);
  });

  it('refuses a second use and revokes the whole family', async () => {
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const first = await obtainToken(fixture.app, apiKey);
    const second = await refresh(first.refreshToken);

    expect(await refusalCode(fixture.app, { refreshToken: first.refreshToken })).toBe(
      'invalid_refresh_token',
    );
    // The legitimate holder's newer token dies with the family: one of the two was a thief.
    expect(await refusalCode(fixture.app, { refreshToken: second.refreshToken })).toBe(
      'invalid_refresh_token',
    );
  });

  it('leaves other families of the organisation alone', async () => {
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const stolen = await obtainToken(fixture.app, apiKey);
    const elsewhere = await obtainToken(fixture.app, apiKey);
    await refresh(stolen.refreshToken);
    await refusalCode(fixture.app, { refreshToken: stolen.refreshToken });
    await refresh(elsewhere.refreshToken);
  });

  it('lets only one of two concurrent uses rotate', async () => {
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const { refreshToken } = await obtainToken(fixture.app, apiKey);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => requestToken(fixture.app, { refreshToken })),
    );
    const issued = results.filter(({ body }) => body.data?.obtainToken);
    expect(issued).toHaveLength(1);
    for (const { body } of results.filter(({ body }) => !body.data?.obtainToken)) {
      expect(body.errors?.[0]?.extensions?.code).toBe('invalid_refresh_token');
    }
  });

  it('refuses unknown refresh tokens', async () => {
    expect(await refusalCode(fixture.app, { refreshToken: 'not-a-refresh-token' })).toBe(
      'invalid_refresh_token',
    );
  });

  it('reports an expired refresh token as refresh_token_expired', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const { refreshToken } = await obtainToken(fixture.app, apiKey);
    await fixture.db.kysely
      .updateTable('refresh_tokens')
      .set({ expires_at: Date.now() - 1000 })
      .where('organisation_id', '=', id)
      .execute();
    expect(await refusalCode(fixture.app, { refreshToken })).toBe('refresh_token_expired');
  });

  it('refuses a refresh token minted before a key rotation', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const { refreshToken } = await obtainToken(fixture.app, apiKey);
    await changeOrganisation(fixture.db, id, { key_version: 2 });
    expect(await refusalCode(fixture.app, { refreshToken })).toBe('invalid_refresh_token');
  });

  it('tells a disabled organisation so', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const { refreshToken } = await obtainToken(fixture.app, apiKey);
    await changeOrganisation(fixture.db, id, { enabled: 0 });
    expect(await refusalCode(fixture.app, { refreshToken })).toBe('organisation_disabled');
  });
});
