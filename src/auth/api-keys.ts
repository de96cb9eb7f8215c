/**
 * Organisation API keys: `aik_<keyId>_<secret>`. The key id finds the organisation without a
 * scan; only the SHA-256 of the secret is stored, so a database leak discloses no usable key.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const PREFIX = 'aik_';
const KEY_ID_LENGTH = 12;
// Alphanumeric only, so the `_` after the key id is an unambiguous separator.
const KEY_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_BYTES = 32;
const API_KEY_PATTERN = /^aik_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Whether `value` has an API key's form: sent where a token belongs, it earns a hint. */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** Hex SHA-256 of an API key secret, the form kept in organisations.key_hash. */
export function hashApiKeySecret(secret: string): string {
  return sha256(secret).toString('hex');
}

/** A new API key; show `apiKey` once and store only `keyId` and `keyHash`. */
export function generateApiKey(): { apiKey: string; keyId: string; keyHash: string } {
  let keyId = '';
  for (let i = 0; i < KEY_ID_LENGTH; i++)
    keyId += KEY_ID_ALPHABET[randomInt(KEY_ID_ALPHABET.length)];
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  return { apiKey: `${PREFIX}${keyId}_${secret}`, keyId, keyHash: hashApiKeySecret(secret) };
}

/** Splits an API key into key id and secret; undefined when it is not in the issued format. */
export function parseApiKey(apiKey: string): { keyId: string; secret: string } | undefined {
  const match = API_KEY_PATTERN.exec(apiKey.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { keyId: match[1], secret: match[2] };
}

/** Whether the secret hashes to keyHash, compared in constant time. */
export function verifyApiKeySecret(secret: string, keyHash: string): boolean {
  const actual = sha256(secret);
  const expected = Buffer.from(keyHash, 'hex');
  if (expected.length !== actual.length) {
    // Still spend one comparison so a malformed stored hash is not observable by timing.
    timingSafeEqual(actual, actual);
    return false;
  }
  return timingSafeEqual(actual, expected);
}

/**
 * A hash no secret matches (its preimage is thrown away): compared against when the key id is
 * unknown, so an unknown id costs the same as a wrong secret.
 */
export const UNMATCHABLE_KEY_HASH = hashApiKeySecret(
  randomBytes(SECRET_BYTES).toString('base64url'),
);
