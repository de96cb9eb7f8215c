import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateApiKey, parseApiKey, verifyApiKeySecret } from '../../src/auth/api-keys.js';

describe('API keys', () => {
  it('generates aik_<keyId>_<secret> with a hex sha256 of the secret', () => {
    const { apiKey, keyId, keyHash } = generateApiKey();
    expect(apiKey).toMatch(/^aik_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const parsed = parseApiKey(apiKey);
    expect(parsed?.keyId).toBe(keyId);
    expect(keyHash).toBe(
      createHash('sha256')
        .update(parsed?.secret ?? '')
        .digest('hex'),
    );
    expect(apiKey).not.toContain(keyHash);
  });

  it('generates distinct keys', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().apiKey));
    expect(keys.size).toBe(200);
  });

  it('parses every generated key back and verifies its secret', () => {
    for (let i = 0; i < 100; i++) {
      const { apiKey, keyId, keyHash } = generateApiKey();
      const parsed = parseApiKey(apiKey);
      expect(parsed?.keyId).toBe(keyId);
      expect(verifyApiKeySecret(parsed?.secret ?? '', keyHash)).toBe(true);
    }
  });

  it('tolerates surrounding whitespace, as pasted keys carry', () => {
    const { apiKey, keyId } = generateApiKey();
    expect(parseApiKey(` ${apiKey}\n`)?.keyId).toBe(keyId);
  });

  it('rejects keys not in the issued format', () => {
    const { apiKey } = generateApiKey();
    for (const bad of [
      '',
      'aik_',
      apiKey.slice(0, -1),
      `${apiKey}x`,
      apiKey.replace('aik_', 'xyz_'),
      apiKey.replace(/^aik_(.{12})_/, 'aik_$1-'),
      `Token ${apiKey}`,
    ]) {
      expect(parseApiKey(bad)).toBeUndefined();
    }
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const parsed = parseApiKey(input);
        if (parsed) expect(input.trim()).toBe(`aik_${parsed.keyId}_${parsed.secret}`);
      }),
    );
  });

  it('refuses a wrong secret and a malformed stored hash', () => {
    const first = generateApiKey();
    const second = generateApiKey();
    const secret = parseApiKey(first.apiKey)?.secret ?? '';
    expect(verifyApiKeySecret(secret, second.keyHash)).toBe(false);
    expect(verifyApiKeySecret(secret, 'not hex')).toBe(false);
    expect(verifyApiKeySecret(secret, first.keyHash.slice(0, 10))).toBe(false);
    expect(verifyApiKeySecret('', first.keyHash)).toBe(false);
  });
});
