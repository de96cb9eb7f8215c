/**
 * Rules on supply points across the account: when supply starts and ends, which meter points
 * are billable, their meters and agreements, import-export meters and former supply addresses
 * (the rules of one meter point or agreement at a time are in ./meter-points.ts).
 *
 * Readings chosen (the published example passes all of them):
 * - A supply end date is the last day of supply. One after today is a loss in progress
 *   (`loss_in_progress`); one on today is supply not yet ended (`future_supply_end_date`).
 *   A meter point is billable while it has no end date or its end is not before today.
 * - An agreement's `effective_to` is its last day: the next one starts the day after.
 * - Agreements wholly before the supply start date are history: gaps among them, and up to the
 *   first agreement of the supply period, are allowed (as before a first agreement). An agreement starting before the supply start date but still
 *   running on it is `agreement_start_date_before_supply_start_date`. Overlaps always count.
 * - A billable meter point needs an agreement running today or later; an ended one may not
 *   have an agreement running past its supply end date.
 * - Active meters are those without `removed_on`; measurement classes B and D are unmetered.
 * - Meters sharing a serial number on one meter point are dummy exchanges when each is
 *   installed the day after the previous one (by installation date) was removed.
 * - Import-export: an electricity meter's serial number may be on two meter points only when
 *   one of them has `export_type` IMPORT_EXPORT and the other none (the import point).
 * - A former supply address (to-date before today) is fully billed when each of its meter
 *   points is billed (its own date, else the earliest meter or register date, else the
 *   account's) to the to-date, or to its supply end date if earlier.
 * Values that failed their own checks are left alone: no second error is reported for them.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { dayAfter } from '../periods.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { byDate, type Field, fieldOf, holdsData, rawItem, UNSURE } from './shared.js';

/** The checked items of a list field, or undefined when the list or an item failed. */
function itemsOf(out: Parent, raw: unknown, name: string): Parent[] | undefined {
  const list = out[name];
  if (list === undefined) return isObject(raw) && holdsData(raw[name]) ? undefined : [];
  if (!Array.isArray(list) || list.some((item) => item === undefined)) return undefined;
  return list as Parent[];
}

interface Point {
  readonly at: (field?: string) => string;
  readonly point: Parent;
  readonly raw: unknown;
  readonly address: number;
}

interface Agreement {
  readonly index: number;
  readonly from: string;
  readonly to: string | null | undefined;
}

/** The agreements of a meter point, or undefined when one failed its own checks. */
function agreementsOf(p: Point): Agreement[] | undefined {
  const items = itemsOf(p.point, p.raw, 'agreements');
  if (items === undefined) return undefined;
  const agreements: Agreement[] = [];
  for (const [index, item] of items.entries()) {
    const to = fieldOf(item, rawItem(p.raw, 'agreements', index), 'effective_to');
    if (typeof item.effective_from !== 'string' || to === UNSURE) return undefined;
    agreements.push({ index, from: item.effective_from, to });
  }
  return agreements;
}

/** True or false when known: no supply end date, or one not before today. */
function billable(p: Point, run: Run): boolean | undefined {
  const end = fieldOf(p.point, p.raw, 'supply_end_date');
  if (end === UNSURE) return undefined;
  return end === null || end === undefined || end >= run.today;
}

const UNMETERED = new Set(['B', 'D']);

function isUnmetered(p: Point): boolean {
  if (p.point.supply_type !== 'ELECTRICITY') return false;
  if (UNMETERED.has(p.point.measurement_class as string)) return true;
  const periods = p.point.configuration_periods;
  return (
    Array.isArray(periods) &&
    periods.some(
      (period: Parent | undefined) =>
        period !== undefined &&
        period.effective_to_date === undefined &&
        UNMETERED.has(period.measurement_class as string),
    )
  );
}

/** Supply dates of one meter point, its meters, and its agreements against its supply. */
function checkPoint(p: Point, run: Run): void {
  const end = fieldOf(p.point, p.raw, 'supply_end_date');
  if (typeof end === 'string' && end > run.today) {
    fail(run, p.at('supply_end_date'), 'loss_in_progress', 'Supply is due to be lost.');
  } else if (end === run.today) {
    fail(run, p.at('supply_end_date'), 'future_supply_end_date', 'Supply has not ended yet.');
  }
  const onSupply = billable(p, run);
  const start = p.point.supply_start_date;
  if (onSupply === true && typeof start === 'string' && start > run.today) {
    fail(run, p.at('supply_start_date'), 'future_supply_start_date', 'Supply starts later.');
  }
  const meters = itemsOf(p.point, p.raw, 'meters');
  if (
    onSupply === true &&
    meters !== undefined &&
    !meters.some((meter) => meter.removed_on === undefined || meter.removed_on === null) &&
    !isUnmetered(p)
  ) {
    fail(run, p.at('meters'), 'meter_point_with_no_meters', 'A billable point needs a meter.');
  }
  const agreements = agreementsOf(p);
  if (agreements === undefined || onSupply === undefined) return;
  if (
    onSupply &&
    !agreements.some((a) => a.to === null || a.to === undefined || a.to >= run.today)
  ) {
    fail(run, p.at('agreements'), 'meter_point_with_no_agreement', 'No agreement runs now.');
  }
  if (!onSupply && typeof end === 'string') {
    for (const a of agreements) {
      if (a.to === null || a.to === undefined || a.to > end) {
        fail(
          run,
          p.at(`agreements.${a.index}.effective_to`),
          'meterpoint_with_agreement_not_on_supply',
          'The agreement runs past the end of supply.',
        );
      }
    }
  }
  checkAgreementSequence(p, agreements, run);
}

const GAPS = 'gaps_or_overlaps_in_agreement_dates';

/** Agreements follow each other by start date; gaps count only within the supply period. */
function checkAgreementSequence(p: Point, agreements: Agreement[], run: Run): void {
  const start = fieldOf(p.point, p.raw, 'supply_start_date');
  const sorted = [...agreements].sort((a, b) => byDate(a.from, b.from) || a.index - b.index);
  // The first day after the agreements so far: '' before the first, null once one is open.
  let reach: string | null = '';
  for (const a of sorted) {
    const at = () => p.at(`agreements.${a.index}.effective_from`);
    if (reach === null || a.from < reach) {
      fail(run, at(), GAPS, 'This agreement starts before the previous one ends.');
    } else if (reach !== '' && a.from > reach && typeof start === 'string' && reach > start) {
      fail(run, at(), GAPS, 'This agreement leaves days of supply without an agreement.');
    }
    if (a.to === null || a.to === undefined) reach = null;
    else if (reach !== null && dayAfter(a.to) > reach) reach = dayAfter(a.to);
  }
}

interface Address {
  readonly index: number;
  readonly address: Parent;
  readonly raw: unknown;
  /** Its meter points; undefined when the list or one of them failed its own checks. */
  readonly points: Point[] | undefined;
}

/** The supply addresses as checked, with their meter points; undefined when the list failed. */
function addressesOf(out: Parent, input: Parent, prefix: string): Address[] | undefined {
  const items = itemsOf(out, input, 'supply_addresses');
  if (items === undefined) return undefined;
  return items.map((address, index) => {
    const raw = rawItem(input, 'supply_addresses', index);
    const list = itemsOf(address, raw, 'meter_points');
    // A meter point missing an identifier or start date failed its own checks.
    const whole = list?.every(
      (point) =>
        typeof point.identifier === 'string' && typeof point.supply_start_date === 'string',
    );
    const points = (whole === true ? list : undefined)?.map((point, j) => ({
      at: (field?: string) =>
        `${prefix}supply_addresses.${index}.meter_points.${j}${field === undefined ? '' : `.${field}`}`,
      point,
      raw: rawItem(raw, 'meter_points', j),
      address: index,
    }));
    return { index, address, raw, points };
  });
}

/** The account's declared business contract identifiers; undefined when unknown. */
function declaredContracts(out: Parent, input: Parent): Set<string> | undefined {
  const business = out.business;
  if (!isObject(business)) return holdsData(input.business) ? undefined : new Set();
  const declared = new Set<string>();
  const rawBusiness = input.business;
  const list = itemsOf(business, rawBusiness, 'business_contract_identifiers');
  const single = fieldOf(business, rawBusiness, 'business_contract_identifier');
  if (list === undefined || single === UNSURE) return undefined;
  for (const id of list as unknown[]) declared.add(id as string);
  if (typeof single === 'string') declared.add(single);
  return declared;
}

function checkContracts(points: Point[], declared: Set<string>, run: Run): void {
  for (const p of points) {
    const agreements = itemsOf(p.point, p.raw, 'agreements') ?? [];
    for (const [k, agreement] of agreements.entries()) {
      const id = agreement.business_contract_identifier;
      if (typeof id === 'string' && !declared.has(id)) {
        fail(
          run,
          p.at(`agreements.${k}.business_contract_identifier`),
          'agreement_business_contract_identifier_not_declared',
          'The account does not declare this business contract identifier.',
        );
      }
    }
  }
}

/** Each electricity serial number with the meter points carrying it (first meter of each). */
function serialNumbers(points: Point[]): Map<string, { p: Point; meter: number }[]> | undefined {
  const bySerial = new Map<string, { p: Point; meter: number }[]>();
  for (const p of points) {
    if (p.point.supply_type !== 'ELECTRICITY') continue;
    const meters = itemsOf(p.point, p.raw, 'meters');
    if (meters === undefined || fieldOf(p.point, p.raw, 'export_type') === UNSURE) return undefined;
    for (const [m, meter] of meters.entries()) {
      const serial = meter.meter_serial_number;
      if (typeof serial !== 'string') return undefined;
      const carriers = bySerial.get(serial) ?? [];
      if (!carriers.some((c) => c.p === p)) carriers.push({ p, meter: m });
      bySerial.set(serial, carriers);
    }
  }
  return bySerial;
}

/** A twin element meter: one import point and one IMPORT_EXPORT point share its serial. */
function checkImportExport(points: Point[], run: Run): void {
  for (const carriers of serialNumbers(points)?.values() ?? []) {
    let exporting: (typeof carriers)[number] | undefined;
    let importing = false;
    let twinExports = false;
    for (const carrier of carriers) {
      const at = () => carrier.p.at(`meters.${carrier.meter}.meter_serial_number`);
      if (carrier.p.point.export_type === 'IMPORT_EXPORT') {
        if (exporting === undefined) exporting = carrier;
        else {
          twinExports = true;
          fail(
            run,
            at(),
            'import_meter_not_found_for_export_meter',
            'Another meter point already exports through this meter.',
          );
        }
      } else if (importing) {
        fail(
          run,
          at(),
          'unexpected_number_of_meter_points_found_for_meter',
          'Only a twin element meter may be on two meter points.',
        );
      } else importing = true;
    }
    if (exporting !== undefined && !importing && !twinExports) {
      fail(
        run,
        exporting.p.at(`meters.${exporting.meter}.meter_serial_number`),
        'import_meter_not_found_for_export_meter',
        'No import meter point shares this import-export meter.',
      );
    }
  }
}

/** The date a meter point is billed to: its own, else its meters' or registers', else none. */
function billedTo(p: Point): string | undefined {
  const own = p.point.last_billed_to_date;
  if (typeof own === 'string') return own;
  const dates: string[] = [];
  for (const meter of itemsOf(p.point, p.raw, 'meters') ?? []) {
    if (typeof meter.last_billed_to_date === 'string') dates.push(meter.last_billed_to_date);
    const registers = meter.registers;
    for (const register of Array.isArray(registers) ? (registers as (Parent | undefined)[]) : []) {
      if (typeof register?.last_billed_to_date === 'string')
        dates.push(register.last_billed_to_date);
    }
  }
  return dates.sort()[0];
}

/** A supply address the customer has left is billed up to the day they left (or supply ended). */
function checkFormerAddress(a: Address, accountBilledTo: Field, run: Run, prefix: string): void {
  const left = fieldOf(a.address, a.raw, 'customer_at_supply_address_to_date');
  if (typeof left !== 'string' || left >= run.today || a.points === undefined) return;
  if (accountBilledTo === UNSURE) return;
  for (const p of a.points) {
    const end = fieldOf(p.point, p.raw, 'supply_end_date');
    if (end === UNSURE || fieldOf(p.point, p.raw, 'last_billed_to_date') === UNSURE) return;
    const due = typeof end === 'string' && end < left ? end : left;
    const billed = billedTo(p) ?? accountBilledTo ?? undefined;
    if (billed === undefined || billed < due) {
      fail(
        run,
        `${prefix}supply_addresses.${a.index}.customer_at_supply_address_to_date`,
        'unbilled_former_supply_address',
        'The customer has left this address but it is not billed up to the day they left.',
      );
      return;
    }
  }
}

const energyAccount: ObjectRule = {
  codes: [
    'agreement_business_contract_identifier_not_declared',
    'future_supply_end_date',
    'future_supply_start_date',
    GAPS,
    'import_meter_not_found_for_export_meter',
    'loss_in_progress',
    'meter_point_with_no_agreement',
    'meter_point_with_no_meters',
    'meterpoint_with_agreement_not_on_supply',
    'no_supply_point_on_supply',
    'unbilled_former_supply_address',
    'unexpected_number_of_meter_points_found_for_meter',
  ],
  check: (out, prefix, run, input) => {
    const addresses = addressesOf(out, input, prefix);
    if (addresses === undefined) return;
    const points = addresses.flatMap((a) => a.points ?? []);
    const complete = addresses.every((a) => a.points !== undefined);
    for (const p of points) checkPoint(p, run);
    const accountBilledTo = fieldOf(out, input, 'last_billed_to_date');
    for (const a of addresses) checkFormerAddress(a, accountBilledTo, run, prefix);
    const declared = declaredContracts(out, input);
    if (declared !== undefined) checkContracts(points, declared, run);
    if (complete) checkImportExport(points, run);
    if (complete && points.length > 0 && points.every((p) => billable(p, run) === false)) {
      fail(
        run,
        `${prefix}supply_addresses`,
        'no_supply_point_on_supply',
        'None of the meter points is on supply.',
      );
    }
  },
};

export const SUPPLY_POINT_RULES: ObjectRules = {
  EnergyAccount: energyAccount,
};
