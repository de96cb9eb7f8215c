/**
 * The bodies the benchmark sends (bench/payload.ts): the typical account and the published full
 * account, each spliced with its number and valid as the service checks it. The full account
 * needs the reference (ACCOUNT_REFERENCE_DIR, or ../shared/reference beside the repository);
 * without it, only its absence is tested.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import {
  accountBodyTemplate,
  FULL_ACCOUNT_FILE,
  fullAccountBodyTemplate,
} from '../../bench/payload.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

const context = TEST_ACCOUNT_CONTEXT;
const today = () => new Date().toISOString().slice(0, 10);

/** The errors of a body as the service would report them; [] when it is valid. */
function errorsOf(body: string) {
  const result = validateEnergyAccount(JSON.parse(body), context);
  return result.ok ? [] : result.errors.map(({ attr, code }) => ({ attr, code }));
}

describe('the typical bench account', () => {
  it('carries each request its own number and is a valid published account', () => {
    const body = accountBodyTemplate('BENCH');
    const [one, two] = [body('B-0000001'), body('B-0000002')];
    expect(JSON.parse(one)).toMatchObject({
      import_supplier: 'BENCH',
      external_account_number: 'B-0000001',
    });
    expect(two).toBe(one.replaceAll('B-0000001', 'B-0000002'));
    expect(errorsOf(one)).toEqual([]);
  });
});

describe.skipIf(!existsSync(FULL_ACCOUNT_FILE))('the published full account', () => {
  it('is the published example sent by the bench supplier, valid, about 6 kB', () => {
    const body = fullAccountBodyTemplate('BENCH');
    expect(body).toBeDefined();
    const text = (body as (n: string) => string)('F-0000001');
    const account = JSON.parse(text) as Record<string, unknown>;
    expect(account).toMatchObject({
      import_supplier: 'BENCH',
      external_account_number: 'F-0000001',
    });
    const start = (account.dunning_path as { start_date: string }).start_date;
    expect(start > today()).toBe(true);
    // Nothing else differs from the published example.
    const published = JSON.parse(readFileSync(FULL_ACCOUNT_FILE, 'utf8')) as {
      dunning_path: object;
      references: object[];
    };
    expect(account).toEqual({
      ...published,
      import_supplier: 'BENCH',
      external_account_number: 'F-0000001',
      // Each account's reference its own: a reference belongs to one account of a supplier.
      references: published.references.map((r) => ({ ...r, value: 'F-0000001' })),
      dunning_path: { ...published.dunning_path, start_date: start },
    });
    expect(Buffer.byteLength(text)).toBeGreaterThan(5_000);
    expect(Buffer.byteLength(text)).toBeLessThan(7_000);
    expect(errorsOf(text)).toEqual([]);
  });

  it('splices the number into the same text for every request', () => {
    const body = fullAccountBodyTemplate('BENCH') as (n: string) => string;
    expect(body('F-0000002')).toBe(body('F-0000001').replaceAll('F-0000001', 'F-0000002'));
  });
});

describe('without the reference', () => {
  let dir: string | undefined;
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('has no full account, and says which file it looked for', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-reference-'));
    vi.stubEnv('ACCOUNT_REFERENCE_DIR', dir);
    vi.resetModules();
    const payload = await import('../../bench/payload.js');
    expect(payload.FULL_ACCOUNT_FILE).toBe(join(dir, 'examples', 'full-account.json'));
    expect(payload.publishedFullAccount('BENCH')).toBeUndefined();
    expect(payload.fullAccountBodyTemplate('BENCH')).toBeUndefined();
  });
});
