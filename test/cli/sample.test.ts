/** The built CLI's `sample` command: the generator's lines on stdout, and its options checked. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { EARLIEST_AS_OF } from '../../src/sample/calendar.js';
import { generateSample, type SampleShape } from '../../src/sample/sample.generator.js';
import { CLI_PATH, STACK_LINE, runCli } from './run-cli.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

const AS_OF = '2025-06-30';
const ndjson = (options: Parameters<typeof generateSample>[0]) =>
  [...generateSample(options)].map((line) => `${JSON.stringify(line.payload)}\n`).join('');

/**
 * Runs `account-import sample ...args` with its stdout on `stdout` (a file descriptor, or a
 * pipe handed to `onOutput`); resolves with the exit code and stderr.
 */
async function sampleTo(
  stdout: number | 'pipe',
  args: string[],
  onOutput?: (output: Readable) => void,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI_PATH, 'sample', ...args], {
    stdio: ['ignore', stdout, 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (child.stdout) onOutput?.(child.stdout);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

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

  it('writes valid full accounts as of its earliest day', async () => {
    const args = ['--count', '50', '--supplier', 'ACME', '--seed', '6', '--shape', 'full'];
    const result = await runCli({}, 'sample', ...args, '--as-of', EARLIEST_AS_OF);
    expect(result.code).toBe(0);
    for (const line of result.stdout.trimEnd().split('\n')) {
      const context = { ...TEST_ACCOUNT_CONTEXT, today: EARLIEST_AS_OF };
      expect(validateEnergyAccount(JSON.parse(line), context)).toMatchObject({ ok: true });
    }
  });

  it.runIf(existsSync('/dev/full')).each(['1', '1000'])(
    'fails in one line with exit 2 when stdout cannot be written (%s accounts)',
    async (count) => {
      const full = openSync('/dev/full', 'w');
      try {
        const result = await sampleTo(full, ['--count', count, '--supplier', 'A', '--seed', '1']);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          'error: cannot write the sample: ENOSPC: no space left on device, write\n',
        );
        expect(result.stderr).not.toMatch(STACK_LINE);
      } finally {
        closeSync(full);
      }
    },
  );

  it('stops quietly when the reader goes away, as with | head', async () => {
    const args = ['--count', '100000', '--supplier', 'A', '--seed', '1'];
    const result = await sampleTo('pipe', args, (output) =>
      output.once('data', () => output.destroy()),
    );
    expect(result).toEqual({ code: 0, stderr: '' });
  });

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
    [
      ['--supplier', 'A', '--as-of', '0001-01-01'],
      /argument '0001-01-01' is invalid\. may not be before 2000-01-01\./,
    ],
    [
      ['--supplier', 'A', '--as-of', '1999-12-31'],
      /argument '1999-12-31' is invalid\. may not be before 2000-01-01\./,
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
