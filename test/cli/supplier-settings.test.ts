import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

const DEFAULTS = {
  auto_allocation_team: null,
  send_registration_flows: false,
  enforce_business_contracts: false,
  link_account_to_business_with_contract: false,
  create_new_portfolios: false,
  skip_property_creation: false,
  skip_supply_point_creation: false,
};

await describeEachDialect('cli: supplier rule settings', (dialect) => {
  let database: TestDatabase;
  const cli = (...args: string[]) => runCli({ DATABASE_URL: database.url }, ...args);
  const settingsOf = async (code: string) => {
    const suppliers = json<{ code: string; rule_settings: unknown }[]>(
      (await cli('supplier', 'list', '--json')).stdout,
    );
    return suppliers.find((s) => s.code === code)?.rule_settings;
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    expect((await cli('team', 'add', 'Migrations')).code).toBe(0);
  });
  afterAll(() => database.destroy());

  it('adds a supplier with rule settings', async () => {
    const added = await cli(
      'supplier',
      'add',
      'S1',
      '--auto-allocation-team',
      'Migrations',
      '--send-registration-flows',
      '--skip-supply-point-creation',
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toBe(
      'added import supplier S1: Ongoing, document root "", customer e-mails off, ' +
        'phone region GB, rule settings auto_allocation_team "Migrations", ' +
        'send_registration_flows on, skip_supply_point_creation on\n',
    );
    expect(await settingsOf('S1')).toEqual({
      ...DEFAULTS,
      auto_allocation_team: 'Migrations',
      send_registration_flows: true,
      skip_supply_point_creation: true,
    });
  });

  it('sets rule settings on and off, the others kept', async () => {
    const set = await cli(
      'supplier',
      'set',
      'S1',
      '--no-auto-allocation-team',
      '--no-send-registration-flows',
      '--enforce-business-contracts',
      '--link-account-to-business-with-contract',
      '--create-new-portfolios',
      '--skip-property-creation',
      '--json',
    );
    expect(set.code).toBe(0);
    expect(json(set.stdout)).toMatchObject({
      code: 'S1',
      rule_settings: {
        auto_allocation_team: null,
        send_registration_flows: false,
        enforce_business_contracts: true,
        link_account_to_business_with_contract: true,
        create_new_portfolios: true,
        skip_property_creation: true,
        skip_supply_point_creation: true,
      },
    });
    const off = await cli(
      'supplier',
      'set',
      'S1',
      '--no-enforce-business-contracts',
      '--no-link-account-to-business-with-contract',
      '--no-create-new-portfolios',
      '--no-skip-property-creation',
      '--no-skip-supply-point-creation',
    );
    expect(off.stdout).toMatch(/, rule settings all default\n$/);
    expect(await settingsOf('S1')).toEqual(DEFAULTS);
  });

  it('lists the settings that differ from their default', async () => {
    expect((await cli('supplier', 'add', 'S2', '--create-new-portfolios')).code).toBe(0);
    const table = (await cli('supplier', 'list')).stdout.split('\n');
    expect(table[0]).toMatch(/ {2}RULE SETTINGS$/);
    expect(table[1]).toMatch(/^S1 .* {2}all default$/);
    expect(table[2]).toMatch(/^S2 .* {2}create_new_portfolios on$/);
  });

  it('refuses a team that does not exist, and both halves of a pair', async () => {
    const before = await settingsOf('S1');
    const unknown = await cli('supplier', 'set', 'S1', '--auto-allocation-team', 'Nobody');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toBe(
      'error: operations team "Nobody" does not exist: add it with "team add" first, or give another\n',
    );
    expect(unknown.stderr).not.toMatch(STACK_LINE);
    const added = await cli('supplier', 'add', 'S3', '--auto-allocation-team', 'Nobody', '--json');
    expect(added.code).toBe(1);
    expect(json(added.stderr)).toEqual({
      error:
        'operations team "Nobody" does not exist: add it with "team add" first, or give another',
    });

    const both = await cli(
      'supplier',
      'set',
      'S1',
      '--skip-property-creation',
      '--no-skip-property-creation',
    );
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(
      /^error: options '--skip-property-creation' and '--no-skip-property-creation' are both given/,
    );
    const twice = await cli(
      'supplier',
      'set',
      'S1',
      '--auto-allocation-team',
      'Migrations',
      '--no-auto-allocation-team',
    );
    expect(twice.code).toBe(1);
    const missing = await cli('supplier', 'set', 'S1', '--auto-allocation-team');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/argument missing/);
    expect(await settingsOf('S1')).toEqual(before);
    expect(await settingsOf('S3')).toBeUndefined();
  });

  it('names every option when set is given none', async () => {
    const none = await cli('supplier', 'set', 'S1');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /^error: nothing to change: give --status, .*, --auto-allocation-team, --no-auto-allocation-team, .* or --no-skip-supply-point-creation\n$/,
    );
  });
});
