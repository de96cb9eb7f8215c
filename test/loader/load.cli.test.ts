/** The built CLI's `load` command where no service is needed: input errors, Ctrl-C at start. */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadSummary } from '../../src/loader/load.js';
import { STACK_LINE, runCli } from '../cli/run-cli.js';
import { startLoad } from './loader-service.js';

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

  it('asks for the API key, and refuses an empty team', async () => {
    const noApiKey = await runCli(noKey, 'load', file, '--url', URL, '--team', 'T');
    expect(noApiKey.code).toBe(1);
    expect(noApiKey.stderr).toBe(
      'error: no API key: pass --api-key or set ACCOUNT_IMPORT_API_KEY\n',
    );
    const emptyTeam = await runCli(
      { ACCOUNT_IMPORT_API_KEY: 'k' },
      ...['load', file, '--url', URL, '--team', '', '--json'],
    );
    expect(emptyTeam.code).toBe(1);
    expect(JSON.parse(emptyTeam.stderr)).toEqual({
      error:
        '--team is empty: name an operations team, or leave --team out for a supplier that allocates one',
    });
  });

  it.each(['ftp://host', 'file:///tmp/x', 'host:8000'])(
    'refuses --url %s at once: only http and https reach the service',
    async (url) => {
      const result = await runCli(noKey, 'load', file, '--api-key', 'k', '--url', url);
      expect(result).toMatchObject({
        code: 1,
        stderr: `error: not an http or https URL: ${url}\n`,
      });
    },
  );

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

  it('refuses a journal that is the input file or the report, and keeps both', async () => {
    const input = join(dir, 'tx.ndjson');
    writeFileSync(input, '{"a":1}\n');
    const defaultReport = join(dir, 'tx.failures.ndjson');
    const cases = [
      [input, [], 'the input file'],
      [join(dir, '.', 'tx.ndjson'), [], 'the input file'],
      // The default report (there from an earlier run); a report not there yet, spelt otherwise.
      [defaultReport, [], 'the report'],
      [
        join(dir, 'new.done'),
        ['--report', join(dir, '..', basename(dir), 'new.done')],
        'the report',
      ],
    ] as const;
    writeFileSync(defaultReport, '{"line":1}\n');
    for (const [journal, more, what] of cases) {
      const args = ['--kind', 'transactions', '--journal', journal, ...more];
      const result = await runCli(noKey, ...loadWithKey(input, ...args));
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: the journal ${journal} is ${what}; choose another --journal\n`,
      );
    }
    expect(readFileSync(input, 'utf8')).toBe('{"a":1}\n');
    expect(readFileSync(defaultReport, 'utf8')).toBe('{"line":1}\n');
    expect(existsSync(join(dir, 'new.done'))).toBe(false);
  });

  it('honours Ctrl-C while it waits for the service to start: the summary so far, exit 130', async () => {
    // A service that takes the connection and never answers: the token request waits on it.
    const silent = createServer();
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const connected = once(silent, 'connection');
    try {
      const { port } = silent.address() as AddressInfo;
      const run = startLoad({ url: `http://127.0.0.1:${port}`, apiKey: 'k' }, file, '--json');
      await connected;
      run.child.kill('SIGINT');
      const { code, stdout } = await run.done;
      expect(code).toBe(130);
      expect(JSON.parse(stdout)).toMatchObject<Partial<LoadSummary>>({
        interrupted: true,
        total: 0,
      });
    } finally {
      silent.close();
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
