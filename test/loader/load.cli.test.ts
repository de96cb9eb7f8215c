/** The built CLI's `load` command where no service is needed: input errors. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

  it('takes the post-import kinds without a team, and refuses what a kind cannot do', async () => {
    const run = (...more: string[]) =>
      runCli({ ACCOUNT_IMPORT_API_KEY: 'k' }, 'load', file, '--url', URL, ...more);
    const unknown = await run('--kind', 'meters');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'must be one of accounts, notes, statements, transactions, payment-instructions.',
    );
    const notesDryRun = await run('--kind', 'notes', '--dry-run');
    expect(notesDryRun.code).toBe(1);
    expect(notesDryRun.stderr).toBe('error: --dry-run is not available for notes\n');
    const stageOnly = await run('--kind', 'transactions', '--stage-only');
    expect(stageOnly.stderr).toBe('error: --stage-only is for accounts, not transactions\n');
    // Without --team, a transactions run goes as far as the service, which is not there.
    const unreachable = await run('--kind', 'transactions', '--json');
    expect(unreachable.code).toBe(1);
    expect((JSON.parse(unreachable.stderr) as { error: string }).error).toMatch(/cannot reach/);
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
