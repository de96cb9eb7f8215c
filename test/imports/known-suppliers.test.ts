/**
 * The phone regions an instance remembers for its validation threads
 * (src/imports/imports.service.ts). A stage takes its supplier from its own caller check, so the
 * cache serves regions only, to any caller alike.
 */
import { describe, expect, it } from 'vitest';
import type { ImportSupplier } from '../../src/db/database.js';
import { KnownSuppliers } from '../../src/imports/imports.service.js';

const supplier = (code: string, phoneRegion = 'GB'): ImportSupplier => ({
  id: 1,
  code,
  status: 'Ongoing',
  document_root: '/root',
  customer_emails: 0,
  phone_region: phoneRegion,
  created_at: 0,
});

describe('KnownSuppliers', () => {
  it('knows the phone region of each supplier read, and of no other', () => {
    const known = new KnownSuppliers();
    known.remember(supplier('ACME'));
    known.remember(supplier('BETA', 'IE'));
    expect(known.regionOf('ACME')).toBe('GB');
    expect(known.regionOf('BETA')).toBe('IE');
    expect(known.regionOf('NONE')).toBeUndefined();
    expect(known.regions()).toEqual([
      ['ACME', 'GB'],
      ['BETA', 'IE'],
    ]);
  });

  it('counts a new version only when a region is new or changed', () => {
    const known = new KnownSuppliers();
    known.remember(supplier('ACME'));
    const first = known.version;
    known.remember(supplier('ACME'));
    expect(known.version).toBe(first);
    known.remember(supplier('ACME', 'IE'));
    expect(known.version).toBe(first + 1);
    expect(known.regionOf('ACME')).toBe('IE');
  });
});
