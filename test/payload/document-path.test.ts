/**
 * The document path rule (src/payload/rules/document-path.ts): a path a stored location can be
 * built from, which no later decoding or normalisation can make climb out of its root.
 */
import { describe, expect, it } from 'vitest';
import { isDocumentPath } from '../../src/payload/rules/document-path.js';

describe('document paths', () => {
  it.each([
    '/statements/2024/S-1.pdf',
    '/a',
    '/x/.hidden',
    '/x/...',
    '/ü/ñ.pdf',
    '/a b/c.pdf',
    // Changed by NFKC normalisation, but into nothing that separates or climbs.
    '/cafe\u0301.pdf',
    '/x\u00b2.pdf',
    '/a\u00a0b.pdf',
    '/\uff76\uff80\uff76\uff85.pdf',
  ])('accepts %j', (path) => {
    expect(isDocumentPath(path)).toBe(true);
  });

  it.each([
    '/',
    'statements/S-1.pdf',
    '//S-1.pdf',
    '/statements//S-1.pdf',
    '/statements/',
    '/./S-1.pdf',
    '/statements/../secret.pdf',
    '/statements/..',
    '/statements\\S-1.pdf',
    '/S-1.pdf?x=1',
    '/S-1.pdf#page=2',
    '/S-1\u0000.pdf',
    '/S-1\n.pdf',
    '/https://evil.example/S-1.pdf',
    '/s3:bucket/S-1.pdf',
    `/${'x'.repeat(1024)}`,
    '/%2e%2e/secret.pdf',
    '/a/%2E%2E/b.pdf',
    '/%00/x.pdf',
    '/..%c0%af/x.pdf',
    '/\uff0e\uff0e/x.pdf',
    '/a/..\u2215b.pdf',
    '/a\uff0fb.pdf',
    '/\uff05\u0032e.pdf',
    '/s3\uff1abucket/x.pdf',
    '/x\uff1f.pdf',
  ])('refuses %j', (path) => {
    expect(isDocumentPath(path)).toBe(false);
  });
});
