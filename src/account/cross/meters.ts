/**
 * Rules on the meters of a meter point, one meter point or meter at a time: registers of active
 * electricity meters, smart and prepay fields by the meter's kind, and the registers readings
 * name. Measurement classes C to G are half-hourly; a non half-hourly point's registers need a
 * TPR.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { fieldIntact, holdsData, intact, listIn } from './shared.js';

const HALF_HOURLY = new Set(['C', 'D', 'E', 'F', 'G']);

export function isHalfHourly(point: Parent): boolean {
  // A refused period (null, not an object) has its own error and says nothing of the class.
  const periods = listIn(point, 'configuration_periods').filter(isObject);
  const latest = periods.find((p) => p.effective_to_date === undefined) ?? periods.at(-1);
  const cls = point.measurement_class ?? latest?.measurement_class;
  return typeof cls === 'string' && HALF_HOURLY.has(cls);
}

/** Every active meter has registers; on a non half-hourly point, every register has a TPR. */
const electricityMeterPoint: ObjectRule = {
  codes: ['registers_missing_for_active_electricity_meter'],
  check: (out, prefix, run, input) => {
    const meters = out.meters;
    const raw = input.meters;
    if (!Array.isArray(meters) || !Array.isArray(raw) || !intact(meters, raw)) return;
    const halfHourly = isHalfHourly(out);
    (meters as Parent[]).forEach((meter, m) => {
      const registers = listIn(meter, 'registers');
      if (meter.removed_on === undefined && registers.length === 0) {
        fail(
          run,
          `${prefix}meters.${m}.registers`,
          'registers_missing_for_active_electricity_meter',
          'An active electricity meter needs at least one register.',
        );
      }
      if (halfHourly) return;
      registers.forEach((register, r) => {
        if (register.tpr === undefined) {
          fail(
            run,
            `${prefix}meters.${m}.registers.${r}.tpr`,
            'registers_missing_for_active_electricity_meter',
            'A register of a non half-hourly meter point needs a TPR.',
          );
        }
      });
    });
  },
};

/** Smart fields only on a smart meter, prepay fields only on a prepay meter. */
function checkMeterKind(out: Parent, prefix: string, run: Run): void {
  if (out.smart_type === 'NONE') {
    for (const name of ['smart_commissioned_on', 'smart_device_id']) {
      if (typeof out[name] === 'string') {
        fail(
          run,
          `${prefix}${name}`,
          'smart_details_provided_for_non_smart_meter',
          'Smart fields are for smart meters only (smart_type is NONE).',
        );
      }
    }
  }
  if (out.is_prepay === false) {
    for (const name of ['prepay_details', 'prepay_customer_reference_number']) {
      if (out[name] !== undefined) {
        fail(
          run,
          `${prefix}${name}`,
          'prepay_details_on_non_prepay_meter',
          'Prepay fields are for prepay meters only (is_prepay is false).',
        );
      }
    }
  }
}

/** The readings of `list` name a register of the meter. */
function checkReadingRegisters(
  out: Parent,
  input: Parent,
  list: string,
  codes: { missing: string; unknown: string },
  prefix: string,
  run: Run,
): void {
  const readings = out[list];
  if (!Array.isArray(readings) || !fieldIntact(out, input, list)) return;
  const ids = new Set(listIn(out, 'registers').map((r) => r.register_id));
  (readings as Parent[]).forEach((read, k) => {
    const at = `${prefix}${list}.${k}.register_id`;
    if (read.register_id === undefined) {
      fail(run, at, codes.missing, 'A reading of an electricity meter names its register.');
    } else if (!ids.has(read.register_id)) {
      fail(run, at, codes.unknown, 'This meter has no register with this id.');
    }
  });
}

const electricityMeter: ObjectRule = {
  codes: [
    'electricity_prepay_meter_without_customer_reference_number',
    'historical_reading_register_id_not_recognised',
    'no_register_id_for_reading',
    'prepay_details_on_non_prepay_meter',
    'reading_register_id_not_recognised',
    'reading_without_register_id',
    'smart_details_provided_for_non_smart_meter',
  ],
  check: (out, prefix, run, input) => {
    checkMeterKind(out, prefix, run);
    if (
      out.is_prepay === true &&
      !holdsData(input.removed_on) &&
      !holdsData(input.prepay_customer_reference_number)
    ) {
      fail(
        run,
        `${prefix}prepay_customer_reference_number`,
        'electricity_prepay_meter_without_customer_reference_number',
        'An active prepay electricity meter needs its prepay customer reference number.',
      );
    }
    if (!fieldIntact(out, input, 'registers')) return;
    checkReadingRegisters(
      out,
      input,
      'transfer_readings',
      { missing: 'reading_without_register_id', unknown: 'reading_register_id_not_recognised' },
      prefix,
      run,
    );
    checkReadingRegisters(
      out,
      input,
      'reading_history',
      {
        missing: 'no_register_id_for_reading',
        unknown: 'historical_reading_register_id_not_recognised',
      },
      prefix,
      run,
    );
  },
};

const gasMeter: ObjectRule = {
  codes: ['prepay_details_on_non_prepay_meter', 'smart_details_provided_for_non_smart_meter'],
  check: (out, prefix, run) => checkMeterKind(out, prefix, run),
};

export const METER_RULES: ObjectRules = {
  ElectricityMeterPoint: electricityMeterPoint,
  ElectricityMeter: electricityMeter,
  GasMeter: gasMeter,
};
