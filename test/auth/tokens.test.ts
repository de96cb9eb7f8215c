import { randomBytes } from 'node:crypto';
import { SignJWT, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../src/auth/tokens.js';
import { ServiceError } from '../../src/errors.js';

const secret = new Uint8Array(randomBytes(32));
const subject = { organisationId: 42, organisationName: 'Acme Energy', keyVersion: 3 };

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function refusal(token: string, key: Uint8Array = secret): Promise<ServiceError> {
  const error = await verifyAccessToken(key, token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const serviceError = error as ServiceError;
  expect(serviceError.status).toBe(401);
  expect(serviceError.headers['WWW-Authenticate']).toMatch(/error="invalid_token"/);
  return serviceError;
}

async function validClaims(overrides: Record<string, unknown> = {}) {
  const { claims } = await signAccessToken(secret, subject, 3600);
  return { ...claims, ...overrides };
}

describe('access tokens', () => {
  it('signs HS256 tokens with the documented claims and verifies them', async () => {
    const now = Math.floor(Date.now() / 1000);
    const { token, claims } = await signAccessToken(secret, subject, 3600, now);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(claims).toMatchObject({
      sub: '42',
      org: 'Acme Energy',
      kv: 3,
      iat: now,
      exp: now + 3600,
      iss: 'account-import',
      aud: 'account-import-rest',
    });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    const verified = await verifyAccessToken(secret, token);
    expect(verified).toMatchObject(subject);
    expect(verified.claims).toEqual(claims);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const claims = await validClaims();
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    expect((await refusal(unsigned)).code).toBe('invalid_token');
  });

  it('refuses an RS256 token, even one with valid claims', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT(await validClaims())
      .setProtectedHeader({ alg: 'RS256' })
      .sign(privateKey);
    expect((await refusal(token)).code).toBe('invalid_token');
  });

  it('refuses another HMAC algorithm signed with the right secret', async () => {
    const token = await new SignJWT(await validClaims())
      .setProtectedHeader({ alg: 'HS512' })
      .sign(secret);
    expect((await refusal(token)).code).toBe('invalid_token');
  });

  it('refuses a tampered payload and a tampered signature', async () => {
    const { token } = await signAccessToken(secret, subject, 3600);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${b64(await validClaims({ sub: '1' }))}.${signature}`;
    expect((await refusal(forged)).code).toBe('invalid_token');
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const badSignature = `${token.slice(0, -2)}${last}${token.at(-1)}`;
    expect((await refusal(badSignature)).code).toBe('invalid_token');
  });

  it('refuses a token spelt otherwise than in compact form: padded, spaced, four parts', async () => {
    const { token } = await signAccessToken(secret, subject, 3600);
    for (const spelling of [`${token}=`, `${token}==`, ` ${token}`, `${token}.`, `a.${token}`]) {
      expect((await refusal(spelling)).code).toBe('invalid_token');
    }
    await expect(verifyAccessToken(secret, token)).resolves.toBeDefined();
  });

  it('refuses a token signed with another secret', async () => {
    const { token } = await signAccessToken(new Uint8Array(randomBytes(32)), subject, 3600);
    expect((await refusal(token)).code).toBe('invalid_token');
  });

  it('reports an expired token as token_expired', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200;
    const { token } = await signAccessToken(secret, subject, 3600, past);
    expect((await refusal(token)).code).toBe('token_expired');
  });

  it('refuses a wrong or missing issuer or audience', async () => {
    for (const overrides of [{ iss: 'someone-else' }, { aud: 'another-api' }]) {
      const token = await new SignJWT(await validClaims(overrides))
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret);
      expect((await refusal(token)).code).toBe('invalid_token');
    }
    const { iss: _iss, aud: _aud, ...bare } = await validClaims();
    const token = await new SignJWT(bare).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    expect((await refusal(token)).code).toBe('invalid_token');
  });

  it('refuses a correctly signed token with a malformed subject or key version', async () => {
    for (const overrides of [{ sub: 'abc' }, { sub: '0' }, { kv: '3' }, { org: 7 }]) {
      const token = await new SignJWT(await validClaims(overrides))
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret);
      expect((await refusal(token)).code).toBe('invalid_token');
    }
  });

  it('refuses garbage', async () => {
    for (const garbage of ['', 'abc', 'a.b.c', `${b64({ alg: 'HS256' })}..`]) {
      expect((await refusal(garbage)).code).toBe('invalid_token');
    }
  });
});
