import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

interface OrgJson {
  name: string;
  enabled: boolean;
  suppliers: string[];
  key_version: number;
}

await describeEachDialect('cli: org', (dialect) => {
  let database: TestDatabase;
  const cli = (...args: string[]) => runCli({ DATABASE_URL: database.url }, ...args);
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    for (const code of ['S1', 'S2']) expect((await cli('supplier', 'add', code)).code).toBe(0);
  });
  afterAll(() => database.destroy());

  let firstKey = '';

  describe('add and rotate-key', () => {
    it('prints exactly the name and the API key with --json', async () => {
      const result = await cli('org', 'add', 'acme', '--supplier', 'S1', '--json');
      expect(result.code).toBe(0);
      const printed = json<{ name: string; api_key: string }>(result.stdout);
      expect(Object.keys(printed).sort()).toEqual(['api_key', 'name']);
      expect(printed.name).toBe('acme');
      expect(printed.api_key).toMatch(/^aik_/);
      firstKey = printed.api_key;
    });

    it('prints the key alone on its last line for humans', async () => {
      const result = await cli('org', 'add', 'beta');
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^aik_\S+$/);
    });

    it('rotate-key prints a different key and bumps the key version', async () => {
      const result = await cli('org', 'rotate-key', 'acme', '--json');
      expect(result.code).toBe(0);
      const printed = json<{ name: string; api_key: string }>(result.stdout);
      expect(printed.name).toBe('acme');
      expect(printed.api_key).toMatch(/^aik_/);
      expect(printed.api_key).not.toBe(firstKey);
      const listed = json<OrgJson[]>((await cli('org', 'list', '--json')).stdout);
      expect(listed.find((o) => o.name === 'acme')?.key_version).toBe(2);
    });
  });

  describe('grant, revoke, disable, enable, list', () => {
    it('grants and revokes suppliers', async () => {
      expect((await cli('org', 'grant', 'acme', '--supplier', 'S2')).code).toBe(0);
      const revoked = await cli('org', 'revoke', 'acme', '--supplier', 'S1', '--json');
      expect(json<OrgJson>(revoked.stdout).suppliers).toEqual(['S2']);
    });

    it('disables and enables an organisation', async () => {
      const disabled = await cli('org', 'disable', 'beta', '--json');
      expect(json<OrgJson>(disabled.stdout)).toMatchObject({ name: 'beta', enabled: false });
      const table = (await cli('org', 'list')).stdout;
      expect(table).toMatch(/^beta\s+disabled\s+-\s+/m);
      expect(table).toMatch(/^acme\s+enabled\s+S2\s+/m);
      const enabled = await cli('org', 'enable', 'beta', '--json');
      expect(json<OrgJson>(enabled.stdout).enabled).toBe(true);
    });
  });

  describe('bad input', () => {
    it.each([
      [['org', 'add', 'acme'], 'error: organisation "acme" already exists'],
      [
        ['org', 'add', 'gamma', '--supplier', 'NOPE'],
        'error: import supplier "NOPE" does not exist',
      ],
      [['org', 'rotate-key', 'nobody'], 'error: organisation "nobody" does not exist'],
      [['org', 'disable', 'nobody'], 'error: organisation "nobody" does not exist'],
      [['org', 'grant', 'acme', '--supplier', 'S2'], 'error: organisation "acme" already has'],
      [['org', 'revoke', 'acme', '--supplier', 'S1'], 'error: organisation "acme" has no access'],
      [['org', 'grant', 'acme'], "error: required option '--supplier <code>' not specified"],
      [
        ['org', 'grant', 'acme', '--supplier', 'S1', '--supplier', 'S2'],
        "error: option '--supplier <code>' is given twice; give it once\n",
      ],
      [
        ['org', 'revoke', 'acme', '--supplier', 'S1', '--supplier', 'S2'],
        "error: option '--supplier <code>' is given twice; give it once\n",
      ],
    ])('%j exits 1 with a clear message', async (args, message) => {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      expect(result.stderr.startsWith(message)).toBe(true);
      expect(result.stderr).not.toMatch(STACK_LINE);
    });
  });
});
