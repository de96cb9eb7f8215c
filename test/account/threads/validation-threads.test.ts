import { readdir, readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { accountClaims } from '../../../src/account/claims.js';
import { validateEnergyAccount } from '../../../src/account/account.js';
import {
  checkAccountJson,
  checkWrappedAccountJson,
} from '../../../src/account/threads/account-json.js';
import {
  ValidationThreads,
  WORKER_SCRIPT,
  type PlatformSource,
  type SupplierRules,
} from '../../../src/account/threads/validation-threads.js';
import {
  platformData,
  type PlatformData,
  type SupplierRule,
} from '../../../src/platform/platform-data.js';
import { LARGE_BODY_BYTES } from '../../../src/payload/json-text.js';
import { catalogueOf } from '../../../src/reference/reference.catalogue.js';
import { DEMO_REFERENCE } from '../../../src/reference/reference.demo.js';
import { TEST_ACCOUNT_CONTEXT, TEST_PLATFORM_DATA } from '../../helpers/platform.js';
import { bundleValidationWorker } from '../../helpers/validation-worker-bundle.js';
import { LANDLINE_E164, buildAccount, buildCustomer } from '../factory.js';

/** Supplier rules as the service's KnownSuppliers keeps them. */
class Rules implements SupplierRules {
  version = 0;
  readonly #byCode = new Map<string, SupplierRule>();

  set(code: string, phoneRegion: string, settings = '{}'): this {
    this.#byCode.set(code, { phoneRegion, settings });
    this.version += 1;
    return this;
  }

  rules(): [string, SupplierRule][] {
    return [...this.#byCode];
  }

  ruleOf(code: string): SupplierRule | undefined {
    return this.#byCode.get(code);
  }
}

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

/** The platform data the threads are given, as the service's LivePlatformData holds it. */
const platform: { current: PlatformData } & PlatformSource = { current: TEST_PLATFORM_DATA };

const onTheLoop = (text: string, rules: Rules) =>
  checkAccountJson(text, (code) => rules.ruleOf(code), platform.current);

const VALID = JSON.stringify(buildAccount({ import_supplier: '  DEMO ' }));

/** The nice value every thread of this process runs at (Linux: /proc/self/task). */
async function niceValues(): Promise<number[]> {
  const tasks = await readdir('/proc/self/task');
  const stats = await Promise.all(
    tasks.map((task) => readFile(`/proc/self/task/${task}/stat`, 'utf8')),
  );
  // The fields after the command's closing parenthesis; the nice value is the 17th of them.
  return stats.map((stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
}

const lowPriorityThreads = async () => (await niceValues()).filter((nice) => nice === 19).length;

describe('validation threads', () => {
  const failures: Error[] = [];
  let threads: ValidationThreads | undefined;
  const start = (size: number, script?: URL): ValidationThreads => {
    threads = new ValidationThreads(size, platform, (error) => failures.push(error), script);
    return threads;
  };
  afterEach(async () => {
    platform.current = TEST_PLATFORM_DATA;
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
    const rules = new Rules().set('DEMO', 'GB');
    const checked = await start(1).check(VALID, rules);
    expect(checked).toEqual(onTheLoop(VALID, rules));
    expect(threads?.confirmed).toBe(1);
    const expected = validateEnergyAccount(JSON.parse(VALID), TEST_ACCOUNT_CONTEXT);
    expect(expected.ok).toBe(true);
    expect(checked).toEqual({
      supplierCode: 'DEMO',
      rule: { phoneRegion: 'GB', settings: '{}' },
      platformVersion: TEST_PLATFORM_DATA.version,
      externalAccountNumber: expected.ok ? expected.value.external_account_number : '',
      data: JSON.stringify(expected.ok ? expected.value : undefined),
      claims: expected.ok ? accountClaims(expected.value) : [],
    });
    expect(checked?.claims).toEqual([
      { kind: 'reference', namespace: 'legacy-crm', value: 'CRM-A-1000001', attr: 'references.0' },
    ]);
    expect(failures).toEqual([]);
  });

  it.each([
    ['broken JSON', '{"import_supplier": "DEMO"'],
    ['an array', '[]'],
    ['a supplier with no known rule', JSON.stringify(buildAccount({ import_supplier: 'ELSE' }))],
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
    const rules = new Rules().set('DEMO', 'GB');
    expect(await start(1).check(text, rules)).toBeUndefined();
    expect(onTheLoop(text, rules)).toBeUndefined();
  });

  const wrapped = (body: Record<string, unknown>) => JSON.stringify(body);
  const TASK = { is_dry_run: true };

  it('check the account of a v2 body on a thread as on the event loop, with the rest handed on', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const account = buildAccount({ import_supplier: '  DEMO ', operations_team_name: 'Night' });
    const text = wrapped({ payload: account, task_params: TASK });
    const checked = await start(1).check(text, rules, true);
    expect(checked).toEqual(
      checkWrappedAccountJson(text, (code) => rules.ruleOf(code), platform.current),
    );
    const alone = onTheLoop(JSON.stringify(account), rules);
    expect(checked).toEqual({ ...alone, wrapper: { taskParams: TASK, teamName: 'Night' } });
  });

  it.each([
    ['another field beside them', { payload: buildAccount(), task_params: TASK, extra: 1 }],
    ['no task parameters', { payload: buildAccount() }],
    ['an account that is no object', { payload: [buildAccount()], task_params: TASK }],
    [
      'an invalid account',
      { payload: buildAccount({ external_account_number: ' ' }), task_params: TASK },
    ],
  ])('answer undefined for a v2 body with %s, which the long way then reports', async (_, body) => {
    const rules = new Rules().set('DEMO', 'GB');
    expect(await start(1).check(wrapped(body), rules, true)).toBeUndefined();
  });

  it('answer undefined for a v2 body that repeats a key', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const text = wrapped({ payload: buildAccount(), task_params: TASK }).replace(
      '"task_params"',
      '"task_params":{},"task_params"',
    );
    expect(await start(1).check(text, rules, true)).toBeUndefined();
  });

  it('check against the supplier rules as they were when the check was sent', async () => {
    const text = JSON.stringify(buildAccount({ customers: [buildCustomer()] }));
    const rules = new Rules().set('DEMO', 'GB');
    const pool = start(1);
    const inGb = await pool.check(text, rules);
    expect(inGb?.data).toContain(LANDLINE_E164);
    rules.set('DEMO', 'GB', '{"send_registration_flows":true}');
    const withSettings = await pool.check(text, rules);
    expect(withSettings?.rule).toEqual({
      phoneRegion: 'GB',
      settings: '{"send_registration_flows":true}',
    });
    rules.set('DEMO', 'IE');
    const inIe = await pool.check(text, rules);
    expect(inIe).toEqual(onTheLoop(text, rules));
    expect(inIe?.data ?? '').not.toContain(LANDLINE_E164);
  });

  it('check against the platform data as it was when the check was sent', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const pool = start(1);
    expect((await pool.check(VALID, rules))?.platformVersion).toBe(TEST_PLATFORM_DATA.version);
    platform.current = platformData(catalogueOf(7, DEMO_REFERENCE), 3);
    const checked = await pool.check(VALID, rules);
    expect(checked?.platformVersion).toBe('7.3');
    expect(checked).toEqual(onTheLoop(VALID, rules));
  });

  it.runIf(process.platform === 'linux')(
    'run large bodies on a thread of their own, at the lowest CPU priority',
    async () => {
      const rules = new Rules().set('DEMO', 'GB');
      const large = JSON.stringify(
        buildAccount({ import_supplier: 'DEMO', padding: 'x'.repeat(LARGE_BODY_BYTES) }),
      );
      // No check threads: a large body still goes to a thread, its own.
      const pool = start(0);
      expect(await pool.check(large, rules)).toEqual(onTheLoop(large, rules));
      expect(await lowPriorityThreads()).toBe(1);
      const reading = await pool.runLarge({ kind: 'read', text: large });
      expect(reading).not.toHaveProperty('refusal');
      expect(pool.largeJobs).toBe(1);
      // Still one: the same thread took both.
      expect(await lowPriorityThreads()).toBe(1);
      await pool.close();
      // Checks of ordinary payloads run at the service's own priority.
      await start(1).check(VALID, rules);
      expect(await lowPriorityThreads()).toBe(0);
    },
  );

  it('check on the event loop when there are no threads, or no longer', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const expected = onTheLoop(VALID, rules);
    expect(expected).toBeDefined();
    expect(await start(0).check(VALID, rules)).toEqual(expected);
    const closed = start(1);
    await closed.close();
    expect(await closed.check(VALID, rules)).toEqual(expected);
    expect(failures).toEqual([]);
  });

  it('answer the checks of a thread that ends undefined, and replace it until it failed three times', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const pool = start(1, fixture('exiting.worker.js'));
    for (let failure = 1; failure <= 3; failure++) {
      expect(await pool.check(VALID, rules)).toBeUndefined();
      expect(failures).toHaveLength(failure);
      expect(failures.at(-1)?.message).toBe('validation thread exited with code 3');
    }
    // Three failures: the event loop checks from now on.
    expect(await pool.check(VALID, rules)).toEqual(onTheLoop(VALID, rules));
    expect(failures).toHaveLength(3);
  });

  it('report a thread that cannot start, and answer its check undefined', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const pool = start(1, fixture('missing.worker.js'));
    expect(await pool.check(VALID, rules)).toBeUndefined();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.message).toContain('missing.worker.js');
  });

  it('answer the checks in flight undefined when closed', async () => {
    const rules = new Rules().set('DEMO', 'GB');
    const pool = start(2, fixture('silent.worker.js'));
    const inFlight = [pool.check(VALID, rules), pool.check(VALID, rules)];
    await pool.close();
    expect(await Promise.all(inFlight)).toEqual([undefined, undefined]);
    expect(failures).toEqual([]);
  });
});
