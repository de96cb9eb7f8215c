import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

describe('cli: usage, configuration and unexpected errors', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    // A supplier for the commands that look up the account after it (skip remove).
    expect((await runCli({ DATABASE_URL: database.url }, 'supplier', 'add', 'S1')).code).toBe(0);
  });
  afterAll(() => database.destroy());

  it('prints help and exits 0 with --help', async () => {
    const result = await runCli({}, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Usage: account-import/);
    const groups = ['serve', 'migrate', 'supplier', 'team', 'org', 'skip', 'reference', 'account'];
    for (const group of groups) {
      expect(result.stdout).toContain(`  ${group}`);
    }
  });

  it('refuses an unknown command with exit 1', async () => {
    const result = await runCli({}, 'frobnicate');
    expect(result).toMatchObject({ code: 1, stderr: "error: unknown command 'frobnicate'\n" });
    const nested = await runCli({}, 'supplier', 'remove', 'S1');
    expect(nested.code).toBe(1);
    expect(nested.stderr).toMatch(/^error: unknown command 'remove'/);
  });

  it('refuses a group without its command in one line, and still helps on request', async () => {
    const missing = await runCli({}, 'supplier');
    expect(missing).toMatchObject({
      code: 1,
      stdout: '',
      stderr: "error: missing command: 'supplier' needs one of add, set, list\n",
    });
    const asJson = await runCli({}, 'org', '--json');
    expect(asJson.code).toBe(1);
    expect(json(asJson.stderr).error).toMatch(/^missing command: 'org' needs one of add, /);
    for (const args of [
      ['supplier', '--help'],
      ['supplier', 'help'],
    ]) {
      const help = await runCli({}, ...args);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: account-import supplier /);
    }
  });

  it.each([
    [['help', 'nope'], 'nope'],
    [['supplier', 'help', 'nope'], 'nope'],
    [['help', 'supplier', 'nope'], 'nope'],
  ])('refuses help of an unknown command in %j in one line', async (args, name) => {
    const result = await runCli({}, ...args);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: unknown command '${name}'\n`,
    });
    const asJson = await runCli({}, ...args, '--json');
    expect(asJson.code).toBe(1);
    expect(json(asJson.stderr)).toEqual({ error: `unknown command '${name}'` });
  });

  it('helps on a command named through help, a group command too', async () => {
    for (const [args, usage] of [
      [['help', 'load'], 'Usage: account-import load '],
      [['help', 'supplier', 'add'], 'Usage: account-import supplier add '],
      [['supplier', 'help', 'add'], 'Usage: account-import supplier add '],
      [['help'], 'Usage: account-import '],
    ] as const) {
      const help = await runCli({}, ...args);
      expect(help.code).toBe(0);
      expect(help.stdout.startsWith(usage)).toBe(true);
    }
  });

  it('reports usage errors as JSON with --json', async () => {
    const result = await runCli({}, 'frobnicate', '--json');
    expect(result.code).toBe(1);
    expect(json(result.stderr)).toEqual({ error: "unknown command 'frobnicate'" });
  });

  it('refuses a bad configuration value with exit 1', async () => {
    const result = await runCli({ DATABASE_URL: 'mysql://db/x' }, 'team', 'list');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: DATABASE_URL must start with "sqlite:" or "postgres://"\n');
  });

  it('refuses an empty --database-url rather than falling back to the default file', async () => {
    const result = await runCli(
      { DATABASE_URL: database.url },
      '--database-url',
      '',
      'team',
      'list',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: --database-url is set but empty; /);
    expect(result.stdout).toBe('');
    // The variable's own bad value is named as the variable.
    const variable = await runCli({ DATABASE_URL: ' ' }, 'team', 'list');
    expect(variable.stderr).toMatch(/^error: DATABASE_URL is set but empty; /);
  });

  it.each([
    ['supplier', 'add', 'A\u001b[2J'],
    ['supplier', 'set', 'NOPE\u001b[2J', '--status', 'Paused'],
    ['supplier', 'add', 'A', '--status', 'x\r\u001b[2J'],
    ['org', 'grant', 'nobody\u001b[2J', '--supplier', 'A'],
    ['skip', 'add', 'A', 'N\u0007'],
    ['skip', 'remove', 'S1', 'x\u001b[2Jy'],
    ['team', 'add', 'T\u009b2J'],
    ['account', 'show', 'A-\u001b[2J'],
    ['account', 'show', 'S1', 'x\u0007y'],
    ['reference', 'remove', 'tpr', 'x\u001b[2J'],
  ])('escapes control characters of the input it names in %j', async (...args) => {
    const result = await runCli({ DATABASE_URL: database.url }, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: [^\n]*\\u00(1b|0d|07|9B)[^\n]*\n$/);
    expect(result.stderr.slice(0, -1)).not.toMatch(/\p{Cc}/u);
  });

  it.each([
    ['team', 'add', 'Migra\u202Esnoit'],
    ['org', 'disable', 'acme\u2067x'],
    ['supplier', 'set', 'NOPE\u200F', '--status', 'Paused'],
    ['skip', 'add', 'A\u202A', 'N'],
    ['skip', 'remove', 'S1', 'N\u202E'],
    ['account', 'show', 'NOPE\u202A', 'N'],
    ['account', 'show', 'A-1234567\u200F'],
    ['reference', 'list', 'tpr\u202E'],
  ])('escapes bidirectional formatting characters of the input it names in %j', async (...args) => {
    const result = await runCli({ DATABASE_URL: database.url }, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: [^\n]*\\u(202E|2067|200F|202A)[^\n]*\n$/);
    expect(result.stderr).not.toMatch(/\p{Bidi_Control}/u);
  });

  it('reports an unknown option with its hint in one line', async () => {
    const args = ['supplier', 'add', 'X', '--stats', 'Paused'];
    const result = await runCli({ DATABASE_URL: database.url }, ...args);
    expect(result).toMatchObject({
      code: 1,
      stderr: "error: unknown option '--stats' (Did you mean --status?)\n",
    });
    const asJson = await runCli({ DATABASE_URL: database.url }, '--json', ...args);
    expect(json(asJson.stderr)).toEqual({
      error: "unknown option '--stats' (Did you mean --status?)",
    });
  });

  it.each([
    [
      ['supplier', 'add', 'R1', '--status', 'Paused', '--status=Ongoing'],
      "option '--status <status>' is given twice; give it once",
    ],
    [
      ['supplier', 'add', 'R1', '--customer-emails', '--no-customer-emails'],
      "options '--customer-emails' and '--no-customer-emails' are both given; give one of them",
    ],
    [
      ['skip', 'add', 'R1', 'EXT-1', '--reason', 'a', '--reason', 'b'],
      "option '--reason <text>' is given twice; give it once",
    ],
    [
      ['load', 'accounts.ndjson', '--team', 'A', '--team', 'B'],
      "option '--team <name>' is given twice; give it once",
    ],
    [
      ['sample', '--count', '1', '--supplier', 'A', '--supplier', 'B'],
      "option '--supplier <code>' is given twice; give it once",
    ],
    [
      ['--database-url', 'sqlite::memory:', '--database-url', 'sqlite::memory:', 'team', 'list'],
      "option '--database-url <url>' is given twice; give it once",
    ],
  ])('refuses an option given twice in %j, keeping neither value', async (args, message) => {
    const result = await runCli({ DATABASE_URL: database.url }, ...args);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: `error: ${message}\n` });
    const asJson = await runCli({ DATABASE_URL: database.url }, '--json', ...args);
    expect(asJson.code).toBe(1);
    expect(json(asJson.stderr)).toEqual({ error: message });
    const suppliers = await runCli({ DATABASE_URL: database.url }, 'supplier', 'list', '--json');
    expect(json<{ code: string }[]>(suppliers.stdout).map((s) => s.code)).not.toContain('R1');
  });

  it('takes options that collect their values, and a flag repeated as it is', async () => {
    const env = { DATABASE_URL: database.url };
    expect(
      (await runCli(env, 'supplier', 'add', 'R2', '--customer-emails', '--customer-emails')).code,
    ).toBe(0);
    expect((await runCli(env, 'supplier', 'add', 'R3')).code).toBe(0);
    const added = await runCli(
      env,
      'org',
      'add',
      'r-org',
      '--supplier',
      'R2',
      '--supplier',
      'R3',
      '--json',
    );
    expect(added.code).toBe(0);
    expect(json<{ name: string }>(added.stdout).name).toBe('r-org');
    const listed = json<{ name: string; suppliers: string[] }[]>(
      (await runCli(env, 'org', 'list', '--json')).stdout,
    );
    expect(listed.find((o) => o.name === 'r-org')?.suppliers).toEqual(['R2', 'R3']);
  });

  it('lets --database-url override DATABASE_URL', async () => {
    const env = { DATABASE_URL: 'mysql://db/x' };
    const result = await runCli(env, 'team', 'add', 'T', '--database-url', database.url);
    expect(result).toMatchObject({ code: 0, stdout: 'added team "T"\n' });
    const listed = await runCli(env, '--database-url', database.url, 'team', 'list', '--json');
    expect(json<{ name: string }[]>(listed.stdout).map((t) => t.name)).toEqual(['T']);
  });

  it('reports an unexpected failure with exit 2 and no stack trace', async () => {
    const unreachable = 'postgres://postgres@127.0.0.1:1/nothing';
    const result = await runCli({ DATABASE_URL: unreachable }, 'supplier', 'list');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: \S.*\n$/);
    expect(result.stderr).not.toMatch(STACK_LINE);
    const withJson = await runCli({ DATABASE_URL: unreachable }, 'supplier', 'list', '--json');
    expect(withJson.code).toBe(2);
    expect(json<{ error: string }>(withJson.stderr).error).toMatch(/ECONNREFUSED/);
  });

  it('refuses an invalid --port for serve', async () => {
    const result = await runCli({ DATABASE_URL: database.url }, 'serve', '--port', 'http');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: option '--port <port>' argument 'http' is invalid/);
  });
});
