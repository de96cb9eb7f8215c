/** An import supplier's rule settings as stored: read leniently, written in one canonical text. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SUPPLIER_SETTINGS,
  readSupplierSettings,
  SUPPLIER_SETTING_KEYS,
  supplierSettingsText,
  type SupplierSettings,
} from '../../src/settings/settings.declared.js';

const CHANGED: SupplierSettings = {
  auto_allocation_team: 'Migrations',
  send_registration_flows: true,
  enforce_business_contracts: true,
  link_account_to_business_with_contract: true,
  create_new_portfolios: true,
  skip_property_creation: true,
  skip_supply_point_creation: true,
};

describe('supplier rule settings', () => {
  it('default to no team and every flag off', () => {
    expect(DEFAULT_SUPPLIER_SETTINGS).toEqual({
      auto_allocation_team: null,
      send_registration_flows: false,
      enforce_business_contracts: false,
      link_account_to_business_with_contract: false,
      create_new_portfolios: false,
      skip_property_creation: false,
      skip_supply_point_creation: false,
    });
    expect(Object.isFrozen(DEFAULT_SUPPLIER_SETTINGS)).toBe(true);
  });

  it('are written with every key in declaration order, whatever the order given', () => {
    const reversed = Object.fromEntries(
      Object.entries(CHANGED).reverse(),
    ) as unknown as SupplierSettings;
    const text = supplierSettingsText(reversed);
    expect(text).toBe(supplierSettingsText(CHANGED));
    expect(Object.keys(JSON.parse(text) as object)).toEqual(SUPPLIER_SETTING_KEYS);
    expect(supplierSettingsText(DEFAULT_SUPPLIER_SETTINGS)).toBe(
      '{"auto_allocation_team":null,"send_registration_flows":false,' +
        '"enforce_business_contracts":false,"link_account_to_business_with_contract":false,' +
        '"create_new_portfolios":false,' +
        '"skip_property_creation":false,"skip_supply_point_creation":false}',
    );
  });

  it('read back what was written', () => {
    expect(readSupplierSettings(supplierSettingsText(CHANGED))).toEqual(CHANGED);
    expect(readSupplierSettings(supplierSettingsText(DEFAULT_SUPPLIER_SETTINGS))).toEqual(
      DEFAULT_SUPPLIER_SETTINGS,
    );
  });

  it('give a missing key its default and ignore a key they do not declare', () => {
    const settings = readSupplierSettings('{"create_new_portfolios": true, "colour": "red"}');
    expect(settings).toEqual({ ...DEFAULT_SUPPLIER_SETTINGS, create_new_portfolios: true });
    expect(settings).not.toHaveProperty('colour');
    expect(readSupplierSettings('{}')).toEqual(DEFAULT_SUPPLIER_SETTINGS);
  });

  it('give a value of the wrong type its default', () => {
    const settings = readSupplierSettings(
      JSON.stringify({
        auto_allocation_team: 42,
        send_registration_flows: 'yes',
        enforce_business_contracts: 1,
        create_new_portfolios: null,
        skip_property_creation: true,
      }),
    );
    expect(settings).toEqual({ ...DEFAULT_SUPPLIER_SETTINGS, skip_property_creation: true });
    expect(readSupplierSettings('{"auto_allocation_team": "  "}').auto_allocation_team).toBeNull();
    expect(readSupplierSettings('{"auto_allocation_team": " Ops "}').auto_allocation_team).toBe(
      'Ops',
    );
  });

  it.each(['', 'not json', '[]', 'null', '"text"', '{"send_registration_flows": tru'])(
    'read %j as the defaults',
    (text) => expect(readSupplierSettings(text)).toEqual(DEFAULT_SUPPLIER_SETTINGS),
  );
});
