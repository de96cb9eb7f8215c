/**
 * Bodies above LARGE_BODY_BYTES are read and validated on a validation thread, even with
 * VALIDATION_THREADS=0: every answer is the one the same body gets on the direct path. Each body
 * is sent as it is (small) and followed by spaces past the threshold, which changes nothing in
 * its meaning, nor in any error's position.
 */
import { expect, it } from 'vitest';
import { LARGE_BODY_BYTES } from '../../../src/http/json-body.js';
import { describeEachDialect } from '../../helpers/databases.js';
import { PATHS, useTestService } from '../../helpers/app.js';
import { buildAccount } from '../../account/factory.js';

const account = (changes: Record<string, unknown> = {}) =>
  JSON.stringify(buildAccount({ external_account_number: 'LARGE-1', ...changes }));

const unknownKeys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_${i}`, i]));

const BODIES: [string, string][] = [
  ['a valid account', account()],
  ['an invalid account', account({ customers: 'none', transfer_balance: 'x' })],
  [
    '1,200 unknown keys (errors capped)',
    JSON.stringify({ ...buildAccount(), ...unknownKeys(1200) }),
  ],
  ['U+0000 in a value', account({ external_account_number: 'A\u0000B' })],
  ['U+0000 in a key', JSON.stringify({ ...buildAccount(), 'k\u0000': 1 })],
  ['a repeated key', account().replace('{', '{"import_supplier":"DEMO",')],
  ['broken JSON', account().replace('{', '{,')],
  ['not an object', '[1, "\\u0000"]'],
  ['a supplier not granted', account({ import_supplier: 'OTHER' })],
  ['a supplier that does not exist', account({ import_supplier: 'NOPE' })],
  ['no supplier', account({ import_supplier: 42 })],
];

await describeEachDialect('large bodies off the event loop', (dialect) => {
  const service = useTestService(dialect, { VALIDATION_THREADS: '0' });

  /** Bodies checked, read or validated on a thread so far. */
  const threadWork = () => {
    const threads = service.app.validationThreads;
    return threads.confirmed + threads.largeJobs;
  };

  const send = async (url: string, text: string) => {
    const response = await service.request({
      method: 'POST',
      url,
      payload: text,
      headers: { 'content-type': 'application/json' },
    });
    return { status: response.statusCode, body: response.body };
  };

  for (const route of ['validate', 'stage'] as const) {
    for (const [name, text] of BODIES) {
      it(`${route}: ${name} is answered alike, large or small`, async () => {
        expect(text.length).toBeLessThan(LARGE_BODY_BYTES);
        const large = text + ' '.repeat(LARGE_BODY_BYTES);
        // Sent twice first: a stage's second answer is the one a repeat gets.
        await send(PATHS[route], text);
        const small = await send(PATHS[route], text);
        const jobs = threadWork();
        expect(await send(PATHS[route], large)).toEqual(small);
        expect(threadWork()).toBeGreaterThan(jobs);
      });
    }
  }
});
