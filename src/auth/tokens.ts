/**
 * Access tokens: HS256 JWTs naming the organisation and its key version. The algorithm is pinned
 * on both sides so a token with `alg: none` or an asymmetric algorithm is never accepted.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { ServiceError } from '../errors.js';

export const TOKEN_ISSUER = 'account-import';
export const TOKEN_AUDIENCE = 'account-import-rest';
const ALGORITHM = 'HS256';

/** The claims of an access token, as signed and as returned in `payload` by obtainToken. */
export interface AccessTokenClaims {
  [claim: string]: unknown;
  sub: string;
  org: string;
  kv: number;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  jti: string;
}

export interface TokenSubject {
  organisationId: number;
  organisationName: string;
  keyVersion: number;
}

/** What a verified token says about its caller. */
export interface VerifiedToken extends TokenSubject {
  claims: AccessTokenClaims;
}

/** Signs an access token valid for ttlSeconds from nowSeconds. */
export async function signAccessToken(
  secret: Uint8Array,
  subject: TokenSubject,
  ttlSeconds: number,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<{ token: string; claims: AccessTokenClaims }> {
  const claims: AccessTokenClaims = {
    sub: String(subject.organisationId),
    org: subject.organisationName,
    kv: subject.keyVersion,
    iat: nowSeconds,
    exp: nowSeconds + ttlSeconds,
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    jti: randomUUID(),
  };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .sign(secret);
  return { token, claims };
}

/**
 * The detail as an RFC 6750 error_description, which may hold only printable ASCII other than
 * `"` and `\`: double quotes become single ones, anything else outside that set a `?`.
 */
function errorDescription(detail: string): string {
  return detail.replace(/[^\x20-\x7e]|["\\]/g, (c) => (c === '"' ? "'" : '?'));
}

/** The codes of a refused authentication (401). */
export type AuthenticationCode = 'not_authenticated' | 'invalid_token' | 'token_expired';

/** A 401 with the RFC 6750-style challenge every authentication failure carries. */
export function authenticationError(code: AuthenticationCode, detail: string): ServiceError {
  const challenge =
    code === 'not_authenticated'
      ? 'Token realm="account-import"'
      : `Token realm="account-import", error="invalid_token", error_description="${errorDescription(detail)}"`;
  return new ServiceError({ code, detail, headers: { 'WWW-Authenticate': challenge } });
}

function readSubject(payload: Record<string, unknown>): TokenSubject | undefined {
  const { sub, org, kv } = payload;
  if (typeof sub !== 'string' || !/^[1-9][0-9]{0,15}$/.test(sub)) return undefined;
  if (typeof org !== 'string' || typeof kv !== 'number' || !Number.isInteger(kv)) return undefined;
  return { organisationId: Number(sub), organisationName: org, keyVersion: kv };
}

/**
 * Checks signature, algorithm, issuer, audience and expiry; throws a 401 ServiceError
 * (`token_expired` or `invalid_token`) otherwise. Revocation is the caller's database check.
 */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<VerifiedToken> {
  const cache = verifiedCache(secret);
  const cached = cache.get(token);
  if (cached) {
    if (cached.claims.exp > Math.floor(Date.now() / 1000)) return cached;
    cache.delete(token);
    throw authenticationError('token_expired', 'The token has expired.');
  }
  const verified = await verifySignedToken(secret, token);
  if (cache.size >= VERIFIED_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(token, verified);
  return verified;
}

/**
 * Tokens already verified with this secret, until they expire. A migration sends thousands of
 * requests with one token, and WebCrypto's HMAC runs on the thread pool: verifying once per
 * token instead of once per request takes that round trip off the hot path. Only the
 * signature and claims are cached; revocation is still checked on every request.
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, VerifiedToken>>();
const VERIFIED_CACHE_SIZE = 10_000;

function verifiedCache(secret: Uint8Array): Map<string, VerifiedToken> {
  let cache = verifiedTokens.get(secret);
  if (!cache) {
    cache = new Map();
    verifiedTokens.set(secret, cache);
  }
  return cache;
}

/**
 * A JWS in compact form as RFC 7515 writes it: three parts of base64url without padding. jose
 * decodes a part with `=` padding (or other stray characters) all the same, so one token would
 * have several spellings, each verified and cached on its own.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

async function verifySignedToken(secret: Uint8Array, token: string): Promise<VerifiedToken> {
  if (!COMPACT_JWS.test(token)) {
    throw authenticationError('invalid_token', 'The token is not a compact JWS.');
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
    }));
  } catch (error) {
    // jose checks the signature before the claims, so JWTExpired means a genuine, stale token.
    if (error instanceof errors.JWTExpired) {
      throw authenticationError('token_expired', 'The token has expired.');
    }
    if (error instanceof errors.JOSEError) {
      throw authenticationError('invalid_token', 'The token is malformed or badly signed.');
    }
    throw error;
  }
  const subject = readSubject(payload);
  if (subject === undefined) {
    throw authenticationError('invalid_token', 'The token is malformed or badly signed.');
  }
  return { ...subject, claims: payload as AccessTokenClaims };
}
