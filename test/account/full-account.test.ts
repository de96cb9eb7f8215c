import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { HAS_REFERENCE, example } from './reference.js';

const context = { phoneRegion: 'GB', supplierFound: true, today: '2026-11-26' };

/** The published full account, its supplier ours and its dunning path starting after today. */
function fullAccount(): Record<string, unknown> {
  const account = example('full-account.json');
  account.import_supplier = 'OUR_SUPPLIER';
  account.dunning_path = { ...(account.dunning_path as object), start_date: '2027-01-04' };
  return account;
}

describe.skipIf(!HAS_REFERENCE)('the published full account', () => {
  it('validates with no error', () => {
    const result = validateEnergyAccount(fullAccount(), context);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});
