/** The rule settings of import suppliers on both databases: given on add, changed on set, listed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import type { SupplierOptions } from '../../src/operator/operator.types.js';
import { addSupplier, listSuppliers, setSupplier } from '../../src/operator/suppliers.service.js';
import { addTeam } from '../../src/operator/teams.service.js';
import {
  DEFAULT_SUPPLIER_SETTINGS,
  supplierSettingsText,
} from '../../src/settings/settings.declared.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

await describeEachDialect('operator: import supplier rule settings', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
    await addTeam(db, 'Migrations');
    await addTeam(db, 'Back office');
  });
  afterAll(() => destroy());

  const stored = async (code: string) => {
    const row = await db.kysely
      .selectFrom('import_suppliers')
      .select('rule_settings')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    return row.rule_settings;
  };
  const settingsOf = (ruleSettings: SupplierOptions['ruleSettings']): SupplierOptions => ({
    ruleSettings,
  });

  describe('add', () => {
    it('stores the defaults when none is given', async () => {
      const supplier = await addSupplier(db, 'PLAIN');
      expect(supplier.settings).toEqual(DEFAULT_SUPPLIER_SETTINGS);
      expect(await stored('PLAIN')).toBe(supplierSettingsText(DEFAULT_SUPPLIER_SETTINGS));
    });

    it('stores the settings given, the team name trimmed, the others at their default', async () => {
      const supplier = await addSupplier(
        db,
        'AUTO',
        settingsOf({ auto_allocation_team: '  Migrations ', send_registration_flows: true }),
      );
      const expected = {
        ...DEFAULT_SUPPLIER_SETTINGS,
        auto_allocation_team: 'Migrations',
        send_registration_flows: true,
      };
      expect(supplier.settings).toEqual(expected);
      expect(await stored('AUTO')).toBe(supplierSettingsText(expected));
    });

    it('refuses a team that does not exist, or a blank one, and adds nothing', async () => {
      await expect(
        addSupplier(db, 'NOTEAM', settingsOf({ auto_allocation_team: 'migrations' })),
      ).rejects.toThrow(/^operations team "migrations" does not exist/);
      await expect(
        addSupplier(db, 'NOTEAM', settingsOf({ auto_allocation_team: ' ' })),
      ).rejects.toThrow(/^invalid team name " "/);
      expect((await listSuppliers(db)).map((s) => s.code)).not.toContain('NOTEAM');
    });

    it('refuses a value an on/off setting does not take, and an on/off for a team', async () => {
      await expect(
        addSupplier(db, 'ODD', settingsOf({ skip_property_creation: 'yes' })),
      ).rejects.toThrow('--skip-property-creation takes no value');
      await expect(
        addSupplier(db, 'ODD', settingsOf({ auto_allocation_team: true })),
      ).rejects.toThrow('--auto-allocation-team needs a value');
    });
  });

  describe('set', () => {
    it('changes only the settings given, and the other options not at all', async () => {
      await addSupplier(db, 'SETME', {
        phoneRegion: 'FR',
        ...settingsOf({ create_new_portfolios: true }),
      });
      const first = await setSupplier(
        db,
        'SETME',
        settingsOf({ skip_property_creation: true, skip_supply_point_creation: true }),
      );
      expect(first).toMatchObject({ phoneRegion: 'FR', status: 'Ongoing' });
      expect(first.settings).toEqual({
        ...DEFAULT_SUPPLIER_SETTINGS,
        create_new_portfolios: true,
        skip_property_creation: true,
        skip_supply_point_creation: true,
      });

      const second = await setSupplier(db, 'SETME', {
        status: 'paused',
        ruleSettings: { create_new_portfolios: false, auto_allocation_team: 'Back office' },
      });
      expect(second.status).toBe('Paused');
      expect(second.settings).toEqual({
        ...DEFAULT_SUPPLIER_SETTINGS,
        auto_allocation_team: 'Back office',
        skip_property_creation: true,
        skip_supply_point_creation: true,
      });
      expect(await stored('SETME')).toBe(supplierSettingsText(second.settings));

      // `--no-auto-allocation-team`: none again.
      const none = await setSupplier(db, 'SETME', settingsOf({ auto_allocation_team: false }));
      expect(none.settings.auto_allocation_team).toBeNull();
      // Options other than rule settings leave the stored text as it was.
      const before = await stored('SETME');
      await setSupplier(db, 'SETME', { customerEmails: true });
      expect(await stored('SETME')).toBe(before);
    });

    it('takes two changes of different settings at once', async () => {
      await addSupplier(db, 'BOTH');
      await Promise.all([
        setSupplier(db, 'BOTH', settingsOf({ send_registration_flows: true })),
        setSupplier(db, 'BOTH', settingsOf({ enforce_business_contracts: true })),
      ]);
      const [both] = (await listSuppliers(db)).filter((s) => s.code === 'BOTH');
      expect(both?.settings).toMatchObject({
        send_registration_flows: true,
        enforce_business_contracts: true,
      });
    });

    it('refuses an unknown team or supplier, and changes nothing', async () => {
      const before = await stored('SETME');
      await expect(
        setSupplier(db, 'SETME', {
          status: 'Complete',
          ...settingsOf({ auto_allocation_team: 'Nobody' }),
        }),
      ).rejects.toThrow('operations team "Nobody" does not exist');
      expect(await stored('SETME')).toBe(before);
      expect((await listSuppliers(db)).find((s) => s.code === 'SETME')?.status).toBe('Paused');
      await expect(
        setSupplier(db, 'NOPE', settingsOf({ send_registration_flows: true })),
      ).rejects.toThrow('import supplier "NOPE" does not exist');
    });

    it('names every option when given none', async () => {
      await expect(setSupplier(db, 'SETME', { ruleSettings: {} })).rejects.toThrow(
        'nothing to change: give --status, --document-root, --customer-emails, ' +
          '--no-customer-emails, --phone-region, --auto-allocation-team, ' +
          '--no-auto-allocation-team, --send-registration-flows, --no-send-registration-flows, ' +
          '--enforce-business-contracts, --no-enforce-business-contracts, ' +
          '--link-account-to-business-with-contract, ' +
          '--no-link-account-to-business-with-contract, ' +
          '--create-new-portfolios, --no-create-new-portfolios, --skip-property-creation, ' +
          '--no-skip-property-creation, --skip-supply-point-creation or ' +
          '--no-skip-supply-point-creation',
      );
    });
  });

  it('reads a stored text it cannot fully read with the defaults for what it lacks', async () => {
    await addSupplier(db, 'OLDTEXT');
    await db.kysely
      .updateTable('import_suppliers')
      .set({ rule_settings: '{"send_registration_flows": "yes", "skip_property_creation": true}' })
      .where('code', '=', 'OLDTEXT')
      .execute();
    const [old] = (await listSuppliers(db)).filter((s) => s.code === 'OLDTEXT');
    expect(old?.settings).toEqual({ ...DEFAULT_SUPPLIER_SETTINGS, skip_property_creation: true });
    // A change writes the whole canonical text back.
    const changed = await setSupplier(db, 'OLDTEXT', settingsOf({ create_new_portfolios: true }));
    expect(await stored('OLDTEXT')).toBe(supplierSettingsText(changed.settings));
  });
});
