/**
 * Issues token pairs: an access token (JWT) and a refresh token (opaque, stored only as a hash).
 * Refresh tokens rotate on use; a token presented twice revokes its whole family, because one of
 * the two presenters must have stolen it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { transaction } from '../db/direct-execution.js';
import { UNMATCHABLE_KEY_HASH, parseApiKey, verifyApiKeySecret } from './api-keys.js';
import {
  consumeRefreshToken,
  findOrganisationByKeyId,
  findRefreshToken,
  insertRefreshToken,
  revokeRefreshFamily,
} from './auth.repository.js';
import type { TOKEN_ERROR_CODES } from '../errors.js';
import { signAccessToken, type AccessTokenClaims, type TokenSubject } from './tokens.js';

/** Refused credentials; `Pick` fails to compile if one is missing from the catalogue. */
export type CredentialErrorCode = keyof Pick<
  typeof TOKEN_ERROR_CODES,
  'invalid_api_key' | 'invalid_refresh_token' | 'refresh_token_expired' | 'organisation_disabled'
>;

/** Credentials were refused; the GraphQL layer reports `code` as `extensions.code`. */
export class CredentialError extends Error {
  constructor(
    readonly code: CredentialErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface TokenPair {
  token: string;
  refreshToken: string;
  /** Unix timestamp (seconds) at which the refresh token expires. */
  refreshExpiresIn: number;
  payload: AccessTokenClaims;
}

function hashRefreshToken(refreshToken: string): string {
  return createHash('sha256').update(refreshToken, 'utf8').digest('hex');
}

async function issuePair(
  ctx: AppContext,
  db: AppContext['db']['kysely'],
  subject: TokenSubject,
  familyId: string,
  now: number,
): Promise<TokenPair> {
  const refreshToken = randomBytes(32).toString('base64url');
  const nowSeconds = Math.floor(now / 1000);
  const refreshExpiresIn = nowSeconds + ctx.config.refreshTokenTtl;
  await insertRefreshToken(db, {
    tokenHash: hashRefreshToken(refreshToken),
    familyId,
    organisationId: subject.organisationId,
    keyVersion: subject.keyVersion,
    expiresAt: refreshExpiresIn * 1000,
    createdAt: now,
  });
  const { token, claims } = await signAccessToken(
    ctx.tokenSecret,
    subject,
    ctx.config.accessTokenTtl,
    nowSeconds,
  );
  return { token, refreshToken, refreshExpiresIn, payload: claims };
}

/** Exchanges an organisation API key for a new token pair (a new refresh family). */
export async function obtainTokenWithApiKey(ctx: AppContext, apiKey: string): Promise<TokenPair> {
  const parsed = parseApiKey(apiKey);
  const organisation = parsed && (await findOrganisationByKeyId(ctx.db.kysely, parsed.keyId));
  // Compare even when the key id is unknown, so response time does not reveal which ids exist.
  const matches = verifyApiKeySecret(
    parsed?.secret ?? '',
    organisation?.keyHash ?? UNMATCHABLE_KEY_HASH,
  );
  if (!organisation || !matches)
    throw new CredentialError('invalid_api_key', 'The API key is not valid.');
  if (!organisation.enabled) {
    throw new CredentialError('organisation_disabled', 'The organisation is disabled.');
  }
  const subject = {
    organisationId: organisation.id,
    organisationName: organisation.name,
    keyVersion: organisation.keyVersion,
  };
  return issuePair(ctx, ctx.db.kysely, subject, randomUUID(), Date.now());
}

/** Exchanges a refresh token for a new pair in the same family; the presented token is spent. */
export async function obtainTokenWithRefreshToken(
  ctx: AppContext,
  refreshToken: string,
): Promise<TokenPair> {
  const tokenHash = hashRefreshToken(refreshToken);
  const now = Date.now();
  const stored = await findRefreshToken(ctx.db.kysely, tokenHash);
  const invalid = new CredentialError('invalid_refresh_token', 'The refresh token is not valid.');
  if (!stored) throw invalid;
  if (stored.usedAt !== null) {
    await revokeRefreshFamily(ctx.db.kysely, stored.familyId, now);
    throw invalid;
  }
  // A key rotation ends every session started with the old key.
  if (stored.keyVersion !== stored.organisation.keyVersion) throw invalid;
  if (!stored.organisation.enabled) {
    throw new CredentialError('organisation_disabled', 'The organisation is disabled.');
  }
  if (stored.expiresAt <= now) {
    throw new CredentialError('refresh_token_expired', 'The refresh token has expired.');
  }

  const pair = await transaction(ctx.db.kysely, async (trx) => {
    // Only the request that flips used_at may rotate; a concurrent second use gets nothing.
    if (!(await consumeRefreshToken(trx, tokenHash, now))) return undefined;
    const subject = {
      organisationId: stored.organisationId,
      organisationName: stored.organisation.name,
      keyVersion: stored.keyVersion,
    };
    return issuePair(ctx, trx, subject, stored.familyId, now);
  });
  if (pair) return pair;
  await revokeRefreshFamily(ctx.db.kysely, stored.familyId, now);
  throw invalid;
}
