import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

interface Listed {
  key: string;
  value: unknown;
  default: unknown;
  set: boolean;
}

await describeEachDialect('cli: settings', (dialect) => {
  let database: TestDatabase;
  const cli = (...args: string[]) => runCli({ DATABASE_URL: database.url }, ...args);
  const listed = async () => json<Listed[]>((await cli('settings', 'list', '--json')).stdout);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('lists every setting at its default on a fresh database', async () => {
    const table = await cli('settings', 'list');
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY +VALUE +DEFAULT +SET$/);
    expect(lines.slice(1).map((line) => line.split(/ {2,}/))).toEqual([
      ['managed_accounts_allowed', 'true', 'true', 'no'],
      ['consents_enabled', 'true', 'true', 'no'],
      ['cais_references_supported', 'true', 'true', 'no'],
      ['payment_day_min', '1', '1', 'no'],
      ['payment_day_max', '31', '31', 'no'],
      ['internal_email_addresses', '""', '""', 'no'],
      ['billing_document_identifiers_enabled', 'true', 'true', 'no'],
      ['incomplete_payments_enabled', 'false', 'false', 'no'],
      ['required_customer_detail_namespaces', '""', '""', 'no'],
      ['document_path_check_enabled', 'false', 'false', 'no'],
      ['exclusive_user_roles', '""', '""', 'no'],
      ['fixed_payment_schedule_min_amount', '0', '0', 'no'],
    ]);
    expect((await listed()).find((s) => s.key === 'internal_email_addresses')).toEqual({
      key: 'internal_email_addresses',
      value: [],
      default: [],
      set: false,
    });
  });

  it('sets a value, says when it was already so, and lists it', async () => {
    const set = await cli('settings', 'set', 'payment_day_min', '5');
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe('platform setting payment_day_min set: 1 -> 5\n');
    const again = await cli('settings', 'set', 'payment_day_min', '5');
    expect(again.stdout).toBe('platform setting payment_day_min set: still 5\n');

    const emails = await cli(
      'settings',
      'set',
      'internal_email_addresses',
      'Info@Platform.info, ops@platform.info',
      '--json',
    );
    expect(emails.code).toBe(0);
    expect(json(emails.stdout)).toEqual({
      key: 'internal_email_addresses',
      value: ['info@platform.info', 'ops@platform.info'],
      default: [],
      set: true,
      previous: [],
      changed: true,
    });
    const table = (await cli('settings', 'list')).stdout;
    expect(table).toMatch(/^payment_day_min +5 +1 +yes$/m);
    expect(table).toMatch(
      /^internal_email_addresses +info@platform\.info,ops@platform\.info +"" +yes$/m,
    );
  });

  it('resets a setting to its default', async () => {
    const reset = await cli('settings', 'reset', 'payment_day_min');
    expect(reset).toMatchObject({ code: 0, stderr: '' });
    expect(reset.stdout).toBe('platform setting payment_day_min reset to its default: 5 -> 1\n');
    const again = await cli('--json', 'settings', 'reset', 'payment_day_min');
    expect(json(again.stdout)).toMatchObject({ value: 1, set: false, changed: false });
    expect((await listed()).find((s) => s.key === 'payment_day_min')?.set).toBe(false);
  });

  it('refuses an unknown key or a bad value: exit 1, one error line, nothing changed', async () => {
    const before = await listed();
    const unknown = await cli('settings', 'set', 'payment_days', '5');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(
      /^error: unknown setting "payment_days": use one of managed_accounts_allowed, .*, fixed_payment_schedule_min_amount\n$/,
    );
    expect(unknown.stderr).not.toMatch(STACK_LINE);

    const bad = await cli('settings', 'set', 'consents_enabled', 'maybe', '--json');
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(json(bad.stderr)).toEqual({
      error:
        'invalid value "maybe" for consents_enabled: expected true or false (or on/off, yes/no)',
    });

    await cli('settings', 'set', 'payment_day_max', '10');
    const conflict = await cli('settings', 'set', 'payment_day_min', '11');
    expect(conflict).toMatchObject({ code: 1, stdout: '' });
    expect(conflict.stderr).toMatch(
      /^error: cannot set payment_day_min to 11: payment_day_min \(11\) would be after payment_day_max \(10\)/,
    );
    expect((await cli('settings', 'reset', 'payment_day_max')).code).toBe(0);
    expect(await listed()).toEqual(before);

    const resetUnknown = await cli('settings', 'reset', 'nope');
    expect(resetUnknown.code).toBe(1);
    expect(resetUnknown.stderr).toMatch(/^error: unknown setting "nope"/);
  });

  it('refuses a missing argument or a command it does not have', async () => {
    const missing = await cli('settings', 'set', 'payment_day_min');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: missing required argument 'value'/);
    const extra = await cli('settings', 'list', 'payment_day_min');
    expect(extra.code).toBe(1);
    const group = await cli('settings');
    expect(group.code).toBe(1);
    expect(group.stderr).toMatch(
      /^error: missing command: 'settings' needs one of set, reset, list/,
    );
  });

  it('lists the keys, what each takes and its default in the help of set', async () => {
    const help = await cli('settings', 'set', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^payment_day_min +a whole number from 1 to 31 +1$/m);
    expect(help.stdout).toMatch(/^consents_enabled +true or false \(or on\/off, yes\/no\) +true$/m);
  });
});
