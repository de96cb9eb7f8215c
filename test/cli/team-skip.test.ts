import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

await describeEachDialect('cli: team and skip', (dialect) => {
  let database: TestDatabase;
  const cli = (...args: string[]) => runCli({ DATABASE_URL: database.url }, ...args);
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  describe('team', () => {
    it('adds teams and lists them by name', async () => {
      const added = await cli('team', 'add', 'Migrations', '--json');
      expect(added.code).toBe(0);
      expect(json(added.stdout)).toMatchObject({ name: 'Migrations' });
      expect((await cli('team', 'add', 'Billing')).stdout).toBe('added team "Billing"\n');
      const listed = json<{ name: string }[]>((await cli('team', 'list', '--json')).stdout);
      expect(listed.map((t) => t.name)).toEqual(['Billing', 'Migrations']);
      expect((await cli('team', 'list')).stdout).toMatch(/^NAME\s+CREATED\nBilling\s+\d{4}-/);
    });

    it('refuses a duplicate team', async () => {
      const result = await cli('team', 'add', 'Billing');
      expect(result).toMatchObject({ code: 1, stderr: 'error: team "Billing" already exists\n' });
    });
  });

  describe('skip', () => {
    beforeAll(async () => {
      expect((await cli('supplier', 'add', 'S1')).code).toBe(0);
    });

    it('adds, lists and removes a skip mark', async () => {
      const added = await cli('skip', 'add', 'S1', 'EXT-1', '--reason', 'closed account', '--json');
      expect(added.code).toBe(0);
      expect(json(added.stdout)).toMatchObject({
        supplier: 'S1',
        external_account_number: 'EXT-1',
        reason: 'closed account',
      });
      const listed = await cli('skip', 'list', 'S1', '--json');
      expect(json<unknown[]>(listed.stdout)).toHaveLength(1);
      const removed = await cli('skip', 'remove', 'S1', 'EXT-1');
      expect(removed).toMatchObject({ code: 0, stderr: '' });
      expect(removed.stdout).toMatch(/removed the skip mark of account EXT-1 of S1/);
      expect(json<unknown[]>((await cli('skip', 'list', '--json')).stdout)).toEqual([]);
    });

    it('refuses to add a mark twice', async () => {
      expect((await cli('skip', 'add', 'S1', 'EXT-2')).code).toBe(0);
      const again = await cli('skip', 'add', 'S1', 'EXT-2');
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^error: .*already marked to be skipped\n$/);
    });

    it.each([
      [['skip', 'remove', 'S1', 'EXT-404'], /^error: .*is not marked to be skipped\n$/],
      [['skip', 'add', 'NOPE', 'EXT-1'], /^error: import supplier "NOPE" does not exist\n$/],
      [['skip', 'remove', 'NOPE', 'EXT-1'], /^error: import supplier "NOPE" does not exist\n$/],
      [['skip', 'add', 'S1'], /^error: missing required argument 'external_number'/],
    ])('%j exits 1 with a clear message', async (args, message) => {
      const result = await cli(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(STACK_LINE);
    });
  });
});
