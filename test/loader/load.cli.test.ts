/** The built CLI's `load` and `sample` commands where no service is needed: input errors. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSample } from '../../src/sample/sample.generator.js';
import { STACK_LINE, runCli } from '../cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'loader-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'accounts.ndjson');
writeFileSync(file, '{}\n');
// Nothing listens here: these runs must stop before any request.
const URL = 'http://127.0.0.1:9';
const noKey = { ACCOUNT_IMPORT_API_KEY: '' };
/** `load FILE` with a key and a team, and more options. */
const loadWithKey = (input: string, ...more: string[]) =>
  ['load', input, '--url', URL, '--api-key', 'k', '--team', 'T', ...more] as const;

describe('account-import load: input errors', () => {
  it('names a missing file', async () => {
    const result = await runCli(noKey, ...loadWithKey(join(dir, 'nope.ndjson')));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot read .*nope\.ndjson: no such file\n$/);
  });

  it('asks for the API key, and for a team unless staging only', async () => {
    const noApiKey = await runCli(noKey, 'load', file, '--url', URL, '--team', 'T');
    expect(noApiKey.code).toBe(1);
    expect(noApiKey.stderr).toBe(
      'error: no API key: pass --api-key or set ACCOUNT_IMPORT_API_KEY\n',
    );
    const noTeam = await runCli(
      { ACCOUNT_IMPORT_API_KEY: 'k' },
      'load',
      file,
      '--url',
      URL,
      '--json',
    );
    expect(noTeam.code).toBe(1);
    expect(JSON.parse(noTeam.stderr)).toEqual({
      error: '--team is required to create accounts (or use --stage-only)',
    });
  });

  it('refuses a report path that is the input file, however it is spelt, and keeps the input', async () => {
    const input = join(dir, 'same.ndjson');
    writeFileSync(input, '{"a":1}\n{"a":2}\n');
    for (const report of [
      input,
      join(dir, '.', 'same.ndjson'),
      join(dir, '..', basename(dir), 'same.ndjson'),
    ]) {
      const result = await runCli(noKey, ...loadWithKey(input, '--report', report));
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: the report ${report} is the input file; choose another --report\n`,
      );
      expect(readFileSync(input, 'utf8')).toBe('{"a":1}\n{"a":2}\n');
    }
  });

  it("says when the service cannot be reached, without a stack trace, and keeps the last run's report", async () => {
    const report = join(dir, 'accounts.failures.ndjson');
    writeFileSync(report, '{"line":1}\n');
    const result = await runCli(
      { ACCOUNT_IMPORT_API_KEY: 'k' },
      'load',
      file,
      '--url',
      URL,
      '--team',
      'T',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: cannot reach the service at http:\/\/127\.0\.0\.1:9: ECONNREFUSED\n$/,
    );
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(readFileSync(report, 'utf8')).toBe('{"line":1}\n');
  }, 30_000);
});

describe('account-import sample', () => {
  it('prints the generator lines as NDJSON', async () => {
    const result = await runCli(
      {},
      'sample',
      '--count',
      '25',
      '--supplier',
      'ACME',
      '--seed',
      '9',
      '--invalid-ratio',
      '0.2',
    );
    expect(result.code).toBe(0);
    const expected = [
      ...generateSample({ count: 25, supplier: 'ACME', seed: 9, invalidRatio: 0.2 }),
    ];
    expect(result.stdout).toBe(
      expected.map((line) => `${JSON.stringify(line.payload)}\n`).join(''),
    );
    expect(result.stderr).toBe('');
  });

  it.each([
    [['--supplier', 'A.b'], /'--supplier <code>' argument 'A\.b' is invalid\. use 1 to 64 letters/],
    [['--supplier', 'A'.repeat(65)], /'--supplier <code>' argument 'A{65}' is invalid/],
    [['--supplier', 'A', '--invalid-ratio', '0x1'], /argument '0x1' is invalid/],
    [['--supplier', 'A', '--invalid-ratio', '1e0'], /argument '1e0' is invalid/],
    [['--supplier', 'A', '--invalid-ratio', '1.01'], /argument '1\.01' is invalid/],
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
