/**
 * The field rules on one value: meter serial numbers, company numbers, smart device ids and the
 * industry processes that stop an import. List rules are in list-rules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildGasMeterPoint, buildMeterPoint } from './factory.js';
import {
  errorsOf,
  fullAccount,
  meterOf,
  meterPointOf,
  supplyAddressOf,
  validated,
  type Json,
} from './full-account.js';
import { HAS_REFERENCE } from './reference.js';

const POINTS = 'supply_addresses.0.meter_points';

describe.skipIf(!HAS_REFERENCE)('field rules of the published account', () => {
  it('validates the published account and the test factory meters with no error', () => {
    const account = fullAccount();
    expect(errorsOf(account)).toEqual([]);
    supplyAddressOf(account).meter_points = [buildMeterPoint(), buildGasMeterPoint()];
    expect(errorsOf(account)).toEqual([]);
  });

  describe('meter_serial_number', () => {
    it('upper-cases electricity (at most 10) and gas (at most 14) serial numbers', () => {
      const account = fullAccount();
      meterOf(account, 0).meter_serial_number = 'z16n389556';
      meterOf(account, 1).meter_serial_number = 'e6s12345671960';
      const points = validated(account).supply_addresses?.[0]?.meter_points;
      expect(points?.[0]?.meters?.[0]?.meter_serial_number).toBe('Z16N389556');
      expect(points?.[1]?.meters?.[0]?.meter_serial_number).toBe('E6S12345671960');
    });

    it.each([
      ['an electricity one of 11 characters', 0, 'Z16N3895561'],
      ['a gas one of 15 characters', 1, 'E6S123456719601'],
      ['one with a hyphen', 0, 'Z16-389556'],
      ['one with an inner space', 1, '54 BV'],
      ['one with a non-ASCII letter', 1, '54BÉ'],
    ])('refuses %s', (_name, point, serial) => {
      const account = fullAccount();
      meterOf(account, point).meter_serial_number = serial;
      expect(errorsOf(account)).toEqual([
        {
          attr: `${POINTS}.${point}.meters.0.meter_serial_number`,
          code: 'invalid_meter_serial_number',
        },
      ]);
    });

    it('reports an empty serial number as blank', () => {
      const account = fullAccount();
      meterOf(account, 0).meter_serial_number = ' ';
      expect(errorsOf(account)).toEqual([
        { attr: `${POINTS}.0.meters.0.meter_serial_number`, code: 'blank' },
      ]);
    });
  });

  describe('company_number', () => {
    it.each([
      ['eight digits', '12345678', '12345678'],
      ['fewer digits, padded', '1234567', '01234567'],
      ['a Scottish prefix, padded and upper-cased', 'sc 1234', 'SC001234'],
      ['an LLP prefix', 'OC301234', 'OC301234'],
      ['a Northern Irish prefix', 'NI012345', 'NI012345'],
      ['the pre-partition prefix R0', 'R0123', 'R0000123'],
      ['an overseas prefix', 'FC 012345', 'FC012345'],
      ['a number ending in a letter', 'ni01234a', 'NI01234A'],
      ['a registered society', 'RS123CUS', 'RS123CUS'],
    ])('accepts %s on the account and on both kinds of business', (_name, given, standard) => {
      // A domestic account has no company number (business_fields_provided_for_domestic_accounts).
      const account = fullAccount();
      account.account_type = 'BUSINESS';
      account.company_number = given;
      account.business = { company_name: 'Acme', company_number: given };
      expect(validated(account)).toMatchObject({
        company_number: standard,
        business: { company_number: standard },
      });
      account.business = { business_contract_identifiers: ['C-1'], company_number: given };
      expect(validated(account).business).toMatchObject({ company_number: standard });
    });

    it.each([
      ['nine digits', '123456789'],
      ['only zeros', '00000000'],
      ['a three-letter prefix', 'ABC12345'],
      ['a one-letter prefix', 'S1234567'],
      ['a prefix and seven digits', 'SC1234567'],
      ['a hyphen', '0123-4567'],
    ])('refuses %s wherever it is given', (_name, given) => {
      const account = fullAccount();
      account.company_number = given;
      account.business = { company_name: 'Acme', company_number: given };
      expect(errorsOf(account)).toEqual([
        { attr: 'business.company_number', code: 'invalid_company_number' },
        { attr: 'company_number', code: 'invalid_company_number' },
      ]);
      account.business = { business_contract_identifier: 'C-1', company_number: given };
      expect(errorsOf(account)).toContainEqual({
        attr: 'business.company_number',
        code: 'invalid_company_number',
      });
    });
  });

  describe('smart_device_id', () => {
    it.each([
      ['paired with hyphens', '00-0d-6f-00-0a-b1-c2-d3'],
      ['written together', '000D6F000AB1C2D3'],
      ['paired with colons', '00:0D:6F:00:0A:B1:C2:D3'],
      ['paired with spaces', '00 0D 6F 00 0A B1 C2 D3'],
    ])('writes one %s as upper-case pairs joined by hyphens', (_name, given) => {
      const account = fullAccount();
      // Smart fields belong on smart meters (the published gas meter is one).
      meterOf(account, 0).smart_type = 'SMETS2';
      meterOf(account, 0).smart_device_id = given;
      meterOf(account, 1).smart_device_id = given;
      const points = validated(account).supply_addresses?.[0]?.meter_points;
      expect(points?.[0]?.meters?.[0]?.smart_device_id).toBe('00-0D-6F-00-0A-B1-C2-D3');
      expect(points?.[1]?.meters?.[0]?.smart_device_id).toBe('00-0D-6F-00-0A-B1-C2-D3');
    });

    it.each([
      ['seven pairs', '00-0D-6F-00-0A-B1-C2'],
      ['nine pairs', '00-0D-6F-00-0A-B1-C2-D3-E4'],
      ['mixed separators', '00-0D:6F-00-0A-B1-C2-D3'],
      ['a digit that is not hex', '00-0D-6F-00-0A-B1-C2-G3'],
      ['separators between single digits', '0-00-D6-F0-00-AB-1C-2D-3'],
    ])('refuses %s', (_name, given) => {
      const account = fullAccount();
      meterOf(account, 1).smart_device_id = given;
      expect(errorsOf(account)).toEqual([
        { attr: `${POINTS}.1.meters.0.smart_device_id`, code: 'invalid_smart_device_id' },
      ]);
    });
  });

  describe('industry processes in progress', () => {
    it('refuses a meter point with a disputed read or an erroneous transfer in progress', () => {
      const account = fullAccount();
      meterPointOf(account, 0).dr_in_progress = true;
      meterPointOf(account, 1).et_in_progress = true;
      expect(errorsOf(account)).toEqual([
        { attr: `${POINTS}.0.dr_in_progress`, code: 'disputed_read_in_progress' },
        { attr: `${POINTS}.1.et_in_progress`, code: 'erroneous_transfer_not_in_progress' },
      ]);
      const gas = meterPointOf(account, 1);
      Object.assign(gas, { dr_in_progress: true, et_in_progress: false });
      expect(errorsOf(account)).toContainEqual({
        attr: `${POINTS}.1.dr_in_progress`,
        code: 'disputed_read_in_progress',
      });
    });

    it('accepts false, null or no flag', () => {
      const account = fullAccount();
      Object.assign(meterPointOf(account, 0), { dr_in_progress: null, et_in_progress: null });
      delete (meterPointOf(account, 1) as Json).dr_in_progress;
      expect(errorsOf(account)).toEqual([]);
    });
  });
});
