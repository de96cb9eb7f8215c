import { describe, expect, it } from 'vitest';
import { isValidMpan } from '../../src/payload/rules/supply-point.js';
import {
  VALID_MPAN,
  buildAccount,
  buildGasMeterPoint,
  buildMeterPoint,
  buildSupplyAddress,
  mpanWithCheckDigit,
} from './factory.js';
import { expectProblem, expectProblems, valueOf } from './helpers.js';

const withAddress = (fields: Record<string, unknown>) =>
  buildAccount({ supply_addresses: [buildSupplyAddress(fields)] });
const withPoint = (point: Record<string, unknown>) => withAddress({ meter_points: [point] });
const AT = 'supply_addresses.0';
const POINT = `${AT}.meter_points.0`;

describe('MPAN cores', () => {
  it('the factory MPAN has a valid check digit', () => {
    expect(isValidMpan(VALID_MPAN)).toBe(true);
    expect(mpanWithCheckDigit('120002330596')).toBe(VALID_MPAN);
  });

  it.each([
    '1000000000003',
    mpanWithCheckDigit('230000000008'),
    mpanWithCheckDigit('150000000001'),
    // independent distribution networks: real supply points outside the 14 areas
    mpanWithCheckDigit('240000123456'),
    mpanWithCheckDigit('250001234567'),
    mpanWithCheckDigit('990000000001'),
  ])('accepts %s', (mpan) => {
    expect(
      valueOf(withPoint(buildMeterPoint({ identifier: mpan }))).supply_addresses?.[0]
        ?.meter_points[0]?.identifier,
    ).toBe(mpan);
  });

  it.each([
    ['a wrong check digit', '1200023305968'],
    ['distributor 09', mpanWithCheckDigit('090000000001')],
    ['distributor 00', mpanWithCheckDigit('000000000001')],
    ['12 digits', '120002330596'],
    ['14 digits', '12000233059670'],
    ['letters', '12000233059A7'],
    ['an MPRN', '1234567'],
  ])('refuses %s', (_label, mpan) => {
    expectProblem(
      withPoint(buildMeterPoint({ identifier: mpan })),
      'invalid_supply_point_identifier',
      `${POINT}.identifier`,
    );
  });
});

describe('MPRNs', () => {
  it.each(['123456', '1234567890'])('accepts %s', (mprn) => {
    expect(
      valueOf(withPoint(buildGasMeterPoint({ identifier: mprn }))).supply_addresses?.[0]
        ?.meter_points[0]?.identifier,
    ).toBe(mprn);
  });
  it.each(['12345', '12345678901', '12345A', VALID_MPAN])('refuses %s', (mprn) => {
    expectProblem(
      withPoint(buildGasMeterPoint({ identifier: mprn })),
      'invalid_supply_point_identifier',
      `${POINT}.identifier`,
    );
  });
});

describe('meter point fields', () => {
  it('refuses an unknown supply type, without judging the identifier', () => {
    expectProblem(
      withPoint(buildMeterPoint({ supply_type: 'WATER' })),
      'supply_type_not_recognised',
      `${POINT}.supply_type`,
    );
  });

  it('cannot judge a meter point without a supply type', () => {
    expectProblem(
      withPoint({ identifier: 'not an MPAN', mpid: 'x' }),
      'required',
      `${POINT}.supply_type`,
    );
  });

  it('requires identifier, mpid and start date, and a shipper for gas', () => {
    expectProblems(withPoint({ supply_type: 'ELECTRICITY' }), [
      { code: 'required', attr: `${POINT}.identifier` },
      { code: 'required', attr: `${POINT}.mpid` },
      { code: 'required', attr: `${POINT}.supply_start_date` },
    ]);
    expectProblems(withPoint({ supply_type: 'GAS' }), [
      { code: 'required', attr: `${POINT}.identifier` },
      { code: 'required', attr: `${POINT}.mpid` },
      { code: 'required', attr: `${POINT}.shipper_mpid` },
      { code: 'required', attr: `${POINT}.supply_start_date` },
    ]);
  });

  it('takes only the fields of its supply type', () => {
    expectProblems(
      withAddress({
        meter_points: [
          buildMeterPoint({ shipper_mpid: 'TCL' }),
          buildGasMeterPoint({ measurement_class: 'A' }),
        ],
      }),
      [
        { code: 'unknown_field', attr: `${AT}.meter_points.0.shipper_mpid` },
        { code: 'unknown_field', attr: `${AT}.meter_points.1.measurement_class` },
      ],
    );
  });

  it('has market participant ids that some participant could have', () => {
    const mpidOf = (point: Record<string, unknown>) =>
      valueOf(withPoint(point)).supply_addresses?.[0]?.meter_points[0]?.mpid;
    expect(mpidOf(buildMeterPoint({ mpid: 'SWFT' }))).toBe('SWFT');
    expect(mpidOf(buildGasMeterPoint({ mpid: 'SWF' }))).toBe('SWF');
    // Electricity: four capital letters or digits; gas: capital letters or digits.
    for (const mpid of ['eelc', 'EEL', 'EE-C']) {
      expectProblem(
        withPoint(buildMeterPoint({ mpid })),
        'market_participant_not_found',
        `${POINT}.mpid`,
      );
    }
    expectProblems(withPoint(buildGasMeterPoint({ mpid: 'bgt', shipper_mpid: 'T-L' })), [
      { code: 'market_participant_not_found', attr: `${POINT}.mpid` },
      { code: 'market_participant_not_found', attr: `${POINT}.shipper_mpid` },
    ]);
    // The published lengths come first: 4 for an mpid, 3 for a gas shipper.
    expectProblem(withPoint(buildMeterPoint({ mpid: 'EELC1' })), 'max_length', `${POINT}.mpid`);
    expectProblem(
      withPoint(buildGasMeterPoint({ shipper_mpid: 'TCLX' })),
      'max_length',
      `${POINT}.shipper_mpid`,
    );
  });

  it('checks agreements', () => {
    const agreements = [
      // No published limit on a tariff code (v1: 64 characters).
      { tariff_code: 'T'.repeat(65), effective_from: '2022-01-01' },
      { tariff_code: 'E-1R-VAR' },
      { tariff_code: 'E-1R-VAR', effective_from: '2022-02-01', effective_to: '2022-01-31' },
      { tariff_code: ' ', effective_from: '2022-01-01' },
    ];
    expectProblems(withPoint(buildMeterPoint({ agreements })), [
      { code: 'tariff_code_not_found', attr: `${POINT}.agreements.0.tariff_code` },
      { code: 'required', attr: `${POINT}.agreements.1.effective_from` },
      { code: 'start_date_later_than_end_date', attr: `${POINT}.agreements.2.effective_to` },
      { code: 'blank', attr: `${POINT}.agreements.3.tariff_code` },
    ]);
  });

  it('checks electricity meters, registers and transfer readings', () => {
    const meters = [
      {
        meter_serial_number: 'M'.repeat(33),
        installed_on: '2019-02-29',
        registers: [
          { register_id: 'R'.repeat(33), tpr: '1234', number_of_digits: 16 },
          { register_id: 'R1', tpr: '00001', number_of_digits: 0 },
          { tpr: '00206', number_of_digits: 2.5 },
          // v1 allowed 8 characters and 10 digits; the publication 32 and 15.
          { register_id: 'R'.repeat(32), tpr: '00210', number_of_digits: 15 },
        ],
        transfer_readings: [
          {
            register_id: 'R1',
            reading_date: '2024-01-01',
            reading_value: '123.4',
            reading_type: 'GUESS',
          },
          { reading_value: 123 },
        ],
      },
    ];
    const at = `${POINT}.meters.0`;
    expectProblems(withPoint(buildMeterPoint({ meters })), [
      // Four settlement registers do not suit a single-rate tariff.
      {
        code: 'tariff_type_does_not_match_meter_point_type',
        attr: `${POINT}.agreements.0.tariff_code`,
      },
      { code: 'max_length', attr: `${at}.meter_serial_number` },
      { code: 'invalid_date', attr: `${at}.installed_on` },
      { code: 'max_length', attr: `${at}.registers.0.register_id` },
      { code: 'tpr_not_found', attr: `${at}.registers.0.tpr` },
      { code: 'max_value', attr: `${at}.registers.0.number_of_digits` },
      { code: 'min_value', attr: `${at}.registers.1.number_of_digits` },
      { code: 'required', attr: `${at}.registers.2.register_id` },
      { code: 'invalid_type', attr: `${at}.registers.2.number_of_digits` },
      { code: 'invalid_choice', attr: `${at}.transfer_readings.0.reading_type` },
      { code: 'required', attr: `${at}.transfer_readings.1.reading_date` },
      { code: 'required', attr: `${at}.transfer_readings.1.reading_type` },
      { code: 'invalid_type', attr: `${at}.transfer_readings.1.reading_value` },
    ]);
  });

  it('checks gas meters, which count their digits themselves', () => {
    const meters = [
      { meter_serial_number: 'G1', gas_number_of_digits: 16, registers: [] },
      { meter_serial_number: 'G2' },
    ];
    expectProblems(withPoint(buildGasMeterPoint({ meters })), [
      { code: 'max_value', attr: `${POINT}.meters.0.gas_number_of_digits` },
      { code: 'unknown_field', attr: `${POINT}.meters.0.registers` },
      { code: 'required', attr: `${POINT}.meters.1.gas_number_of_digits` },
    ]);
  });
});

describe('duplicate meter points', () => {
  it('are reported within one supply address, once per repeat', () => {
    expectProblems(
      withAddress({ meter_points: [buildMeterPoint(), buildMeterPoint(), buildMeterPoint()] }),
      [
        { code: 'duplicate_meter_points_provided', attr: `${AT}.meter_points.1.identifier` },
        { code: 'duplicate_meter_points_provided', attr: `${AT}.meter_points.2.identifier` },
      ],
    );
  });
});
