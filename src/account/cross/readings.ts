/**
 * Rules on meters, registers and readings across each meter point: transfer and billed readings
 * against the last billed to date, exchanged meters, EAC and AQ history, prepay vends (the rules
 * of one meter point or meter at a time are in ./meters.ts).
 *
 * Readings taken where the publication leaves room (the published full account passes them):
 * - The last billed to date of a register (electricity) or a meter (gas) is its own, else its
 *   meter point's, else the account's. Only settlement registers (`is_settlement` not false)
 *   need a transfer reading, a last billed to date or an EAC.
 * - A meter is active without `removed_on`; a meter point is off supply once its
 *   `supply_end_date` is today or earlier. Measurement classes C to G are half-hourly.
 * - A removed meter is fully billed when its last billed to date is on or after its removal.
 *   It is exchanged when another meter of its point was installed on or after its removal (its
 *   new meter); the exchange is still to be billed when the point's own (else the account's)
 *   last billed to date is before the removal, or absent. Only such exchanges need readings and
 *   dates of the old meter's own, and only their new meters may not carry a date of their own
 *   nor need a transfer reading.
 * - `last_billed_to_date_not_found`: the account has been billed when it has statements,
 *   historical statement transactions or a last statement closing date (own or of a ledger).
 * - A prepay vend read date matches a last billed to date that is the same day or the day
 *   after (the example vends on the last statement's closing day, the eve of that date).
 * - An agreement covers a date from its `effective_from` to its `effective_to` inclusive; a
 *   meter point whose supply ended before its last billed to date, or starts after it, needs
 *   none (nothing of it was billed up to that date).
 * - A current or future AQ entry has no end, or ends today or later; only on-supply gas meter
 *   points need one.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { dayAfter } from '../periods.js';
import { isHalfHourly } from './meters.js';
import { holdsData, intact, listIn } from './shared.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

const dateOf = (o: Parent | undefined, name: string): string | undefined => {
  const v = o?.[name];
  return typeof v === 'string' ? v : undefined;
};

const isSettlement = (register: Parent) => register.is_settlement !== false;

/** A meter of a meter point, as the point's rules see it. */
interface Meter {
  readonly out: Parent;
  readonly index: number;
  readonly registers: readonly Parent[];
  /** Removed, with a replacement, and not yet billed past the removal. */
  exchanged: boolean;
  /** Installed on or after the removal of an exchanged meter. */
  replacement: boolean;
  /** Removed on or before its last billed to date. */
  fullyBilled: boolean;
}

/** One meter point of the account with what its rules share. */
interface Point {
  readonly out: Parent;
  readonly gas: boolean;
  readonly path: (suffix: string) => string;
  /** The point's own last billed to date, else the account's. */
  readonly billedTo: string | undefined;
  readonly meters: readonly Meter[];
}

/** The last billed to date of a gas meter or of an electricity register. */
const billedTo = (point: Point, place: Parent) =>
  dateOf(place, 'last_billed_to_date') ?? point.billedTo;

/** Where a meter's own last billed to dates are: the gas meter, or each settlement register. */
function ownPlaces(point: Point, meter: Meter): { at: string; date: string | undefined }[] {
  const m = `meters.${meter.index}`;
  if (point.gas) {
    return [{ at: `${m}.last_billed_to_date`, date: dateOf(meter.out, 'last_billed_to_date') }];
  }
  return meter.registers.flatMap((register, r) =>
    isSettlement(register)
      ? [
          {
            at: `${m}.registers.${r}.last_billed_to_date`,
            date: dateOf(register, 'last_billed_to_date'),
          },
        ]
      : [],
  );
}

/** The last billed to dates that apply to a meter (one per settlement register on electricity). */
function meterBilledTo(point: Point, meter: Meter): (string | undefined)[] {
  if (point.gas) return [billedTo(point, meter.out)];
  return meter.registers.filter(isSettlement).map((register) => billedTo(point, register));
}

function classify(point: Point): void {
  for (const meter of point.meters) {
    const removed = dateOf(meter.out, 'removed_on');
    if (removed === undefined) continue;
    const dates = meterBilledTo(point, meter);
    meter.fullyBilled = dates.length > 0 && dates.every((d) => d !== undefined && d >= removed);
    const unbilled = point.billedTo === undefined || removed > point.billedTo;
    const replacements = point.meters.filter((other) => {
      const installed = dateOf(other.out, 'installed_on');
      return other !== meter && installed !== undefined && installed >= removed;
    });
    if (unbilled && replacements.length > 0) {
      meter.exchanged = true;
      for (const other of replacements) other.replacement = true;
    }
  }
}

function readingsOf(meter: Meter): readonly Parent[] {
  return [...listIn(meter.out, 'transfer_readings'), ...listIn(meter.out, 'reading_history')];
}

function checkAgreementCover(point: Point, run: Run): void {
  const date = point.billedTo;
  if (date === undefined) return;
  const ended = dateOf(point.out, 'supply_end_date');
  if (ended !== undefined && ended < date) return;
  const started = dateOf(point.out, 'supply_start_date');
  if (started !== undefined && started > date) return;
  const covered = listIn(point.out, 'agreements').some(
    (a) =>
      (a.effective_from as string) <= date &&
      (typeof a.effective_to !== 'string' || a.effective_to >= date),
  );
  if (!covered) {
    fail(
      run,
      point.path('agreements'),
      'no_agreement_covering_last_billed_to_date',
      `No agreement of this meter point covers its last billed to date (${date}).`,
    );
  }
}

function checkBilledToFound(point: Point, run: Run): void {
  if (!point.gas && isHalfHourly(point.out)) return;
  for (const meter of point.meters) {
    const removed = dateOf(meter.out, 'removed_on');
    // A removed meter whose new meter has been billed is done with.
    const newMeterBilled =
      removed !== undefined &&
      point.meters.some((other) => {
        const installed = dateOf(other.out, 'installed_on');
        return (
          other !== meter &&
          installed !== undefined &&
          installed >= removed &&
          ownPlaces(point, other).some((place) => place.date !== undefined)
        );
      });
    if (meter.fullyBilled || newMeterBilled) continue;
    for (const place of ownPlaces(point, meter)) {
      if (place.date === undefined && point.billedTo === undefined) {
        fail(
          run,
          point.path(place.at),
          'last_billed_to_date_not_found',
          'No last billed to date applies here (nor on the meter point or the account).',
        );
      }
    }
  }
}

function checkPrepayVend(point: Point, run: Run): void {
  for (const meter of point.meters) {
    const details = meter.out.prepay_details;
    if (meter.out.is_prepay !== true || !isObject(details)) continue;
    const at = `meters.${meter.index}.prepay_details`;
    if (meter.fullyBilled) {
      fail(
        run,
        point.path(at),
        'prepay_details_on_fully_billed_meter',
        'This meter is billed up to its removal, so it carries no prepay balances.',
      );
      continue;
    }
    const vend = details.transfer_vend_read_date;
    // A missing or refused vend date has its own error; there is nothing to compare.
    if (typeof vend !== 'string') continue;
    const dates = meterBilledTo(point, meter).filter((d): d is string => d !== undefined);
    if (dates.some((d) => d !== vend && d !== dayAfter(vend))) {
      fail(
        run,
        point.path(`${at}.transfer_vend_read_date`),
        'transfer_vend_read_date_must_match_last_billed_to_date',
        `The vend read date must be the meter's last billed to date or the day before (${dates[0]}).`,
      );
    }
  }
}

function checkCurrentAq(point: Point, run: Run): void {
  const current = listIn(point.out, 'aq_history').some(
    (aq) => typeof aq.effective_to !== 'string' || aq.effective_to >= run.today,
  );
  if (!current) {
    fail(
      run,
      point.path('aq_history'),
      'no_current_or_future_aq_entry_found',
      'This gas meter point has no AQ entry running today or later.',
    );
  }
}

function checkGasTransferReadings(point: Point, onSupply: boolean, run: Run): void {
  for (const meter of point.meters) {
    const count = listIn(meter.out, 'transfer_readings').length;
    const at = point.path(`meters.${meter.index}.transfer_readings`);
    if (meter.fullyBilled) {
      if (count > 0) {
        fail(run, at, 'reading_meter_fully_billed', 'This meter is billed up to its removal.');
      }
    } else if (onSupply && meter.out.removed_on === undefined && !meter.replacement) {
      if (count === 0) {
        fail(
          run,
          at,
          'active_gas_meter_without_transfer_reading',
          'An active gas meter needs one transfer reading.',
        );
      } else if (count > 1) {
        fail(
          run,
          at,
          'active_gas_meter_with_multiple_transfer_readings',
          'An active gas meter takes a single transfer reading.',
        );
      }
    }
  }
}

/** Transfer readings per settlement register, and an EAC for each settlement register's TPR. */
function checkActiveRegisters(point: Point, run: Run): void {
  const eacTprs = new Set(listIn(point.out, 'eac_history').map((eac) => eac.tpr));
  for (const meter of point.meters) {
    if (meter.out.removed_on !== undefined) continue;
    const readings = listIn(meter.out, 'transfer_readings');
    meter.registers.forEach((register, r) => {
      if (!isSettlement(register)) return;
      const at = `meters.${meter.index}.registers.${r}`;
      if (!meter.replacement) {
        const count = readings.filter((read) => read.register_id === register.register_id).length;
        if (count !== 1) {
          const [code, detail] =
            count === 0
              ? ['missing_transfer_reading_for_register', 'This register has no transfer reading.']
              : [
                  'multiple_transfer_readings_for_register',
                  'This register has more than one transfer reading.',
                ];
          fail(run, point.path(at), code, detail);
        }
      }
      if (typeof register.tpr === 'string' && !eacTprs.has(register.tpr)) {
        fail(
          run,
          point.path(`${at}.tpr`),
          'missing_eacs_for_active_register_tpr',
          `No EAC in eac_history has this register's TPR (${register.tpr}).`,
        );
      }
    });
  }
}

function checkFinalReading(point: Point, run: Run): void {
  const ended = dateOf(point.out, 'supply_end_date');
  if (ended === undefined || ended > run.today || point.meters.length === 0) return;
  if (!point.meters.some((meter) => readingsOf(meter).some((r) => r.reading_date === ended))) {
    fail(
      run,
      point.path('supply_end_date'),
      'no_reading_on_supply_end_date',
      'No meter of this meter point has a reading on its supply end date.',
    );
  }
}

function checkExchanges(point: Point, run: Run): void {
  for (const meter of point.meters) {
    const m = `meters.${meter.index}`;
    if (meter.exchanged) {
      const removed = meter.out.removed_on;
      if (!readingsOf(meter).some((r) => r.reading_date === removed)) {
        fail(
          run,
          point.path(`${m}.removed_on`),
          'no_reading_on_removed_on',
          'An exchanged meter needs a reading on the day it was removed.',
        );
      }
      if (listIn(meter.out, 'transfer_readings').length === 0) {
        fail(
          run,
          point.path(`${m}.transfer_readings`),
          'no_transfer_reading_on_exchanged_meter',
          'An exchanged meter needs its transfer readings.',
        );
      }
    }
    for (const place of ownPlaces(point, meter)) {
      if (meter.exchanged && place.date === undefined) {
        fail(
          run,
          point.path(place.at),
          'no_last_billed_to_date_on_exchanged_meter',
          'An exchanged meter needs a last billed to date of its own here.',
        );
      } else if (meter.replacement && !meter.exchanged && place.date !== undefined) {
        fail(
          run,
          point.path(place.at),
          'last_billed_to_date_on_new_meter',
          'A meter replacing an exchanged one is not billed yet: it takes no last billed to date.',
        );
      }
    }
  }
}

/** Billed readings up to, and transfer readings on, the last billed to date that applies. */
function checkReadingDates(point: Point, run: Run): void {
  for (const meter of point.meters) {
    const registers = new Map(meter.registers.map((r) => [r.register_id, r]));
    const dateFor = (read: Parent) => {
      if (point.gas) return billedTo(point, meter.out);
      const register = registers.get(read.register_id);
      return register === undefined ? undefined : billedTo(point, register);
    };
    const m = `meters.${meter.index}`;
    listIn(meter.out, 'transfer_readings').forEach((read, k) => {
      const date = dateFor(read);
      if (date !== undefined && read.reading_date !== date) {
        fail(
          run,
          point.path(`${m}.transfer_readings.${k}.reading_date`),
          'transfer_reading_dates_must_match_last_billed_to_date',
          `A transfer reading is taken on the last billed to date (${date}).`,
        );
      }
    });
    listIn(meter.out, 'reading_history').forEach((read, k) => {
      const date = dateFor(read);
      if (read.billed === true && date !== undefined && (read.reading_date as string) > date) {
        fail(
          run,
          point.path(`${m}.reading_history.${k}.reading_date`),
          'billed_reading_after_last_billed_to_date',
          `A billed reading may not be later than the last billed to date (${date}).`,
        );
      }
    });
  }
}

/** Whether the account has statement history (it has been billed before). */
function hasBeenBilled(input: Parent): boolean {
  const some = (v: unknown) => Array.isArray(v) && v.length > 0;
  const ledgers = Array.isArray(input.ledgers) ? (input.ledgers as unknown[]) : [];
  return (
    some(input.statements) ||
    some(input.historical_statement_transactions) ||
    !!holdsData(input.last_statement_closing_date) ||
    ledgers.some(
      (l) =>
        isObject(l) &&
        (some(l.historical_statement_transactions) || !!holdsData(l.last_statement_closing_date)),
    )
  );
}

function checkPoint(point: Point, billed: boolean, run: Run): void {
  classify(point);
  const ended = dateOf(point.out, 'supply_end_date');
  const onSupply = ended === undefined || ended > run.today;
  checkAgreementCover(point, run);
  if (billed) checkBilledToFound(point, run);
  checkPrepayVend(point, run);
  checkFinalReading(point, run);
  checkExchanges(point, run);
  checkReadingDates(point, run);
  if (point.gas) {
    if (onSupply) checkCurrentAq(point, run);
    checkGasTransferReadings(point, onSupply, run);
  } else if (onSupply) {
    checkActiveRegisters(point, run);
  }
}

/** Every intact meter point of the account, with its meters. */
function* pointsOf(out: Parent, prefix: string, input: Parent, billedTo: string | undefined) {
  const addresses = out.supply_addresses;
  const rawAddresses = input.supply_addresses;
  if (!Array.isArray(addresses) || !Array.isArray(rawAddresses)) return;
  for (let a = 0; a < addresses.length; a++) {
    const address = addresses[a] as Parent | undefined;
    if (address === undefined) continue;
    const points = listIn(address, 'meter_points');
    const rawPoints = (rawAddresses[a] as Parent).meter_points as unknown[];
    for (let p = 0; p < points.length; p++) {
      const out = points[p];
      // A point missing its basics, or holding a refused value, has its own errors already.
      const sound =
        out !== undefined &&
        out.identifier !== undefined &&
        out.supply_start_date !== undefined &&
        intact(out, rawPoints[p]);
      if (!sound) continue;
      yield {
        out,
        gas: out.supply_type === 'GAS',
        path: (suffix: string) => `${prefix}supply_addresses.${a}.meter_points.${p}.${suffix}`,
        billedTo: dateOf(out, 'last_billed_to_date') ?? billedTo,
        meters: listIn(out, 'meters').map((meter, index) => ({
          out: meter,
          index,
          registers: listIn(meter, 'registers'),
          exchanged: false,
          replacement: false,
          fullyBilled: false,
        })),
      } satisfies Point;
    }
  }
}

const energyAccount: ObjectRule = {
  codes: [
    'active_gas_meter_with_multiple_transfer_readings',
    'active_gas_meter_without_transfer_reading',
    'billed_reading_after_last_billed_to_date',
    'last_billed_to_date_not_found',
    'last_billed_to_date_on_new_meter',
    'missing_eacs_for_active_register_tpr',
    'missing_transfer_reading_for_register',
    'multiple_transfer_readings_for_register',
    'no_agreement_covering_last_billed_to_date',
    'no_current_or_future_aq_entry_found',
    'no_last_billed_to_date_on_exchanged_meter',
    'no_reading_on_removed_on',
    'no_reading_on_supply_end_date',
    'no_transfer_reading_on_exchanged_meter',
    'prepay_details_on_fully_billed_meter',
    'reading_meter_fully_billed',
    'transfer_reading_dates_must_match_last_billed_to_date',
    'transfer_vend_read_date_must_match_last_billed_to_date',
  ],
  check: (out, prefix, run, input) => {
    const billedTo = dateOf(out, 'last_billed_to_date');
    // An account date refused by its own check leaves every date here unknown.
    if (billedTo === undefined && !!holdsData(input.last_billed_to_date)) return;
    const billed = hasBeenBilled(input);
    for (const point of pointsOf(out, prefix, input, billedTo)) checkPoint(point, billed, run);
  },
};

export const READING_RULES: ObjectRules = {
  EnergyAccount: energyAccount,
};
