import { describe, expect, it } from 'vitest';
import { errorsOf, fullAccount, meterOf, meterPointOf, type Json } from '../full-account.js';

const POINTS = 'supply_addresses.0.meter_points';
const ELEC = `${POINTS}.0`;
const GAS = `${POINTS}.1`;

const readingsOf = (meter: Json, list = 'transfer_readings') => meter[list] as Json[];
const read = (date: string, overrides: Json = {}): Json => ({
  register_id: '1',
  reading_date: date,
  reading_value: '1010.00',
  reading_type: 'CUSTOMER',
  ...overrides,
});

describe('readings against the last billed to date', () => {
  it('passes the published account', () => {
    expect(errorsOf(fullAccount())).toEqual([]);
  });

  it('needs an agreement in force on the last billed to date, its end day included', () => {
    const account = fullAccount();
    const point = meterPointOf(account, 0);
    const agreement = (point.agreements as Json[])[0] as Json;
    // The point is still on supply: an agreement follows the one ending on that date.
    point.agreements = [
      { ...agreement, effective_to: '2019-08-01' },
      { ...agreement, effective_from: '2019-08-02' },
    ];
    expect(errorsOf(account)).toEqual([]);
    point.agreements = [{ ...agreement, effective_from: '2019-08-02' }];
    expect(errorsOf(account)).toEqual([
      { attr: `${ELEC}.agreements`, code: 'no_agreement_covering_last_billed_to_date' },
    ]);
  });

  it('needs a last billed to date for every meter of a billed account', () => {
    const account = fullAccount();
    delete account.last_billed_to_date;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.registers.0.last_billed_to_date`,
        code: 'last_billed_to_date_not_found',
      },
      { attr: `${GAS}.meters.0.last_billed_to_date`, code: 'last_billed_to_date_not_found' },
    ]);
    // A meter point's date serves its meters.
    meterPointOf(account, 0).last_billed_to_date = '2019-08-01';
    meterOf(account, 1).last_billed_to_date = '2019-08-01';
    expect(errorsOf(account)).toEqual([]);
  });

  it('does not ask an account never billed for a last billed to date', () => {
    const account = fullAccount();
    delete account.last_billed_to_date;
    delete account.statements;
    for (const ledger of account.ledgers as Json[]) {
      delete ledger.historical_statement_transactions;
      delete ledger.last_statement_closing_date;
    }
    expect(errorsOf(account).map((e) => e.code)).not.toContain('last_billed_to_date_not_found');
  });

  it('takes transfer readings on the last billed to date, a meter date before the account one', () => {
    const account = fullAccount();
    const gas = meterOf(account, 1);
    (readingsOf(gas)[0] as Json).reading_date = '2019-07-31';
    expect(errorsOf(account)).toEqual([
      {
        attr: `${GAS}.meters.0.transfer_readings.0.reading_date`,
        code: 'transfer_reading_dates_must_match_last_billed_to_date',
      },
    ]);
    gas.last_billed_to_date = '2019-07-31';
    expect(errorsOf(account)).toEqual([]);
  });

  it('refuses a billed reading after the last billed to date, not an unbilled one', () => {
    const account = fullAccount();
    const history = readingsOf(meterOf(account, 0), 'reading_history');
    history.push(read('2019-08-02', { billed: false }));
    expect(errorsOf(account)).toEqual([]);
    (history[2] as Json).billed = true;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.reading_history.2.reading_date`,
        code: 'billed_reading_after_last_billed_to_date',
      },
    ]);
  });
});

describe('transfer readings of active meters', () => {
  it('needs one transfer reading per settlement register', () => {
    const account = fullAccount();
    const meter = meterOf(account, 0);
    readingsOf(meter).push(read('2019-08-01'));
    expect(errorsOf(account)).toEqual([
      { attr: `${ELEC}.meters.0.registers.0`, code: 'multiple_transfer_readings_for_register' },
    ]);
    delete meter.transfer_readings;
    expect(errorsOf(account)).toEqual([
      { attr: `${ELEC}.meters.0.registers.0`, code: 'missing_transfer_reading_for_register' },
    ]);
  });

  it('needs one transfer reading per active gas meter', () => {
    const account = fullAccount();
    const meter = meterOf(account, 1);
    readingsOf(meter).push({ ...readingsOf(meter)[0] });
    expect(errorsOf(account)).toEqual([
      {
        attr: `${GAS}.meters.0.transfer_readings`,
        code: 'active_gas_meter_with_multiple_transfer_readings',
      },
    ]);
    delete meter.transfer_readings;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${GAS}.meters.0.transfer_readings`,
        code: 'active_gas_meter_without_transfer_reading',
      },
    ]);
  });

  it('refuses transfer readings and prepay details on a meter billed to its removal', () => {
    const account = fullAccount();
    const meter = meterOf(account, 1);
    meter.removed_on = '2019-07-01';
    // The point stays on supply through a meter installed after the removal.
    (meterPointOf(account, 1).meters as Json[]).push({
      meter_serial_number: '55BV',
      installed_on: '2019-07-02',
      gas_number_of_digits: 5,
      transfer_readings: [
        { reading_date: '2019-08-01', reading_value: '500.00', reading_type: 'CUSTOMER' },
      ],
    });
    expect(errorsOf(account)).toEqual([
      { attr: `${GAS}.meters.0.prepay_details`, code: 'prepay_details_on_fully_billed_meter' },
      { attr: `${GAS}.meters.0.transfer_readings`, code: 'reading_meter_fully_billed' },
    ]);
    delete meter.transfer_readings;
    delete meter.prepay_details;
    expect(errorsOf(account)).toEqual([]);
  });

  it('takes the vend read on the last billed to date or the day before', () => {
    const account = fullAccount();
    const details = meterOf(account, 1).prepay_details as Json;
    details.transfer_vend_read_date = '2019-08-01';
    expect(errorsOf(account)).toEqual([]);
    details.transfer_vend_read_date = '2019-07-30';
    expect(errorsOf(account)).toEqual([
      {
        attr: `${GAS}.meters.0.prepay_details.transfer_vend_read_date`,
        code: 'transfer_vend_read_date_must_match_last_billed_to_date',
      },
    ]);
  });

  it.each([
    ['missing', undefined, 'required'],
    ['blank', '  ', 'blank'],
    ['null', null, 'null'],
  ])('reports a %s vend read date as such, not against the billed date', (_name, value, code) => {
    const account = fullAccount();
    const details = meterOf(account, 1).prepay_details as Json;
    if (value === undefined) delete details.transfer_vend_read_date;
    else details.transfer_vend_read_date = value;
    expect(errorsOf(account)).toEqual([
      { attr: `${GAS}.meters.0.prepay_details.transfer_vend_read_date`, code },
    ]);
  });
});

describe('consumption history and the end of supply', () => {
  it('needs an EAC for the TPR of each active settlement register', () => {
    const account = fullAccount();
    for (const eac of meterPointOf(account, 0).eac_history as Json[]) eac.tpr = '00206';
    expect(errorsOf(account)).toEqual([
      { attr: `${ELEC}.meters.0.registers.0.tpr`, code: 'missing_eacs_for_active_register_tpr' },
    ]);
  });

  it('needs an AQ entry running today or later on a gas meter point on supply', () => {
    const account = fullAccount();
    const current = (meterPointOf(account, 1).aq_history as Json[])[0] as Json;
    current.effective_to = '2026-11-26';
    expect(errorsOf(account)).toEqual([]);
    current.effective_to = '2026-11-25';
    expect(errorsOf(account)).toEqual([
      { attr: `${GAS}.aq_history`, code: 'no_current_or_future_aq_entry_found' },
    ]);
  });

  it('needs a reading on the supply end date of a meter point off supply', () => {
    const account = fullAccount();
    meterPointOf(account, 1).supply_end_date = '2019-09-01';
    ((meterPointOf(account, 1).agreements as Json[])[0] as Json).effective_to = '2019-09-01';
    expect(errorsOf(account)).toEqual([
      { attr: `${GAS}.supply_end_date`, code: 'no_reading_on_supply_end_date' },
    ]);
    meterOf(account, 1).reading_history = [
      { reading_date: '2019-09-01', reading_value: '510', reading_type: 'CUSTOMER', billed: false },
    ];
    expect(errorsOf(account)).toEqual([]);
  });
});

describe('exchanged meters', () => {
  /** The published electricity meter removed on 2019-09-01 and replaced the same day. */
  function exchanged(): Json {
    const account = fullAccount();
    meterOf(account, 0).removed_on = '2019-09-01';
    (meterPointOf(account, 0).meters as Json[]).push({
      meter_serial_number: 'Z16N389557',
      installed_on: '2019-09-01',
      registers: [{ register_id: '1', tpr: '00001', number_of_digits: 5 }],
    });
    return account;
  }

  it('needs a reading on removal and a last billed to date of the old meter own', () => {
    expect(errorsOf(exchanged())).toEqual([
      { attr: `${ELEC}.meters.0.removed_on`, code: 'no_reading_on_removed_on' },
      {
        attr: `${ELEC}.meters.0.registers.0.last_billed_to_date`,
        code: 'no_last_billed_to_date_on_exchanged_meter',
      },
    ]);
  });

  /** An exchange with what the old meter needs. */
  function completeExchange(): Json {
    const account = exchanged();
    const old = meterOf(account, 0);
    ((old.registers as Json[])[0] as Json).last_billed_to_date = '2019-08-01';
    readingsOf(old, 'reading_history').push(read('2019-09-01', { billed: false }));
    return account;
  }

  it('passes with them, the new meter needing no transfer reading', () => {
    expect(errorsOf(completeExchange())).toEqual([]);
  });

  it('needs transfer readings of the old meter', () => {
    const account = completeExchange();
    delete meterOf(account, 0).transfer_readings;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.transfer_readings`,
        code: 'no_transfer_reading_on_exchanged_meter',
      },
    ]);
  });

  it('refuses a last billed to date of the new meter own', () => {
    const account = completeExchange();
    const meters = meterPointOf(account, 0).meters as Json[];
    const register = ((meters[1] as Json).registers as Json[])[0] as Json;
    register.last_billed_to_date = '2019-09-01';
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.1.registers.0.last_billed_to_date`,
        code: 'last_billed_to_date_on_new_meter',
      },
    ]);
  });
});

describe('meters and registers', () => {
  it('needs registers on an active electricity meter', () => {
    const account = fullAccount();
    (meterPointOf(account, 0).meters as Json[]).push({
      meter_serial_number: 'Z16N389557',
      installed_on: '2001-01-01',
    });
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.1.registers`,
        code: 'registers_missing_for_active_electricity_meter',
      },
    ]);
  });

  it('needs a TPR on each register of a meter point that is not half-hourly', () => {
    const account = fullAccount();
    delete ((meterOf(account, 0).registers as Json[])[1] as Json).tpr;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.registers.1.tpr`,
        code: 'registers_missing_for_active_electricity_meter',
      },
    ]);
    meterPointOf(account, 0).measurement_class = 'C';
    expect(errorsOf(account)).toEqual([]);
  });

  it('keeps smart fields to smart meters', () => {
    const account = fullAccount();
    meterOf(account, 0).smart_device_id = '000D6F000AB1C2D3';
    meterOf(account, 1).smart_type = 'NONE';
    meterOf(account, 1).smart_commissioned_on = '2019-01-01';
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.smart_device_id`,
        code: 'smart_details_provided_for_non_smart_meter',
      },
      {
        attr: `${GAS}.meters.0.smart_commissioned_on`,
        code: 'smart_details_provided_for_non_smart_meter',
      },
    ]);
  });

  it('keeps prepay fields to prepay meters', () => {
    const account = fullAccount();
    meterOf(account, 0).prepay_customer_reference_number = '12345';
    meterOf(account, 1).is_prepay = false;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.prepay_customer_reference_number`,
        code: 'prepay_details_on_non_prepay_meter',
      },
      { attr: `${GAS}.meters.0.prepay_details`, code: 'prepay_details_on_non_prepay_meter' },
    ]);
  });

  it('needs a customer reference number on an active electricity prepay meter', () => {
    const account = fullAccount();
    const meter = meterOf(account, 0);
    meter.is_prepay = true;
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.prepay_customer_reference_number`,
        code: 'electricity_prepay_meter_without_customer_reference_number',
      },
    ]);
    meter.prepay_customer_reference_number = '12345';
    expect(errorsOf(account)).toEqual([]);
  });

  it('needs transfer readings to name a register of the meter', () => {
    const account = fullAccount();
    const readings = readingsOf(meterOf(account, 0));
    const { register_id: _named, ...unnamed } = read('2019-08-01');
    readings.push(unnamed, read('2019-08-01', { register_id: 'Z' }));
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.transfer_readings.1.register_id`,
        code: 'reading_without_register_id',
      },
      {
        attr: `${ELEC}.meters.0.transfer_readings.2.register_id`,
        code: 'reading_register_id_not_recognised',
      },
    ]);
  });

  it('needs historical readings to name a register of the meter', () => {
    const account = fullAccount();
    const history = readingsOf(meterOf(account, 0), 'reading_history');
    delete (history[0] as Json).register_id;
    (history[1] as Json).register_id = 'Z';
    expect(errorsOf(account)).toEqual([
      {
        attr: `${ELEC}.meters.0.reading_history.0.register_id`,
        code: 'no_register_id_for_reading',
      },
      {
        attr: `${ELEC}.meters.0.reading_history.1.register_id`,
        code: 'historical_reading_register_id_not_recognised',
      },
    ]);
  });
});
