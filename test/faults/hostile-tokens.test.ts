/**
 * Promise 5: hostile tokens, as one matrix on every data-import route of the real app.
 *
 * Already covered elsewhere, so not repeated here: no token, garbage, expired, disabled
 * organisation and rotated key on every route (test/imports/security.test.ts); the same forgeries
 * against verifyAccessToken alone (test/auth/tokens.test.ts); refresh-token replay, expiry and
 * rotation in a minimal app (test/auth/refresh-tokens.test.ts); the token cache
 * (test/auth/token-cache.test.ts). Added: the forgeries on the real routes, confused token
 * kinds, refresh replay and API-key guessing on the real app.
 */
import { generateKeyPair, exportSPKI, SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from '../../src/auth/tokens.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  OBTAIN_TOKEN_MUTATION,
  createOrganisation,
  obtainToken,
  uniqueName,
} from '../helpers/auth.js';
import { PATHS, PROTECTED_ROUTES, createTestService, type TestService } from '../helpers/app.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

type Forge = (ctx: {
  secret: Uint8Array;
  claims: AccessTokenClaims;
  token: string;
  refreshToken: string;
}) => Promise<string>;

/** Each hostile token and the code it must be refused with. */
const MATRIX: [string, 'invalid_token' | 'token_expired', Forge][] = [
  [
    'alg none, valid claims',
    'invalid_token',
    async ({ claims }) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
  ],
  [
    'alg NONE, with the real signature',
    'invalid_token',
    async ({ claims, token }) => `${b64({ alg: 'NONE' })}.${b64(claims)}.${token.split('.')[2]}`,
  ],
  [
    'RS256 signed with an attacker key (HS/RS swap)',
    'invalid_token',
    async ({ claims }) => {
      const { privateKey } = await generateKeyPair('RS256');
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    },
  ],
  [
    'HS256 keyed with an RSA public key (key confusion)',
    'invalid_token',
    async ({ claims }) => {
      const { publicKey } = await generateKeyPair('RS256', { extractable: true });
      const pem = new TextEncoder().encode(await exportSPKI(publicKey));
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(pem);
    },
  ],
  [
    'HS512 with the right secret',
    'invalid_token',
    async ({ claims, secret }) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(secret),
  ],
  [
    'jku/kid pointing at an attacker key',
    'invalid_token',
    async ({ claims }) =>
      new SignJWT(claims)
        .setProtectedHeader({
          alg: 'HS256',
          kid: '../../dev/null',
          jku: 'https://attacker.example/jwks.json',
        })
        .sign(new Uint8Array(32)),
  ],
  [
    'payload swapped to another organisation, signature kept',
    'invalid_token',
    async ({ claims, token }) => {
      const [header, , signature] = token.split('.');
      return `${header}.${b64({ ...claims, sub: String(Number(claims.sub) + 1) })}.${signature}`;
    },
  ],
  [
    'signature tampered',
    'invalid_token',
    async ({ token }) => {
      const [header, payload, signature = ''] = token.split('.');
      const middle = Math.floor(signature.length / 2);
      const flipped = signature[middle] === 'A' ? 'B' : 'A';
      return `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
    },
  ],
  [
    'signature stripped',
    'invalid_token',
    async ({ token }) => `${token.split('.').slice(0, 2).join('.')}.`,
  ],
  [
    'signed with another secret',
    'invalid_token',
    async ({ claims }) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new Uint8Array(randomBytes(32))),
  ],
  [
    'another audience, right secret',
    'invalid_token',
    async ({ claims, secret }) =>
      new SignJWT({ ...claims, aud: 'account-import-graphql' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret),
  ],
  [
    'not valid before a future time',
    'invalid_token',
    async ({ claims, secret }) =>
      new SignJWT({ ...claims, nbf: Math.floor(Date.now() / 1000) + 3600 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret),
  ],
  [
    'expired a second ago, right secret',
    'token_expired',
    async ({ claims, secret }) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims, iat: now - 61, exp: now - 1 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret);
    },
  ],
  [
    'a refresh token used as an access token',
    'invalid_token',
    async ({ refreshToken }) => refreshToken,
  ],
  [
    'five parts (a JWE shape)',
    'invalid_token',
    async ({ token }) => `${token}.${token.split('.')[1]}.x`,
  ],
  ['8 KB of base64url', 'invalid_token', async () => randomBytes(6_000).toString('base64url')],
];

await describeEachDialect('hostile tokens', (dialect) => {
  let service: TestService;
  let forged: Map<string, string>;
  beforeAll(async () => {
    service = await createTestService(dialect, { TOKEN_RATE_LIMIT: '5' });
    const pair = await obtainToken(service.app, service.apiKey);
    const ctx = {
      secret: service.ctx.tokenSecret,
      claims: pair.payload as AccessTokenClaims,
      token: pair.token,
      refreshToken: pair.refreshToken,
    };
    forged = new Map();
    for (const [name, , forge] of MATRIX) forged.set(name, await forge(ctx));
  });
  afterAll(() => service.destroy());

  for (const route of PROTECTED_ROUTES) {
    describe(`${route.method} ${route.url}`, () => {
      it.each(MATRIX.map(([name, code]) => [name, code]))(
        'refuses %s with 401 %s',
        async (name, code) => {
          const response = await service.app.inject({
            method: route.method,
            url: route.url,
            payload: route.payload?.(),
            headers: { authorization: `Token ${forged.get(name)}` },
          });
          expect(response.statusCode).toBe(401);
          expect(response.headers['www-authenticate']).toMatch(
            /^Token realm="account-import", error="invalid_token"/,
          );
          expect(response.json()).toMatchObject({ code, errors: [{ code, attr: null }] });
        },
      );
    });
  }

  it('accepts the genuine token on the same routes (the matrix is not refusing everything)', async () => {
    const response = await service.request({ method: 'GET', url: PATHS.all('DEMO') });
    expect(response.statusCode).toBe(200);
  });

  describe('the token endpoint of the real app', () => {
    const refresh = (refreshToken: string, remoteAddress = '10.9.0.1') =>
      service.app.inject({
        method: 'POST',
        url: '/v1/graphql/',
        remoteAddress,
        payload: { query: OBTAIN_TOKEN_MUTATION, variables: { input: { refreshToken } } },
      });
    const codeOf = (body: { errors?: { extensions?: { code?: string } }[] }) =>
      body.errors?.[0]?.extensions?.code;

    it('refuses a refresh token used twice, then the whole family, with invalid_refresh_token', async () => {
      const { apiKey } = await createOrganisation(service.db, uniqueName('replay'), []);
      const first = await obtainToken(service.app, apiKey);
      const rotated = (await refresh(first.refreshToken, '10.9.0.2')).json();
      expect(rotated.data.obtainToken.refreshToken).toEqual(expect.any(String));
      const replay = await refresh(first.refreshToken, '10.9.0.3');
      expect(replay.statusCode).toBe(200);
      expect(codeOf(replay.json())).toBe('invalid_refresh_token');
      expect(
        codeOf((await refresh(rotated.data.obtainToken.refreshToken, '10.9.0.4')).json()),
      ).toBe('invalid_refresh_token');
    });

    it('refuses an access token presented as a refresh token', async () => {
      const pair = await obtainToken(service.app, service.apiKey);
      expect(codeOf((await refresh(pair.token, '10.9.0.5')).json())).toBe('invalid_refresh_token');
    });

    it('limits API-key guessing per client: 429 with Retry-After, other clients unaffected', async () => {
      const guess = (remoteAddress: string) =>
        service.app.inject({
          method: 'POST',
          url: '/v1/graphql/',
          remoteAddress,
          payload: {
            query: OBTAIN_TOKEN_MUTATION,
            variables: { input: { apiKey: `aik_guess_${randomBytes(8).toString('hex')}` } },
          },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await guess('10.66.0.1')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const limited = await guess('10.66.0.1');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json()).toMatchObject({ code: 'too_many_requests' });
      expect((await guess('10.66.0.2')).statusCode).toBe(200);
    });
  });
});
