import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

await describeEachDialect('cli: supplier', (dialect) => {
  let database: TestDatabase;
  const cli = (...args: string[]) => runCli({ DATABASE_URL: database.url }, ...args);
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  describe('add, set, list', () => {
    it('adds a supplier with the defaults on a fresh database', async () => {
      const result = await cli('supplier', 'add', 'S1', '--json');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(json(result.stdout)).toEqual({
        code: 'S1',
        status: 'Ongoing',
        document_root: '',
        customer_emails: false,
        phone_region: 'GB',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        rule_settings: {
          auto_allocation_team: null,
          send_registration_flows: false,
          enforce_business_contracts: false,
          link_account_to_business_with_contract: false,
          create_new_portfolios: false,
          skip_property_creation: false,
          skip_supply_point_creation: false,
        },
      });
    });

    it('adds a supplier with every option', async () => {
      const result = await cli(
        'supplier',
        'add',
        'S2',
        '--status',
        'paused',
        '--document-root',
        '/docs/s2/',
        '--customer-emails',
        '--phone-region',
        'ie',
        '--json',
      );
      expect(result.code).toBe(0);
      expect(json(result.stdout)).toMatchObject({
        status: 'Paused',
        document_root: '/docs/s2',
        customer_emails: true,
        phone_region: 'IE',
      });
    });

    it('sets only the options given', async () => {
      const result = await cli('supplier', 'set', 'S2', '--no-customer-emails', '--json');
      expect(result.code).toBe(0);
      expect(json(result.stdout)).toMatchObject({
        code: 'S2',
        status: 'Paused',
        document_root: '/docs/s2',
        customer_emails: false,
        phone_region: 'IE',
      });
      const human = await cli('supplier', 'set', 'S2', '--status', 'Complete');
      expect(human.stdout).toMatch(/^updated import supplier S2: Complete/);
    });

    it('lists suppliers as JSON and as an aligned table', async () => {
      const listed = await cli('supplier', 'list', '--json');
      expect(json<{ code: string }[]>(listed.stdout).map((s) => s.code)).toEqual(['S1', 'S2']);
      const table = (await cli('supplier', 'list')).stdout.split('\n');
      expect(table[0]).toMatch(
        /^CODE\s+STATUS\s+DOCUMENT ROOT\s+CUSTOMER E-MAILS\s+PHONE REGION\s+RULE SETTINGS$/,
      );
      expect(table[2]).toMatch(/^S2\s+Complete\s+\/docs\/s2\s+off\s+IE\s+all default$/);
      expect(table[1]?.indexOf('Ongoing')).toBe(table[2]?.indexOf('Complete'));
    });
  });

  describe('bad input', () => {
    it('refuses a duplicate code: exit 1, one error line, no stack trace', async () => {
      const result = await cli('supplier', 'add', 'S1');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('error: import supplier "S1" already exists\n');
      expect(result.stderr).not.toMatch(STACK_LINE);
    });

    it('reports the error as JSON with --json', async () => {
      const result = await cli('supplier', 'add', 'S1', '--json');
      expect(result.code).toBe(1);
      expect(json(result.stderr)).toEqual({ error: 'import supplier "S1" already exists' });
    });

    it('refuses an unknown status', async () => {
      const result = await cli('supplier', 'add', 'S3', '--status', 'Finished');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^error: unknown status "Finished"/);
      const set = await cli('supplier', 'set', 'S1', '--status', 'Finished');
      expect(set.code).toBe(1);
    });

    it('refuses to set an unknown supplier', async () => {
      const result = await cli('supplier', 'set', 'NOPE', '--status', 'Paused');
      expect(result).toMatchObject({
        code: 1,
        stderr: 'error: import supplier "NOPE" does not exist\n',
      });
    });
  });
});
