/**
 * The rules comparing the items of the supply side's lists: registers, bespoke rates, AQ
 * history, tax exemptions, configuration periods, capacity values and supply addresses.
 */
import { describe, expect, it } from 'vitest';
import { VALID_MPAN } from './factory.js';
import {
  errorsOf,
  fullAccount,
  meterOf,
  meterPointOf,
  supplyAddressOf,
  type Json,
} from './full-account.js';
import { HAS_REFERENCE } from './reference.js';

const POINTS = 'supply_addresses.0.meter_points';
const register = (id: string, tpr: string) => ({ register_id: id, tpr, number_of_digits: 5 });
const period = (from: string, to?: string) => ({
  effective_from_date: from,
  ...(to === undefined ? {} : { effective_to_date: to }),
});

describe.skipIf(!HAS_REFERENCE)('list rules of the supply side', () => {
  it('refuses a register id twice on one meter, not on two meters', () => {
    const account = fullAccount();
    const meter = meterOf(account, 0);
    meter.registers = [register('1', '00001'), register('2', '00043'), register('1', '00210')];
    meterPointOf(account, 0).meters = [meter, { ...meter, meter_serial_number: 'Z16N389557' }];
    expect(errorsOf(account)).toEqual([
      {
        attr: `${POINTS}.0.meters.0.registers.2.register_id`,
        code: 'meter_with_duplicate_register_ids',
      },
      {
        attr: `${POINTS}.0.meters.1.registers.2.register_id`,
        code: 'meter_with_duplicate_register_ids',
      },
    ]);
  });

  it.each([
    ['a TPR twice', ['00001', '00001'], [1]],
    ['an even TPR in the paired range twice', ['01202', '01202'], [1]],
    ['an odd TPR just past the paired range twice', ['01231', '01231'], [1]],
    ['a paired TPR three times', ['01201', '01201', '01201'], [2]],
    ['the first paired TPR twice', ['01201', '01201'], []],
    ['the last paired TPR twice', ['01229', '01229', '00001'], []],
  ])('checks %s on a meter', (_name, tprs, refused) => {
    const account = fullAccount();
    const meter = meterOf(account, 0);
    // Registers outside settlement need neither a transfer reading nor an EAC.
    meter.registers = tprs.map((tpr, i) => ({ ...register(`R${i}`, tpr), is_settlement: false }));
    delete meter.transfer_readings;
    delete meter.reading_history;
    expect(errorsOf(account)).toEqual(
      refused.map((r) => ({
        attr: `${POINTS}.0.meters.0.registers.${r}.tpr`,
        code: 'registers_have_duplicate_tprs',
      })),
    );
  });

  it('refuses a second bespoke rate for the same meter and payment method', () => {
    const account = fullAccount();
    const elec = {
      standing_charge: '20.5',
      registers: [{ unit_rate: '0.25', rate_type: 'STANDARD' }],
    };
    const gas = { standing_charge: '25', unit_rate: '0.07', meter_serial_number: '54BV' };
    const agreement = (i: number) => (meterPointOf(account, i).agreements as Json[])[0] as Json;
    agreement(0).bespoke_tariff_rates = [
      { ...elec, payment_method: 'DD' },
      { ...elec, payment_method: 'NDD' },
      { ...elec, payment_method: 'DD', standing_charge: '21' },
    ];
    agreement(1).bespoke_tariff_rates = [gas, { ...gas, meter_serial_number: 'G4A00123' }, gas];
    expect(errorsOf(account)).toEqual([
      { attr: `${POINTS}.0.agreements.0.bespoke_tariff_rates.2`, code: 'duplicate_bespoke_rates' },
      { attr: `${POINTS}.1.agreements.0.bespoke_tariff_rates.2`, code: 'duplicate_bespoke_rates' },
    ]);
  });

  describe('aq_history (an entry ends on its last day)', () => {
    const AQ = `${POINTS}.1.aq_history`;
    const aqOf = (account: Json) => meterPointOf(account, 1).aq_history as Json[];

    it('refuses a gap, an overlap and a second open-ended entry', () => {
      const account = fullAccount();
      (aqOf(account)[1] as Json).effective_to = '2018-12-30';
      expect(errorsOf(account)).toEqual([
        { attr: `${AQ}.0.effective_from`, code: 'gaps_or_overlaps_in_aq_history' },
      ]);
      (aqOf(account)[1] as Json).effective_to = '2018-12-31';
      (aqOf(account)[2] as Json).effective_to = '2018-01-01';
      expect(errorsOf(account)).toEqual([
        { attr: `${AQ}.1.effective_from`, code: 'gaps_or_overlaps_in_aq_history' },
      ]);
      (aqOf(account)[2] as Json).effective_to = '2017-12-31';
      aqOf(account).push({ effective_from: '2020-01-01', effective_to: null, consumption: '1' });
      expect(errorsOf(account)).toEqual([
        { attr: `${AQ}.3.effective_to`, code: 'multiple_open_ended_aqs_in_meterpoint_aq_history' },
        { attr: `${AQ}.3.effective_from`, code: 'gaps_or_overlaps_in_aq_history' },
      ]);
    });
  });

  describe('tax exemptions (an exemption ends on the first day without it)', () => {
    it('refuses overlaps and a second open-ended exemption, on both kinds of meter point', () => {
      const account = fullAccount();
      meterPointOf(account, 0).vat_exemptions = [
        { effective_from: '2020-01-01', effective_to: '2020-06-01', rate: '0.5' },
        { effective_from: '2020-06-01', effective_to: '2020-09-01', rate: '0.5' },
        { effective_from: '2020-08-31', rate: '0.5' },
      ];
      meterPointOf(account, 1).ccl_exemptions = [
        { effective_from: '2021-01-01', rate: '1' },
        { effective_from: '2020-01-01', rate: '1' },
      ];
      expect(errorsOf(account)).toEqual([
        {
          attr: `${POINTS}.0.vat_exemptions.2.effective_from`,
          code: 'overlapping_effective_dates_for_tax_exemptions',
        },
        {
          attr: `${POINTS}.1.ccl_exemptions.1.effective_to`,
          code: 'multiple_open_ended_tax_exemptions',
        },
        {
          attr: `${POINTS}.1.ccl_exemptions.0.effective_from`,
          code: 'overlapping_effective_dates_for_tax_exemptions',
        },
      ]);
    });
  });

  describe('configuration periods and capacity values (the next starts on the end date)', () => {
    const AT = `${POINTS}.0.configuration_periods`;

    it('accepts consecutive periods, the latest open-ended and starting today', () => {
      const account = fullAccount();
      meterPointOf(account, 0).configuration_periods = [
        period('2026-11-26'),
        period('2020-01-01', '2026-11-26'),
      ];
      meterPointOf(account, 0).capacity_values = [
        { ...period('2020-01-01', '2021-01-01'), value: '10' },
        { ...period('2021-01-01', '2022-01-01'), value: '12' },
      ];
      expect(errorsOf(account)).toEqual([]);
    });

    it.each([
      [
        'a gap',
        [period('2020-01-01', '2021-01-01'), period('2021-01-02')],
        [{ attr: `${AT}.1.effective_from_date`, code: 'gaps_or_overlaps_in_periods' }],
      ],
      [
        'an overlap',
        [period('2020-01-01', '2021-01-01'), period('2020-12-31')],
        [{ attr: `${AT}.1.effective_from_date`, code: 'gaps_or_overlaps_in_periods' }],
      ],
      [
        'a zero-length period',
        [period('2020-01-01', '2020-01-01'), period('2020-01-01')],
        [{ attr: `${AT}.0.effective_to_date`, code: 'zero_length_periods' }],
      ],
      [
        'a period starting tomorrow',
        [period('2020-01-01', '2026-11-27'), period('2026-11-27')],
        [{ attr: `${AT}.1.effective_from_date`, code: 'configuration_period_starts_in_future' }],
      ],
      [
        'an end on the latest period',
        [period('2020-01-01', '2021-01-01')],
        [{ attr: `${AT}.0.effective_to_date`, code: 'latest_configuration_period_not_open_ended' }],
      ],
    ])('refuses %s', (_name, periods, errors) => {
      const account = fullAccount();
      meterPointOf(account, 0).configuration_periods = periods;
      expect(errorsOf(account)).toEqual(errors);
    });

    it.each([[null], [1], [[]]])('reports a period sent as %j on its own', (item) => {
      const account = fullAccount();
      meterPointOf(account, 0).configuration_periods = [item];
      expect(errorsOf(account).map(({ attr }) => attr)).toEqual([`${AT}.0`]);
    });

    it('refuses capacity values that overlap or last no day', () => {
      const account = fullAccount();
      meterPointOf(account, 0).capacity_values = [
        { ...period('2020-01-01', '2020-06-01'), value: '10' },
        { ...period('2020-05-01', '2020-05-01'), value: '12' },
      ];
      const at = `${POINTS}.0.capacity_values.1`;
      expect(errorsOf(account)).toEqual([
        { attr: `${at}.effective_to_date`, code: 'zero_length_periods' },
        { attr: `${at}.effective_from_date`, code: 'gaps_or_overlaps_in_periods' },
      ]);
    });
  });

  describe('supply_addresses', () => {
    it('refuses a meter point given under two supply addresses', () => {
      const account = fullAccount();
      const second = structuredClone(supplyAddressOf(account));
      Object.assign(second, { supply_address1: '1 Other Road', supply_postcode: 'SW1A 2AA' });
      (second.meter_points as Json[])[1] = {
        ...(second.meter_points as Json[])[0],
        identifier: VALID_MPAN,
      };
      account.supply_addresses = [supplyAddressOf(account), second];
      expect(errorsOf(account)).toEqual([
        {
          attr: 'supply_addresses.1.meter_points.0.identifier',
          code: 'duplicate_meter_points_on_different_supply_addresses_provided',
        },
      ]);
    });

    it('refuses an address given twice, whatever its case, spacing or postcode form', () => {
      const account = fullAccount();
      const second = structuredClone(supplyAddressOf(account));
      Object.assign(second, { supply_address1: '123  FAKE street', supply_postcode: 'w1f9de' });
      const point = (second.meter_points as Json[])[0] as Json;
      const meter = { ...(point.meters as Json[])[0], meter_serial_number: 'Z16N389557' };
      second.meter_points = [{ ...point, identifier: VALID_MPAN, meters: [meter] }];
      account.supply_addresses = [supplyAddressOf(account), second];
      expect(errorsOf(account)).toEqual([
        { attr: 'supply_addresses.1', code: 'duplicate_supply_addresses_found' },
      ]);
      second.supply_address2 = 'Flat 2';
      expect(errorsOf(account)).toEqual([]);
    });
  });
});
