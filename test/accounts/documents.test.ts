/** Where a created account's documents are fetched from (src/accounts/documents.ts). */
import { describe, expect, it } from 'vitest';
import { resolveDocumentLocation } from '../../src/accounts/documents.js';

describe('document locations', () => {
  it.each([
    ['suppliers/demo/', 'bucket/suppliers/demo/statements/S-1.pdf'],
    ['/suppliers/demo', 'bucket/suppliers/demo/statements/S-1.pdf'],
    ['', 'bucket/statements/S-1.pdf'],
  ])('are resolved under the supplier root %j', (root, location) => {
    expect(resolveDocumentLocation('bucket', root, '/statements/S-1.pdf')).toBe(location);
  });
});
