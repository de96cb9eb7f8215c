import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../../src/account/account.js';
import { checkAccountJson } from '../../../src/account/threads/account-json.js';
import {
  ValidationThreads,
  WORKER_SCRIPT,
  type SupplierRegions,
} from '../../../src/account/threads/validation-threads.js';
import { bundleValidationWorker } from '../../helpers/validation-worker-bundle.js';
import { LANDLINE_E164, buildAccount, buildCustomer } from '../factory.js';

/** Supplier regions as the service's KnownSuppliers keeps them. */
class Regions implements SupplierRegions {
  version = 0;
  readonly #byCode = new Map<string, string>();

  set(code: string, region: string): this {
    this.#byCode.set(code, region);
    this.version += 1;
    return this;
  }

  regions(): [string, string][] {
    return [...this.#byCode];
  }

  regionOf(code: string): string | undefined {
    return this.#byCode.get(code);
  }
}

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

const onTheLoop = (text: string, regions: Regions) =>
  checkAccountJson(text, (code) => regions.regionOf(code));

const VALID = JSON.stringify(buildAccount({ import_supplier: '  DEMO ' }));

describe('validation threads', () => {
  const failures: Error[] = [];
  let threads: ValidationThreads | undefined;
  const start = (size: number, script?: URL): ValidationThreads => {
    threads = new ValidationThreads(size, (error) => failures.push(error), script);
    return threads;
  };
  afterEach(async () => {
    await threads?.close();
    threads = undefined;
    failures.length = 0;
  });

  it('start threads from the current source of the worker, not from its last build', async () => {
    const bundle = process.env.VALIDATION_WORKER_BUNDLE;
    expect(bundle).toMatch(/validation\.worker\.js$/);
    expect(WORKER_SCRIPT.href).toBe(pathToFileURL(bundle ?? '').href);
    // What the source builds now, byte for byte: a bundle left from an older source differs.
    expect(await readFile(WORKER_SCRIPT, 'utf8')).toBe(await bundleValidationWorker());
  });

  it('check a payload on a thread as the event loop does', async () => {
    const regions = new Regions().set('DEMO', 'GB');
    const checked = await start(1).check(VALID, regions);
    expect(checked).toEqual(onTheLoop(VALID, regions));
    expect(threads?.confirmed).toBe(1);
    const expected = validateEnergyAccount(JSON.parse(VALID), {
      phoneRegion: 'GB',
      supplierFound: true,
    });
    expect(expected.ok).toBe(true);
    expect(checked).toEqual({
      supplierCode: 'DEMO',
      phoneRegion: 'GB',
      externalAccountNumber: expected.ok ? expected.value.external_account_number : '',
      data: JSON.stringify(expected.ok ? expected.value : undefined),
    });
    expect(failures).toEqual([]);
  });

  it.each([
    ['broken JSON', '{"import_supplier": "DEMO"'],
    ['an array', '[]'],
    ['a supplier with no known region', JSON.stringify(buildAccount({ import_supplier: 'ELSE' }))],
    ['a supplier code that is not a string', JSON.stringify(buildAccount({ import_supplier: 7 }))],
    ['an invalid payload', JSON.stringify(buildAccount({ external_account_number: ' ' }))],
    [
      // JSON.stringify of this value overflows the event loop's stack, but not a thread's.
      'a metadata value nested 4,500 levels',
      JSON.stringify(buildAccount({ metadata: [{ key: 'k', value: 'DEEP' }] })).replace(
        '"DEEP"',
        `${'['.repeat(4_500)}1${']'.repeat(4_500)}`,
      ),
    ],
  ])('answer undefined for %s, which the long way then reports', async (_, text) => {
    const regions = new Regions().set('DEMO', 'GB');
    expect(await start(1).check(text, regions)).toBeUndefined();
    expect(onTheLoop(text, regions)).toBeUndefined();
  });

  it('check against the regions as they were when the check was sent', async () => {
    const text = JSON.stringify(buildAccount({ customers: [buildCustomer()] }));
    const regions = new Regions().set('DEMO', 'GB');
    const pool = start(1);
    const inGb = await pool.check(text, regions);
    expect(inGb?.data).toContain(LANDLINE_E164);
    regions.set('DEMO', 'IE');
    const inIe = await pool.check(text, regions);
    expect(inIe).toEqual(onTheLoop(text, regions));
    expect(inIe?.data ?? '').not.toContain(LANDLINE_E164);
  });

  it('check on the event loop when there are no threads, or no longer', async () => {
    const regions = new Regions().set('DEMO', 'GB');
    const expected = onTheLoop(VALID, regions);
    expect(expected).toBeDefined();
    expect(await start(0).check(VALID, regions)).toEqual(expected);
    const closed = start(1);
    await closed.close();
    expect(await closed.check(VALID, regions)).toEqual(expected);
    expect(failures).toEqual([]);
  });

  it('answer the checks of a thread that ends undefined, and replace it until it failed three times', async () => {
    const regions = new Regions().set('DEMO', 'GB');
    const pool = start(1, fixture('exiting.worker.js'));
    for (let failure = 1; failure <= 3; failure++) {
      expect(await pool.check(VALID, regions)).toBeUndefined();
      expect(failures).toHaveLength(failure);
      expect(failures.at(-1)?.message).toBe('validation thread exited with code 3');
    }
    // Three failures: the event loop checks from now on.
    expect(await pool.check(VALID, regions)).toEqual(onTheLoop(VALID, regions));
    expect(failures).toHaveLength(3);
  });

  it('report a thread that cannot start, and answer its check undefined', async () => {
    const regions = new Regions().set('DEMO', 'GB');
    const pool = start(1, fixture('missing.worker.js'));
    expect(await pool.check(VALID, regions)).toBeUndefined();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toContain('missing.worker.js');
  });

  it('answer the checks in flight undefined when closed', async () => {
    const regions = new Regions().set('DEMO', 'GB');
    const pool = start(2, fixture('silent.worker.js'));
    const inFlight = [pool.check(VALID, regions), pool.check(VALID, regions)];
    await pool.close();
    expect(await Promise.all(inFlight)).toEqual([undefined, undefined]);
    expect(failures).toEqual([]);
  });
});
