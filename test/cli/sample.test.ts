/** The built CLI's `sample` command: the generator's lines on stdout, and its options checked. */
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { generateSample, type SampleShape } from '../../src/sample/sample.generator.js';
import { runCli } from './run-cli.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

const AS_OF = '2025-06-30';
const ndjson = (options: Parameters<typeof generateSample>[0]) =>
  [...generateSample(options)].map((line) => `${JSON.stringify(line.payload)}\n`).join('');

describe('account-import sample', () => {
  it('prints the generator lines as NDJSON, typical accounts by default', async () => {
    const result = await runCli(
      {},
      ...['sample', '--count', '25', '--supplier', 'ACME', '--seed', '9', '--invalid-ratio', '0.2'],
      ...['--as-of', AS_OF],
    );
    expect(result.code).toBe(0);
    const options = { count: 25, supplier: 'ACME', seed: 9, invalidRatio: 0.2, asOf: AS_OF };
    expect(result.stdout).toBe(ndjson({ ...options, shape: 'typical' }));
    expect(result.stderr).toBe('');
  });

  it.each<SampleShape>(['minimal', 'full'])(
    'writes valid published accounts of the shape asked for (%s)',
    async (shape) => {
      const args = ['--count', '20', '--supplier', 'ACME', '--seed', '4', '--as-of', AS_OF];
      const result = await runCli({}, 'sample', ...args, '--shape', shape);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        ndjson({ count: 20, supplier: 'ACME', seed: 4, asOf: AS_OF, shape }),
      );
      for (const line of result.stdout.trimEnd().split('\n')) {
        const context = { ...TEST_ACCOUNT_CONTEXT, today: AS_OF };
        expect(validateEnergyAccount(JSON.parse(line), context)).toMatchObject({ ok: true });
      }
    },
  );

  it('counts the dates back from today when no --as-of is given', async () => {
    const result = await runCli({}, 'sample', '--count', '30', '--supplier', 'ACME', '--seed', '2');
    expect(result.code).toBe(0);
    for (const line of result.stdout.trimEnd().split('\n')) {
      const context = TEST_ACCOUNT_CONTEXT;
      expect(validateEnergyAccount(JSON.parse(line), context)).toMatchObject({ ok: true });
    }
  });

  it.each([
    [['--supplier', 'A.b'], /'--supplier <code>' argument 'A\.b' is invalid\. use 1 to 64 letters/],
    [['--supplier', 'A'.repeat(65)], /'--supplier <code>' argument 'A{65}' is invalid/],
    [['--supplier', 'A', '--invalid-ratio', '0x1'], /argument '0x1' is invalid/],
    [['--supplier', 'A', '--invalid-ratio', '1e0'], /argument '1e0' is invalid/],
    [['--supplier', 'A', '--invalid-ratio', '1.01'], /argument '1\.01' is invalid/],
    [
      ['--supplier', 'A', '--shape', 'huge'],
      /argument 'huge' is invalid\. Allowed choices are minimal, typical, full/,
    ],
    [
      ['--supplier', 'A', '--as-of', '2025-02-29'],
      /argument '2025-02-29' is invalid\. must be a date/,
    ],
    [
      ['--supplier', 'A', '--as-of', '30/06/2025'],
      /argument '30\/06\/2025' is invalid\. must be a date/,
    ],
    [
      ['--supplier', 'A', '--as-of', '2999-01-01'],
      /argument '2999-01-01' is invalid\. may not be after today/,
    ],
  ])('refuses %j in one line with exit 1', async (args, message) => {
    const result = await runCli({}, 'sample', '--count', '1', ...args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
    expect(result.stderr).toMatch(message);
  });

  it('takes a 64-character supplier code, whose account numbers stay within 128', async () => {
    const code = 'S'.repeat(64);
    const result = await runCli({}, 'sample', '--count', '3', '--supplier', code, '--seed', '1');
    expect(result.code).toBe(0);
    const numbers = result.stdout
      .trimEnd()
      .split('\n')
      .map(
        (line) => (JSON.parse(line) as { external_account_number: string }).external_account_number,
      );
    expect(numbers).toHaveLength(3);
    for (const number of numbers) expect(number.length).toBeLessThanOrEqual(128);
  });

  it('prints the random seed it chose, so the file can be made again', async () => {
    const result = await runCli({}, 'sample', '--count', '1', '--supplier', 'ACME');
    expect(result.stderr).toMatch(/^seed: \d+\n$/);
  });
});
