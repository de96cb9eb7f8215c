/**
 * Rules on one meter point or agreement at a time: agreements starting before supply, meters
 * sharing a serial number (dummy exchanges), agents beside the older fields naming agents to
 * appoint, and the register rates of bespoke electricity rates. Readings (see also
 * ./supply-points.ts):
 *
 * - An agreement starting before the supply start date but still running on it is
 *   `agreement_start_date_before_supply_start_date`.
 * - Meters sharing a serial number on one meter point are dummy exchanges when each is
 *   installed the day after the previous one (by installation date) was removed.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { dayAfter } from '../periods.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { byDate, fieldOf, holdsData, rawItem, UNSURE } from './shared.js';

/** Agreements still running on the supply start date may not start before it. */
function checkAgreementStarts(out: Parent, prefix: string, run: Run, input: Parent): void {
  const start = out.supply_start_date;
  const agreements = out.agreements;
  if (typeof start !== 'string' || !Array.isArray(agreements)) return;
  for (const [k, agreement] of (agreements as (Parent | undefined)[]).entries()) {
    if (agreement === undefined || typeof agreement.effective_from !== 'string') continue;
    const to = fieldOf(agreement, rawItem(input, 'agreements', k), 'effective_to');
    if (to === UNSURE || agreement.effective_from >= start) continue;
    if (to === null || to === undefined || to >= start) {
      fail(
        run,
        `${prefix}agreements.${k}.effective_from`,
        'agreement_start_date_before_supply_start_date',
        'The agreement starts before the supply start date.',
      );
    }
  }
}

interface Fitting {
  readonly index: number;
  readonly installed: string | null | undefined;
  readonly removed: string | null | undefined;
}

/** Meters sharing a serial number: each installed the day after the one before was removed. */
function checkDummyExchanges(out: Parent, prefix: string, run: Run, input: Parent): void {
  const meters = out.meters;
  if (!Array.isArray(meters)) return;
  const bySerial = new Map<string, Fitting[]>();
  // A date that failed its own checks leaves its serial number's exchanges unknown.
  const unknown = new Set<string>();
  for (const [index, meter] of (meters as (Parent | undefined)[]).entries()) {
    const serial = meter?.meter_serial_number;
    if (meter === undefined || typeof serial !== 'string') continue;
    const raw = rawItem(input, 'meters', index);
    const installed = fieldOf(meter, raw, 'installed_on');
    const removed = fieldOf(meter, raw, 'removed_on');
    if (installed === UNSURE || removed === UNSURE) unknown.add(serial);
    else bySerial.set(serial, [...(bySerial.get(serial) ?? []), { index, installed, removed }]);
  }
  for (const [serial, fittings] of bySerial) {
    if (fittings.length < 2 || unknown.has(serial)) continue;
    const sorted = [...fittings].sort(
      (a, b) => byDate(a.installed ?? '', b.installed ?? '') || a.index - b.index,
    );
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1] as Fitting;
      const meter = sorted[i] as Fitting;
      if (typeof before.removed === 'string' && meter.installed === dayAfter(before.removed)) {
        continue;
      }
      fail(
        run,
        `${prefix}meters.${meter.index}.meter_serial_number`,
        'multiple_non_dmex_meters_with_serial_number',
        'Another meter has this serial number and this one is not its dummy exchange.',
      );
    }
  }
}

const AGREEMENT_STARTS = 'agreement_start_date_before_supply_start_date';
const DUMMY_EXCHANGES = 'multiple_non_dmex_meters_with_serial_number';

/** The agents object replaces the deprecated fields naming agents to appoint. */
const electricityMeterPoint: ObjectRule = {
  codes: [AGREEMENT_STARTS, DUMMY_EXCHANGES, 'agents_and_mpids_to_appoint_provided'],
  check: (out, prefix, run, input) => {
    checkAgreementStarts(out, prefix, run, input);
    checkDummyExchanges(out, prefix, run, input);
    if (
      holdsData(input.agents) &&
      (holdsData(input.dc_to_appoint) || holdsData(input.mop_to_appoint))
    ) {
      fail(
        run,
        `${prefix}agents`,
        'agents_and_mpids_to_appoint_provided',
        'Send agents or dc_to_appoint and mop_to_appoint, not both.',
      );
    }
  },
};

const gasMeterPoint: ObjectRule = {
  codes: [AGREEMENT_STARTS, DUMMY_EXCHANGES],
  check: (out, prefix, run, input) => {
    checkAgreementStarts(out, prefix, run, input);
    checkDummyExchanges(out, prefix, run, input);
  },
};

/** Each register rate of a bespoke rate says which register it prices: an id or a rate type. */
const electricityAgreement: ObjectRule = {
  codes: ['no_register_id_or_rate_type_provided_for_bespoke_elec_rate'],
  check: (_out, prefix, run, input) => {
    const rates = input.bespoke_tariff_rates;
    if (!Array.isArray(rates)) return;
    for (const [b, rate] of (rates as unknown[]).entries()) {
      const registers = isObject(rate) ? rate.registers : undefined;
      if (!Array.isArray(registers)) continue;
      for (const [r, register] of (registers as unknown[]).entries()) {
        if (
          !isObject(register) ||
          holdsData(register.register_id) ||
          holdsData(register.rate_type)
        ) {
          continue;
        }
        fail(
          run,
          `${prefix}bespoke_tariff_rates.${b}.registers.${r}`,
          'no_register_id_or_rate_type_provided_for_bespoke_elec_rate',
          'The register rate names neither a register_id nor a rate_type.',
        );
      }
    }
  },
};

export const METER_POINT_RULES: ObjectRules = {
  ElectricityMeterPoint: electricityMeterPoint,
  GasMeterPoint: gasMeterPoint,
  ElectricityAgreement: electricityAgreement,
};
