/**
 * Platform settings on both databases: set, reset and list, the refusals, the change marker
 * and loading every setting at once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import {
  DEFAULT_PLATFORM_SETTINGS,
  PLATFORM_SETTING_KEYS,
  type PlatformSettingKey,
  type PlatformSettings,
} from '../../src/settings/settings.declared.js';
import {
  listPlatformSettings,
  loadPlatformSettings,
  readPlatformSettingsVersion,
  refreshPlatformSettings,
  resetPlatformSetting,
  setPlatformSetting,
} from '../../src/settings/settings.service.js';
import { PUBLISHED_ROLES } from '../../src/settings/settings.values.js';
import { accountComponents } from '../../src/account/account.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { operatorRefusal } from '../helpers/operator-refusal.js';

/** A VALUE of every setting other than its default, and what it reads as: one per key, by type. */
const EXAMPLES: { [K in PlatformSettingKey]: [string, PlatformSettings[K]] } = {
  managed_accounts_allowed: ['off', false],
  consents_enabled: ['No', false],
  cais_references_supported: ['FALSE', false],
  payment_day_min: [' 5 ', 5],
  payment_day_max: ['28', 28],
  internal_email_addresses: [
    ' Info@Platform.Info ,billing@platform.info',
    ['info@platform.info', 'billing@platform.info'],
  ],
  billing_document_identifiers_enabled: ['no', false],
  incomplete_payments_enabled: ['Yes', true],
  required_customer_detail_namespaces: [
    'loyalty, external_user_id',
    ['loyalty', 'external_user_id'],
  ],
  document_path_check_enabled: ['ON', true],
  exclusive_user_roles: [' ADMIN , CARER', ['ADMIN', 'CARER']],
  fixed_payment_schedule_min_amount: [' 12.50 ', '12.50'],
};

it('takes the role names the account publishes, as the account writes them', () => {
  const customer = accountComponents.EnergyCustomer as {
    properties: { role: { enum: unknown[] } };
  };
  const user = accountComponents.BusinessUser as {
    properties: { business_roles: { items: { enum: unknown[] } } };
  };
  expect(customer.properties.role.enum.filter((role) => role !== null)).toEqual(PUBLISHED_ROLES);
  expect(user.properties.business_roles.items.enum).toEqual(PUBLISHED_ROLES);
});

await describeEachDialect('platform settings', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  /** Every setting back to its default, the stored values gone. */
  beforeEach(async () => {
    for (const key of PLATFORM_SETTING_KEYS) await resetPlatformSetting(db, key);
  });

  const stored = async () => {
    const { rows } = await sql<{ key: string; value: string }>`
      select key, value from settings where key like 'platform%' order by key`.execute(db.kysely);
    return rows;
  };
  const settings = async () => (await loadPlatformSettings(db)).settings;

  it('loads the defaults on a fresh database, under marker 0, every setting unset', async () => {
    const fresh = await openTestDb(dialect);
    try {
      expect(await loadPlatformSettings(fresh.db)).toEqual({
        version: 0,
        settings: DEFAULT_PLATFORM_SETTINGS,
      });
      const listed = await listPlatformSettings(fresh.db);
      expect(listed.map((s) => s.key)).toEqual(PLATFORM_SETTING_KEYS);
      expect(listed.every((s) => !s.set && s.value === s.default)).toBe(true);
    } finally {
      await fresh.destroy();
    }
    expect(DEFAULT_PLATFORM_SETTINGS).toMatchObject({
      managed_accounts_allowed: true,
      payment_day_min: 1,
      payment_day_max: 31,
      internal_email_addresses: [],
      incomplete_payments_enabled: false,
      document_path_check_enabled: false,
    });
  });

  it.each(PLATFORM_SETTING_KEYS)('sets %s from its VALUE text and resets it', async (key) => {
    const [text, value] = EXAMPLES[key];
    const before = await readPlatformSettingsVersion(db);
    const change = await setPlatformSetting(db, ` ${key} `, text);
    expect(change).toEqual({
      key,
      value,
      default: DEFAULT_PLATFORM_SETTINGS[key],
      set: true,
      previous: DEFAULT_PLATFORM_SETTINGS[key],
      changed: true,
    });
    expect((await settings())[key]).toEqual(value);
    expect(await stored()).toEqual([
      { key: `platform.${key}`, value: JSON.stringify(value) },
      { key: 'platform_settings_version', value: String(before + 1) },
    ]);
    expect((await listPlatformSettings(db)).find((s) => s.key === key)).toMatchObject({
      value,
      set: true,
    });

    const reset = await resetPlatformSetting(db, key);
    expect(reset).toMatchObject({
      value: DEFAULT_PLATFORM_SETTINGS[key],
      set: false,
      changed: true,
    });
    expect(reset.previous).toEqual(value);
    expect(await settings()).toEqual(DEFAULT_PLATFORM_SETTINGS);
    expect(await readPlatformSettingsVersion(db)).toBe(before + 2);
  });

  it('reads every spelling of a boolean, and "" as the empty list', async () => {
    for (const [text, value] of [
      ['true', true],
      ['False', false],
      [' on ', true],
      ['OFF', false],
      ['yes', true],
      ['nO', false],
    ] as const) {
      expect((await setPlatformSetting(db, 'consents_enabled', text)).value).toBe(value);
    }
    await setPlatformSetting(db, 'internal_email_addresses', 'a@platform.info');
    const emptied = await setPlatformSetting(db, 'internal_email_addresses', '  ');
    expect(emptied).toMatchObject({ value: [], set: true, changed: true });
  });

  it('raises the marker by one only when a value in force changes', async () => {
    const marker = () => readPlatformSettingsVersion(db);
    const start = await marker();
    expect((await setPlatformSetting(db, 'payment_day_min', '3')).changed).toBe(true);
    expect(await marker()).toBe(start + 1);

    // The same value again, a reset of a setting not set: nothing changes.
    expect((await setPlatformSetting(db, 'payment_day_min', '03')).changed).toBe(false);
    expect((await resetPlatformSetting(db, 'consents_enabled')).changed).toBe(false);
    // Its default given as a value: the setting is now set, but its value in force is the same.
    const explicit = await setPlatformSetting(db, 'managed_accounts_allowed', 'true');
    expect(explicit).toMatchObject({ value: true, set: true, changed: false });
    expect(await marker()).toBe(start + 1);

    // Two changes at once are two writes, one after the other: each counted once.
    await Promise.all([
      setPlatformSetting(db, 'payment_day_max', '20'),
      setPlatformSetting(db, 'document_path_check_enabled', 'on'),
    ]);
    expect(await marker()).toBe(start + 3);
  });

  it('refuses an unknown key, naming every key, and changes nothing', async () => {
    const before = await stored();
    const message = await operatorRefusal(setPlatformSetting(db, 'payment_day', '3'));
    expect(message).toBe(
      `unknown setting "payment_day": use one of ${PLATFORM_SETTING_KEYS.join(', ')}`,
    );
    expect(await operatorRefusal(resetPlatformSetting(db, 'Consents_Enabled'))).toMatch(
      /^unknown setting "Consents_Enabled": use one of managed_accounts_allowed, /,
    );
    expect(await operatorRefusal(setPlatformSetting(db, '', 'on'))).toMatch(
      /^unknown setting "": /,
    );
    expect(await stored()).toEqual(before);
  });

  describe('refuses a bad value, saying what is expected, and changes nothing', () => {
    const BOOLEAN = 'expected true or false (or on/off, yes/no)';
    const DAY = 'expected a whole number from 1 to 31';
    const EMAILS = 'expected e-mail addresses separated by commas, or "" for none';
    const NAMESPACES = 'expected namespaces separated by commas, or "" for none';
    const AMOUNT = 'expected an amount such as 10 or 12.50, not negative';
    it.each([
      ['consents_enabled', 'maybe', BOOLEAN],
      ['consents_enabled', '', BOOLEAN],
      ['consents_enabled', '1', BOOLEAN],
      ['payment_day_min', '0', DAY],
      ['payment_day_max', '32', DAY],
      ['payment_day_min', '1.5', DAY],
      ['payment_day_min', 'five', DAY],
      ['payment_day_min', '', DAY],
      ['payment_day_min', '99999999999999999999', DAY],
      ['internal_email_addresses', 'info@', `${EMAILS}; item 1: Enter a valid e-mail address`],
      [
        'internal_email_addresses',
        'a@platform.info,,b@platform.info',
        `${EMAILS}; item 2: This item may not be blank`,
      ],
      [
        'internal_email_addresses',
        'a@platform.info, A@Platform.info',
        `${EMAILS}; item 2: "a@platform.info" is listed twice`,
      ],
      [
        'required_customer_detail_namespaces',
        'loyalty,a\u202Eb',
        `${NAMESPACES}; item 2: Expected a name of 1 to 255 characters, without control or bidirectional formatting characters`,
      ],
      [
        'exclusive_user_roles',
        'admin',
        `expected role names separated by commas, or "" for none; item 1: Expected one of: ${PUBLISHED_ROLES.join(', ')}`,
      ],
      [
        'exclusive_user_roles',
        'ADMIN,ADMIN',
        'expected role names separated by commas, or "" for none; item 2: "ADMIN" is listed twice',
      ],
      ['fixed_payment_schedule_min_amount', '-1', AMOUNT],
      ['fixed_payment_schedule_min_amount', '1.234', AMOUNT],
      ['fixed_payment_schedule_min_amount', 'ten', AMOUNT],
      ['fixed_payment_schedule_min_amount', '', AMOUNT],
    ])('%s %j', async (key, value, expected) => {
      const before = await stored();
      const message = await operatorRefusal(setPlatformSetting(db, key, value));
      expect(message).toMatch(/^invalid value ".*" for /);
      expect(message.slice(message.indexOf(`for ${key}: `) + key.length + 6)).toBe(expected);
      expect(await stored()).toEqual(before);
    });

    it('a list of more items than allowed', async () => {
      const many = Array.from({ length: 1001 }, (_, i) => `ns${i}`).join(',');
      expect(
        await operatorRefusal(setPlatformSetting(db, 'required_customer_detail_namespaces', many)),
      ).toMatch(/; Ensure this list has at most 1000 items$/);
    });
  });

  it('refuses a first payment day after the last, either way round', async () => {
    await setPlatformSetting(db, 'payment_day_max', '10');
    const marker = await readPlatformSettingsVersion(db);
    expect(await operatorRefusal(setPlatformSetting(db, 'payment_day_min', '11'))).toBe(
      'cannot set payment_day_min to 11: payment_day_min (11) would be after payment_day_max ' +
        '(10); the earliest payment day may not come after the latest',
    );
    await setPlatformSetting(db, 'payment_day_min', '10');
    expect(await operatorRefusal(setPlatformSetting(db, 'payment_day_max', '9'))).toMatch(
      /^cannot set payment_day_max to 9: payment_day_min \(10\) would be after payment_day_max \(9\)/,
    );
    expect(await settings()).toMatchObject({ payment_day_min: 10, payment_day_max: 10 });
    expect(await readPlatformSettingsVersion(db)).toBe(marker + 1);

    // Back to the defaults one by one: 1 to 31 never conflicts.
    expect((await resetPlatformSetting(db, 'payment_day_max')).value).toBe(31);
    expect((await resetPlatformSetting(db, 'payment_day_min')).value).toBe(1);
  });

  it('falls back to the default for a stored value it cannot read, listed as not set', async () => {
    await sql`insert into settings (key, value) values
      ('platform.payment_day_min', '"five"'),
      ('platform.consents_enabled', 'not json'),
      ('platform.internal_email_addresses', '["ops@platform.info"]'),
      ('platform.no_such_setting', 'true')`.execute(db.kysely);
    const { settings: loaded } = await loadPlatformSettings(db);
    expect(loaded).toEqual({
      ...DEFAULT_PLATFORM_SETTINGS,
      internal_email_addresses: ['ops@platform.info'],
    });
    const listed = await listPlatformSettings(db);
    expect(listed.find((s) => s.key === 'payment_day_min')).toMatchObject({ value: 1, set: false });
    expect(listed.find((s) => s.key === 'internal_email_addresses')?.set).toBe(true);
    expect(listed).toHaveLength(PLATFORM_SETTING_KEYS.length);

    // A reset removes the unreadable value; the value in force was the default all along.
    expect((await resetPlatformSetting(db, 'payment_day_min')).changed).toBe(false);
    await sql`delete from settings where key = 'platform.no_such_setting'`.execute(db.kysely);
  });

  it('loads frozen settings, and again only after a change', async () => {
    await setPlatformSetting(db, 'internal_email_addresses', 'ops@platform.info');
    const loaded = await loadPlatformSettings(db);
    expect(loaded.version).toBe(await readPlatformSettingsVersion(db));
    expect(Object.isFrozen(loaded.settings)).toBe(true);
    expect(() => (loaded.settings.internal_email_addresses as string[]).push('x@y.zz')).toThrow(
      TypeError,
    );

    expect(await refreshPlatformSettings(db, loaded)).toBe(loaded);
    await setPlatformSetting(db, 'internal_email_addresses', 'ops@platform.info');
    expect(await refreshPlatformSettings(db, loaded)).toBe(loaded);

    await setPlatformSetting(db, 'incomplete_payments_enabled', 'on');
    const reloaded = await refreshPlatformSettings(db, loaded);
    expect(reloaded.version).toBe(loaded.version + 1);
    expect(reloaded.settings.incomplete_payments_enabled).toBe(true);
  });
});
