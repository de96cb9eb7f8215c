import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { generateApiKey, parseApiKey } from '../../src/auth/api-keys.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  uniqueName,
} from '../helpers/auth.js';
import {
  WHOAMI_URL,
  buildAuthApp,
  refusalCode,
  requestToken,
  type GraphqlBody,
  useAuthApp,
} from './auth-app.js';

await describeEachDialect('obtainToken with an API key', (dialect) => {
  const fixture = useAuthApp(dialect, { REFRESH_TOKEN_TTL: '86400', ACCESS_TOKEN_TTL: '900' });

  it('issues a token that opens protected routes, and describes it', async () => {
    const name = uniqueName();
    const { id, apiKey } = await createOrganisation(fixture.db, name, []);
    const before = Math.floor(Date.now() / 1000);
    const pair = await obtainToken(fixture.app, apiKey);
    const after = Math.floor(Date.now() / 1000);

    expect(pair.refreshExpiresIn).toBeGreaterThanOrEqual(before + 86400);
    expect(pair.refreshExpiresIn).toBeLessThanOrEqual(after + 86400);
    expect(pair.payload).toMatchObject({
      sub: String(id),
      org: name,
      kv: 1,
      iss: 'account-import',
      aud: 'account-import-rest',
    });
    expect(Number(pair.payload.exp) - Number(pair.payload.iat)).toBe(900);
    const whoami = await fixture.app.inject({
      method: 'GET',
      url: WHOAMI_URL,
      headers: { authorization: `Token ${pair.token}` },
    });
    expect(whoami.json()).toEqual({ organisationId: id, organisationName: name });
  });

  it('is served at /v1/graphql without the trailing slash too', async () => {
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const { body } = await requestToken(fixture.app, { apiKey }, '/v1/graphql');
    expect(body.data?.obtainToken?.token).toEqual(expect.any(String));
  });

  it('stores neither the API key nor the refresh token in clear', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const { refreshToken } = await obtainToken(fixture.app, apiKey);
    const organisation = await fixture.db.kysely
      .selectFrom('organisations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const tokens = await fixture.db.kysely
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('organisation_id', '=', id)
      .execute();
    const stored = JSON.stringify([organisation, tokens]);
    // The secret is base64url and may itself hold '_', so it is parsed, not split.
    expect(stored).not.toContain(parseApiKey(apiKey)?.secret ?? apiKey);
    expect(stored).not.toContain(refreshToken);
    expect(tokens).toHaveLength(1);
  });

  it('asks for exactly one of apiKey and refreshToken', async () => {
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    expect(await refusalCode(fixture.app, {})).toBe('invalid_input');
    expect(await refusalCode(fixture.app, { apiKey: null, refreshToken: null })).toBe(
      'invalid_input',
    );
    expect(await refusalCode(fixture.app, { apiKey, refreshToken: 'x' })).toBe('invalid_input');
  });

  it('obtains one token per request: aliases and fragments cannot select the mutation twice', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const twice = [
      'mutation($k:String!){a:obtainToken(input:{apiKey:$k}){token} b:obtainToken(input:{apiKey:$k}){token}}',
      'mutation($k:String!){...F b:obtainToken(input:{apiKey:$k}){token}} fragment F on Mutation{a:obtainToken(input:{apiKey:$k}){token}}',
    ];
    for (const query of twice) {
      const response = await fixture.app.inject({
        method: 'POST',
        url: '/v1/graphql/',
        payload: { query, variables: { k: apiKey } },
      });
      expect(response.statusCode, query).toBe(400);
      const body = response.json<GraphqlBody>();
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.map((error) => error.extensions?.code)).toEqual(['invalid_input']);
    }
    // Nothing was issued (each issue stores a refresh token); one selection still works.
    const stored = () =>
      fixture.db.kysely
        .selectFrom('refresh_tokens')
        .select('id')
        .where('organisation_id', '=', id)
        .execute();
    expect(await stored()).toHaveLength(0);
    expect((await obtainToken(fixture.app, apiKey)).token).toEqual(expect.any(String));
    expect(await stored()).toHaveLength(1);
  });

  it('refuses bad API keys alike: unknown id, wrong secret, not a key at all', async () => {
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const wrongSecret = apiKey.replace(/_[^_]+$/, `_${generateApiKey().apiKey.slice(-43)}`);
    for (const bad of [generateApiKey().apiKey, wrongSecret, 'hunter2', '']) {
      expect(await refusalCode(fixture.app, { apiKey: bad })).toBe('invalid_api_key');
    }
  });

  it('refuses the old key after a rotation', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const next = generateApiKey();
    await changeOrganisation(fixture.db, id, {
      key_id: next.keyId,
      key_hash: next.keyHash,
      key_version: 2,
    });
    expect(await refusalCode(fixture.app, { apiKey })).toBe('invalid_api_key');
    expect((await obtainToken(fixture.app, next.apiKey)).payload.kv).toBe(2);
  });

  it('tells a disabled organisation so', async () => {
    const { id, apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    await changeOrganisation(fixture.db, id, { enabled: 0 });
    expect(await refusalCode(fixture.app, { apiKey })).toBe('organisation_disabled');
  });

  it('answers ping, refuses mutations over GET and reports syntax errors as GraphQL', async () => {
    const ping = await fixture.app.inject({ method: 'GET', url: '/v1/graphql/?query={ping}' });
    expect(ping.json()).toEqual({ data: { ping: 'pong' } });
    const mutation = encodeURIComponent('mutation { obtainToken(input: {apiKey: "x"}) { token } }');
    const overGet = await fixture.app.inject({
      method: 'GET',
      url: `/v1/graphql/?query=${mutation}`,
    });
    expect(overGet.statusCode).toBe(405);
    const syntax = await fixture.app.inject({
      method: 'POST',
      url: '/v1/graphql/',
      payload: { query: 'mutation {' },
    });
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json().errors[0].message).toMatch(/Syntax Error/);
  });

  it('answers 400 to a document that fails validation, with one error or several', async () => {
    for (const [query, count] of [
      ['{ nope }', 1],
      ['{ nope nope2 }', 2],
    ] as const) {
      const invalid = await fixture.app.inject({
        method: 'POST',
        url: '/v1/graphql/',
        payload: { query },
      });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().data).toBeNull();
      expect(invalid.json().errors).toHaveLength(count);
    }
  });

  it('hides internal failures behind internal_error', async () => {
    const failing = {
      ...fixture.db,
      kysely: new Proxy(fixture.db.kysely, {
        get: () => () => {
          throw new Error('connect ECONNREFUSED db-internal.example:5432');
        },
      }),
    };
    const broken = await buildAuthApp({ ...fixture.ctx, db: failing });
    const { response, body } = await requestToken(broken, { apiKey: generateApiKey().apiKey });
    await broken.close();
    expect(response.statusCode).toBe(200);
    expect(body.errors?.[0]?.extensions?.code).toBe('internal_error');
    expect(response.body).not.toContain('db-internal');
  });

  it('never writes credentials to the log', async () => {
    let logged = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const logging = await buildAuthApp(fixture.ctx, stream);
    const { apiKey } = await createOrganisation(fixture.db, uniqueName(), []);
    const pair = await obtainToken(logging, apiKey);
    await requestToken(logging, { refreshToken: pair.refreshToken });
    await requestToken(logging, { refreshToken: pair.refreshToken });
    // A variable of the wrong shape: GraphQL quotes the whole input in its message.
    await requestToken(logging, { apiKey, unexpected: true });
    await logging.inject({
      method: 'GET',
      url: WHOAMI_URL,
      headers: { authorization: `Token ${pair.token}` },
    });
    await logging.close();
    expect(logged).toContain('token issued');
    for (const secret of [apiKey, pair.refreshToken, pair.token]) {
      expect(logged).not.toContain(secret);
    }
  });

  it('serves GraphiQL only outside production', async () => {
    expect((await fixture.app.inject({ method: 'GET', url: '/v1/graphiql' })).statusCode).toBe(200);
    const production = await buildAuthApp({
      ...fixture.ctx,
      config: { ...fixture.ctx.config, production: true },
    });
    expect((await production.inject({ method: 'GET', url: '/v1/graphiql' })).statusCode).toBe(404);
    await production.close();
  });
});
