/**
 * The suppliers an instance remembers for the stage's short way (src/imports/staging/staging.service.ts):
 * a remembered supplier serves only the callers it was found granted to, so that another
 * organisation's stage naming it takes the same way as a code that does not exist.
 */
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/auth/access.js';
import type { ImportSupplier } from '../../../src/db/database.js';
import { KnownSuppliers } from '../../../src/imports/staging/known-suppliers.js';

const supplier = (code: string, status: ImportSupplier['status'] = 'Ongoing'): ImportSupplier => ({
  id: 1,
  code,
  status,
  document_root: '/root',
  customer_emails: 0,
  phone_region: 'GB',
  created_at: 0,
  rule_settings: '{}',
});

const caller = (organisationId: number, keyVersion = 1): Caller => ({
  organisationId,
  organisationName: `org-${organisationId}`,
  keyVersion,
  bodyBytes: 0,
});

describe('KnownSuppliers', () => {
  it('serves a remembered supplier only to the callers it was found granted to', () => {
    const known = new KnownSuppliers();
    known.remember(supplier('ACME'), caller(1));
    expect(known.ongoing('ACME', caller(1))?.code).toBe('ACME');
    expect(known.ongoing(' ACME ', caller(1))?.code).toBe('ACME');
    // Another organisation, or the same one on a rotated key, was never found granted.
    expect(known.ongoing('ACME', caller(2))).toBeUndefined();
    expect(known.ongoing('ACME', caller(1, 2))).toBeUndefined();
    // Its rule is still known, to validate its payloads with.
    expect(known.ruleOf('ACME')).toEqual({ phoneRegion: 'GB', settings: '{}' });
    known.remember(supplier('ACME'), caller(2));
    expect(known.ongoing('ACME', caller(2))?.code).toBe('ACME');
  });

  it('serves only a supplier that accepts accounts', () => {
    const known = new KnownSuppliers();
    known.remember(supplier('ACME', 'Paused'), caller(1));
    expect(known.ongoing('ACME', caller(1))).toBeUndefined();
    known.remember(supplier('ACME'), caller(1));
    expect(known.ongoing('ACME', caller(1))?.code).toBe('ACME');
    expect(known.ongoing(42, caller(1))).toBeUndefined();
  });
});
