/**
 * The rules on supply points across the account: supply dates, billable meter points, their
 * meters and agreements, import-export meters and former supply addresses. The published full
 * account is checked on 2026-11-26: its electricity point (0) started supply on 2019-01-01,
 * its gas point (1) on 2019-04-10, each with one open-ended agreement from 2019-08-01.
 */
import { describe, expect, it } from 'vitest';
import { buildAccount, buildGasMeterPoint, buildSupplyAddress, VALID_MPAN } from '../factory.js';
import {
  context,
  errorsOf,
  fullAccount,
  meterOf,
  meterPointOf,
  supplyAddressOf,
  type Json,
} from '../full-account.js';
import { expectProblem, valueOf } from '../helpers.js';
import { HAS_REFERENCE } from '../reference.js';

const POINTS = 'supply_addresses.0.meter_points';
const TODAY = context.today;
const one = (attr: string, code: string) => [{ attr, code }];
const agreementsOf = (account: Json, i: number) => meterPointOf(account, i).agreements as Json[];
const elecAgreement = (from: string, to?: string) => ({
  tariff_code: 'ELEC-1234-J',
  effective_from: from,
  ...(to === undefined ? {} : { effective_to: to }),
});

/** A reading on `date` in the history of the first meter of point `i` (what ending supply needs). */
function readOn(account: Json, i: number, date: string): void {
  const meter = meterOf(account, i);
  const reading = {
    reading_date: date,
    reading_value: '1100.00',
    reading_type: 'CUSTOMER',
    billed: false,
  };
  meter.reading_history = [
    ...((meter.reading_history as Json[] | undefined) ?? []),
    i === 0 ? { register_id: '1', ...reading } : reading,
  ];
}

/**
 * The first meter of point 0 removed on `removed` as an exchanged meter: its own billed to date
 * on its settlement register and a reading on the day it was removed.
 */
function exchangedMeter(account: Json, removed: string): Json {
  const meter = meterOf(account, 0);
  const [settlement, ...others] = meter.registers as Json[];
  return {
    ...meter,
    removed_on: removed,
    registers: [{ ...settlement, last_billed_to_date: '2019-08-01' }, ...others],
    reading_history: [
      {
        register_id: '1',
        reading_date: removed,
        reading_value: '1100.00',
        reading_type: 'CUSTOMER',
        billed: false,
      },
    ],
  };
}

/** The full account with a second electricity point sharing the first one's meter. */
function withTwinPoint(account: Json, twin: Json = {}): Json {
  const points = supplyAddressOf(account).meter_points as Json[];
  points.push({ ...structuredClone(meterPointOf(account, 0)), identifier: VALID_MPAN, ...twin });
  return account;
}

describe.skipIf(!HAS_REFERENCE)('supply point rules on the published account', () => {
  it('passes the published account as published', () => {
    expect(errorsOf(fullAccount())).toEqual([]);
  });

  describe('supply dates', () => {
    it('refuses a supply end date after today: a loss in progress', () => {
      const account = fullAccount();
      meterPointOf(account, 0).supply_end_date = '2026-11-27';
      expect(errorsOf(account)).toEqual(one(`${POINTS}.0.supply_end_date`, 'loss_in_progress'));
    });

    it('refuses a supply end date of today: supply has not ended', () => {
      const account = fullAccount();
      meterPointOf(account, 0).supply_end_date = TODAY;
      readOn(account, 0, TODAY);
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.supply_end_date`, 'future_supply_end_date'),
      );
    });

    it('takes an ended supply whose agreements ended with it', () => {
      const account = fullAccount();
      meterPointOf(account, 0).supply_end_date = '2026-11-25';
      readOn(account, 0, '2026-11-25');
      agreementsOf(account, 0)[0] = elecAgreement('2019-08-01', '2026-11-25');
      expect(errorsOf(account)).toEqual([]);
    });

    it('refuses a billable point starting supply after today', () => {
      const account = fullAccount();
      meterPointOf(account, 0).supply_start_date = '2026-12-01';
      agreementsOf(account, 0)[0] = elecAgreement('2026-12-01');
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.supply_start_date`, 'future_supply_start_date'),
      );
      meterPointOf(account, 0).supply_start_date = TODAY;
      agreementsOf(account, 0)[0] = elecAgreement(TODAY);
      expect(errorsOf(account)).toEqual([]);
    });

    it('refuses an account none of whose meter points is on supply', () => {
      const account = fullAccount();
      for (const i of [0, 1]) {
        meterPointOf(account, i).supply_end_date = '2026-01-31';
        readOn(account, i, '2026-01-31');
        (agreementsOf(account, i)[0] as Json).effective_to = '2026-01-31';
      }
      expect(errorsOf(account)).toEqual(one('supply_addresses', 'no_supply_point_on_supply'));
    });
  });

  describe('meters of billable points', () => {
    it('refuses a billable point whose meters were all removed', () => {
      const account = fullAccount();
      meterOf(account, 0).removed_on = '2025-01-01';
      expect(errorsOf(account)).toEqual(one(`${POINTS}.0.meters`, 'meter_point_with_no_meters'));
    });

    it('refuses a billable gas point without meters', () => {
      const account = fullAccount();
      meterPointOf(account, 1).meters = [];
      expect(errorsOf(account)).toEqual(one(`${POINTS}.1.meters`, 'meter_point_with_no_meters'));
    });

    it('takes an unmetered supply (measurement class B or D) without meters', () => {
      const account = fullAccount();
      Object.assign(meterPointOf(account, 0), { measurement_class: 'D', meters: [] });
      expect(errorsOf(account)).toEqual([]);
    });

    it('takes a removed meter on a point that has left supply', () => {
      const account = fullAccount();
      meterOf(account, 0).removed_on = '2025-01-01';
      meterPointOf(account, 0).supply_end_date = '2025-01-01';
      readOn(account, 0, '2025-01-01');
      agreementsOf(account, 0)[0] = elecAgreement('2019-08-01', '2024-12-31');
      expect(errorsOf(account)).toEqual([]);
    });
  });

  describe('agreements against supply', () => {
    it('refuses a billable point whose agreements have all ended', () => {
      const account = fullAccount();
      (agreementsOf(account, 1)[0] as Json).effective_to = '2026-11-25';
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.1.agreements`, 'meter_point_with_no_agreement'),
      );
      (agreementsOf(account, 1)[0] as Json).effective_to = TODAY;
      expect(errorsOf(account)).toEqual([]);
    });

    it('refuses an agreement running past the end of supply', () => {
      const account = fullAccount();
      meterPointOf(account, 0).supply_end_date = '2026-06-30';
      readOn(account, 0, '2026-06-30');
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.agreements.0.effective_to`, 'meterpoint_with_agreement_not_on_supply'),
      );
      agreementsOf(account, 0)[0] = elecAgreement('2019-08-01', '2026-07-01');
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.agreements.0.effective_to`, 'meterpoint_with_agreement_not_on_supply'),
      );
    });

    it('refuses an agreement running on the supply start date but starting before it', () => {
      const account = fullAccount();
      agreementsOf(account, 0)[0] = elecAgreement('2018-12-01');
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.0.agreements.0.effective_from`,
          'agreement_start_date_before_supply_start_date',
        ),
      );
    });

    it('refuses the same on a gas point', () => {
      const account = fullAccount();
      (agreementsOf(account, 1)[0] as Json).effective_from = '2019-04-09';
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.1.agreements.0.effective_from`,
          'agreement_start_date_before_supply_start_date',
        ),
      );
    });
  });

  describe('agreement dates', () => {
    it('takes agreements back to back: the next starts the day after the last day', () => {
      const account = fullAccount();
      meterPointOf(account, 0).agreements = [
        elecAgreement('2019-08-01', '2020-07-31'),
        elecAgreement('2020-08-01'),
      ];
      expect(errorsOf(account)).toEqual([]);
    });

    it('refuses a gap within the supply period', () => {
      const account = fullAccount();
      meterPointOf(account, 0).agreements = [
        elecAgreement('2020-08-02'),
        elecAgreement('2019-08-01', '2020-07-31'),
      ];
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.agreements.0.effective_from`, 'gaps_or_overlaps_in_agreement_dates'),
      );
    });

    it('refuses an overlap, with an open-ended agreement too', () => {
      const account = fullAccount();
      meterPointOf(account, 0).agreements = [
        elecAgreement('2019-08-01', '2020-07-31'),
        elecAgreement('2020-07-31'),
      ];
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.agreements.1.effective_from`, 'gaps_or_overlaps_in_agreement_dates'),
      );
      meterPointOf(account, 0).agreements = [
        elecAgreement('2019-08-01'),
        elecAgreement('2024-01-01'),
      ];
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.agreements.1.effective_from`, 'gaps_or_overlaps_in_agreement_dates'),
      );
    });

    it('allows gaps among agreements before the supply start date', () => {
      const account = fullAccount();
      meterPointOf(account, 0).agreements = [
        elecAgreement('2016-01-01', '2016-12-31'),
        elecAgreement('2017-06-01', '2018-12-31'),
        elecAgreement('2019-08-01'),
      ];
      expect(errorsOf(account)).toEqual([]);
    });
  });

  describe('meters sharing a serial number on one point', () => {
    it('takes a dummy exchange installed the day after the meter was removed', () => {
      const account = fullAccount();
      const meter = meterOf(account, 0);
      meterPointOf(account, 0).meters = [
        { ...meter, removed_on: null, installed_on: '2020-01-02' },
        exchangedMeter(account, '2020-01-01'),
      ];
      expect(errorsOf(account)).toEqual([]);
    });

    it('refuses any other pair', () => {
      const account = fullAccount();
      const meter = meterOf(account, 0);
      meterPointOf(account, 0).meters = [
        exchangedMeter(account, '2020-01-01'),
        { ...meter, removed_on: null, installed_on: '2020-01-05' },
      ];
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.0.meters.1.meter_serial_number`,
          'multiple_non_dmex_meters_with_serial_number',
        ),
      );
    });

    it('refuses a second gas meter with the serial number, neither removed', () => {
      const account = fullAccount();
      const meter = meterOf(account, 1);
      meterPointOf(account, 1).meters = [meter, { ...meter, installed_on: '2003-01-01' }];
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.1.meters.1.meter_serial_number`,
          'multiple_non_dmex_meters_with_serial_number',
        ),
      );
    });
  });

  describe('import-export meters', () => {
    it('takes a twin element meter: an import point and an IMPORT_EXPORT point', () => {
      const account = withTwinPoint(fullAccount(), { export_type: 'IMPORT_EXPORT' });
      expect(errorsOf(account)).toEqual([]);
    });

    it('refuses an import-export meter without its import point', () => {
      const account = fullAccount();
      meterPointOf(account, 0).export_type = 'IMPORT_EXPORT';
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.0.meters.0.meter_serial_number`, 'import_meter_not_found_for_export_meter'),
      );
    });

    it('refuses two IMPORT_EXPORT points on one meter', () => {
      const account = fullAccount();
      meterPointOf(account, 0).export_type = 'IMPORT_EXPORT';
      withTwinPoint(account);
      expect(errorsOf(account)).toEqual(
        one(`${POINTS}.2.meters.0.meter_serial_number`, 'import_meter_not_found_for_export_meter'),
      );
    });

    it('refuses a meter on two points that is not a twin element meter', () => {
      const account = withTwinPoint(fullAccount());
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.2.meters.0.meter_serial_number`,
          'unexpected_number_of_meter_points_found_for_meter',
        ),
      );
    });
  });

  describe('agents', () => {
    it('refuses agents with the older fields naming agents to appoint', () => {
      const account = fullAccount();
      Object.assign(meterPointOf(account, 0), { agents: {}, mop_to_appoint: 'EMOP' });
      // The supplier sends no registration flows (the default): no agent is appointed either.
      expect(errorsOf(account)).toEqual([
        ...one(`${POINTS}.0.agents`, 'agents_and_mpids_to_appoint_provided'),
        ...one(`${POINTS}.0.mop_to_appoint`, 'agents_supplied_for_non_on_market_switch'),
      ]);
      meterPointOf(account, 0).mop_to_appoint = null;
      expect(errorsOf(account)).toEqual([]);
    });
  });

  describe('bespoke electricity rates', () => {
    it('refuses a register rate with neither a register id nor a rate type', () => {
      const account = { ...fullAccount(), account_type: 'BUSINESS' };
      const registers = [{ unit_rate: '0.25', register_id: '1' }, { unit_rate: '0.2' }];
      (agreementsOf(account, 0)[0] as Json).bespoke_tariff_rates = [
        { standing_charge: '20.5', registers },
      ];
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.0.agreements.0.bespoke_tariff_rates.0.registers.1`,
          'no_register_id_or_rate_type_provided_for_bespoke_elec_rate',
        ),
      );
      registers[1] = { unit_rate: '0.2', rate_type: 'ECO7_NIGHT' } as (typeof registers)[1];
      expect(errorsOf(account)).toEqual([]);
    });
  });

  describe('business contracts', () => {
    it("refuses an agreement's contract the business does not declare", () => {
      const account = fullAccount();
      Object.assign(account, {
        business: { business_contract_identifiers: ['BC-1'], company_name: 'Acme' },
      });
      (agreementsOf(account, 1)[0] as Json).business_contract_identifier = 'BC-2';
      expect(errorsOf(account)).toEqual(
        one(
          `${POINTS}.1.agreements.0.business_contract_identifier`,
          'agreement_business_contract_identifier_not_declared',
        ),
      );
      (agreementsOf(account, 1)[0] as Json).business_contract_identifier = 'BC-1';
      expect(errorsOf(account)).toEqual([]);
    });
  });

  describe('former supply addresses', () => {
    it('refuses an address the customer left before it was billed to that day', () => {
      const account = fullAccount();
      supplyAddressOf(account).customer_at_supply_address_to_date = '2026-01-31';
      expect(errorsOf(account)).toEqual(
        one(
          'supply_addresses.0.customer_at_supply_address_to_date',
          'unbilled_former_supply_address',
        ),
      );
      meterPointOf(account, 0).last_billed_to_date = '2026-01-31';
      meterOf(account, 1).last_billed_to_date = '2026-01-31';
      for (const i of [0, 1]) {
        (meterOf(account, i).transfer_readings as Json[])[0]!.reading_date = '2026-01-31';
      }
      (meterOf(account, 1).prepay_details as Json).transfer_vend_read_date = '2026-01-30';
      expect(errorsOf(account)).toEqual([]);
    });

    it('does not judge an address the customer leaves today or later', () => {
      const account = fullAccount();
      supplyAddressOf(account).customer_at_supply_address_to_date = TODAY;
      expect(errorsOf(account)).toEqual([]);
    });
  });
});

describe('supply point rules on the factory account', () => {
  it('passes the factory account', () => {
    expect(valueOf(buildAccount()).supply_addresses).toHaveLength(2);
  });

  it('does not judge a meter point that failed its own checks', () => {
    const point = buildGasMeterPoint({ identifier: undefined, agreements: [] });
    expectProblem(
      buildAccount({ supply_addresses: [buildSupplyAddress({ meter_points: [point] })] }),
      'required',
      'supply_addresses.0.meter_points.0.identifier',
    );
  });

  it('refuses a former address billed only up to the account date', () => {
    const address = buildSupplyAddress({ customer_at_supply_address_to_date: '2024-06-30' });
    expectProblem(
      buildAccount({ supply_addresses: [address] }),
      'unbilled_former_supply_address',
      'supply_addresses.0.customer_at_supply_address_to_date',
    );
  });
});
