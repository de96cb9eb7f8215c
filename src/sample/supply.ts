/**
 * The supply side of a sample account: the supply address, its electricity and gas meter points
 * with their agreements, meters, registers, readings and consumption history (EAC and AQ), and
 * (in the full shape) smart meters, a prepayment gas meter and the landlord.
 */
import { addDays, addMonths } from './calendar.js';
import * as codes from './codes.js';
import type { Json } from './people.js';
import type { Prng } from './prng.js';
import type { SampleShape } from './shape.js';
import { dateBetween, type Timeline } from './timeline.js';
import * as uk from './uk-data.js';

/** What the meter points of one account share. */
export interface SupplyDraw {
  random: Prng;
  t: Timeline;
  home: uk.UkAddress;
  mpids: { electricity: string; gas: string };
  shape: SampleShape;
}

export type SmartType = 'SMETS1' | 'SMETS2';

type SetUp = (typeof uk.METER_SET_UPS)[number];

export function supplyAddress(home: uk.UkAddress, t: Timeline, meterPoints: Json[]): Json {
  return {
    supply_address1: home.lines[0],
    supply_address2: home.town,
    ...(home.county === undefined ? {} : { supply_address3: home.county }),
    supply_postcode: home.postcode,
    customer_at_supply_address_from_date: t.movedIn,
    meter_points: meterPoints,
  };
}

/**
 * Agreements back to back from the start of supply: up to two 12-month fixed terms (not in the
 * minimal shape), then the variable tariff that is still running; tariffs of the fuel and
 * number of rates from the demo catalogue.
 */
function agreements(d: SupplyDraw, supplyType: 'ELECTRICITY' | 'GAS', rates: number): Json[] {
  const tariffs = codes.tariffs(supplyType, rates);
  const list: Json[] = [];
  let from = d.t.supplyStart;
  const fixedTerms = d.shape === 'minimal' ? 0 : d.random.int(0, 2);
  for (let i = 0; i < fixedTerms; i++) {
    const to = addDays(addMonths(from, 12), -1);
    if (to >= addDays(d.t.lastBilledTo, -1)) break;
    const code = d.random.pick(tariffs.fixed);
    list.push({ tariff_code: code, effective_from: from, effective_to: to });
    from = addDays(to, 1);
  }
  list.push({ tariff_code: d.random.pick(tariffs.variable), effective_from: from });
  return list;
}

/** Monthly meter reads up to the last billed-to date, oldest first; the last is the transfer read. */
function readingSeries(
  random: Prng,
  t: Timeline,
  months: number,
  monthlyUse: number,
  digits: number,
): { date: string; value: string }[] {
  const headroom = 10 ** digits - Math.ceil(monthlyUse * 1.25 * (months + 1)) - 1;
  let value = random.int(0, Math.max(0, headroom));
  const series: { date: string; value: string }[] = [];
  for (let k = months; k >= 0; k--) {
    const date = k === 0 ? t.lastBilledTo : addMonths(t.lastBilledTo, -k);
    series.push({ date, value: String(value) });
    value += Math.round(monthlyUse * (0.75 + random.next() * 0.5));
  }
  return series;
}

const readType = (random: Prng, smart: boolean) =>
  smart ? 'SMART' : random.pick(['CUSTOMER', 'ROUTINE', 'ROUTINE', 'ESTIMATE']);

/** The fields of a meter that depend on when and how it was fitted (typical and full shapes). */
function fitting(d: SupplyDraw, smart: SmartType | undefined): Json {
  if (d.shape === 'minimal') return {};
  if (smart === undefined) {
    return { installed_on: addDays(d.t.supplyStart, -d.random.int(0, 4000)) };
  }
  // An upgrade during this supply, early enough for months of smart reads before the last bill.
  const installed = dateBetween(
    d.random,
    addDays(d.t.supplyStart, 1),
    addDays(d.t.lastBilledTo, -200),
  );
  return { installed_on: installed, smart_type: smart, smart_commissioned_on: installed };
}

function electricityMeter(
  d: SupplyDraw,
  setUp: SetUp,
  uses: readonly number[],
  smart: SmartType | undefined,
): Json {
  const { random, t } = d;
  const fitted = fitting(d, smart);
  const installed = (fitted.installed_on as string | undefined) ?? t.supplyStart;
  const full = d.shape === 'full';
  const months = full ? random.int(2, 6) : 0;
  const registers: Json[] = [];
  const transfer: Json[] = [];
  const history: Json[] = [];
  for (const [i, register] of setUp.registers.entries()) {
    registers.push({
      register_id: register.id,
      tpr: register.tpr,
      number_of_digits: 5,
      ...(full ? { is_settlement: true, last_billed_to_date: t.lastBilledTo } : {}),
    });
    const series = readingSeries(random, t, months, uses[i] ?? 0, 5);
    const last = series[series.length - 1] as { date: string; value: string };
    const read = (at: { date: string; value: string }) => ({
      register_id: register.id,
      reading_date: at.date,
      reading_value: at.value,
      reading_type: readType(random, smart !== undefined),
    });
    transfer.push(read(last));
    for (const at of series.slice(0, -1).reverse()) history.push({ ...read(at), billed: true });
  }
  return {
    meter_serial_number: uk.meterSerial(random, installed),
    ...fitted,
    registers,
    transfer_readings: transfer,
    ...(full ? { reading_history: history } : {}),
  };
}

/** The anniversaries of the start of supply up to the last billed-to date, the last `count`. */
function anniversaries(t: Timeline, count: number): string[] {
  const dates: string[] = [];
  for (let year = 0; addMonths(t.supplyStart, 12 * year) <= t.lastBilledTo; year++) {
    dates.push(addMonths(t.supplyStart, 12 * year));
  }
  return dates.slice(-count);
}

/** Estimated annual consumption of each settlement register, newest first. */
function eacHistory(d: SupplyDraw, setUp: SetUp, uses: readonly number[]): Json[] {
  const history: Json[] = [];
  for (const from of anniversaries(d.t, d.random.int(1, 3)).reverse()) {
    for (const [i, register] of setUp.registers.entries()) {
      const kwh = Math.round((uses[i] ?? 0) * 12 * (0.9 + d.random.next() * 0.2));
      history.push({
        effective_from: from,
        tpr: register.tpr,
        consumption: String(kwh),
        source: 'D0019',
      });
    }
  }
  return history;
}

/** Whether a customer without a smart meter wants one, and why not. */
function smartInterest(d: SupplyDraw): Json {
  const type = d.random.pick(['NOT_INTERESTED', 'INTERESTED', 'NOT_AT_THE_MOMENT']);
  const date = dateBetween(d.random, d.t.supplyStart, addDays(d.t.today, -1));
  if (type === 'INTERESTED') return { type, date, source: 'WEBSITE' };
  const reason = d.random.pick(['DO_NOT_OWN_HOME', 'WORRIED_SECURITY', 'HOUSE_MOVE_IMMINENT']);
  return { type, date, refusal_reason: reason, source: d.random.pick(['EMAIL', 'OTHER']) };
}

/** An electricity meter point: single rate, or Economy 7 in one account in five (not minimal). */
export function electricityPoint(d: SupplyDraw, smart?: SmartType): Json {
  const { random, t } = d;
  const setUp = uk.METER_SET_UPS[d.shape !== 'minimal' && random.chance(0.2) ? 1 : 0];
  if (setUp === undefined) throw new Error('no meter set-up');
  const point: Json = {
    supply_type: 'ELECTRICITY',
    identifier: uk.mpan(random, d.home.distributor),
    mpid: d.mpids.electricity,
    supply_start_date: t.supplyStart,
  };
  if (d.shape === 'full') {
    Object.assign(point, { profile_class: setUp.profileClass, ssc: setUp.ssc });
  }
  point.agreements = agreements(d, 'ELECTRICITY', setUp.rates);
  // kWh a month on each register: the day (or only) rate, then the night rate.
  const uses = setUp.registers.map((_, i) =>
    i === 0 ? random.int(150, 400) : random.int(60, 200),
  );
  point.meters = [electricityMeter(d, setUp, uses, smart)];
  point.eac_history = eacHistory(d, setUp, uses);
  if (d.shape === 'full') {
    Object.assign(point, { et_in_progress: false, dr_in_progress: false });
    if (smart === undefined) point.smart_refusal_interest = smartInterest(d);
  }
  return point;
}

/**
 * Annual quantities, one a year back to back from the start of supply, newest first; the
 * current one is open-ended.
 */
function aqHistory(d: SupplyDraw, monthlyUse: number): Json[] {
  const froms = anniversaries(d.t, d.random.int(1, 3));
  return froms
    .map((from, i) => {
      const next = froms[i + 1];
      const kwh = Math.round(monthlyUse * 12 * 11.2 * (0.9 + d.random.next() * 0.2));
      return {
        effective_from: from,
        ...(next === undefined ? {} : { effective_to: addDays(next, -1) }),
        consumption: String(kwh),
      };
    })
    .reverse();
}

/** The balances of a prepayment gas meter when the account changed hands. */
function prepayDetails(d: SupplyDraw): Json {
  const weekly = d.random.int(200, 500);
  return {
    debt_balance: `${d.random.int(0, 80)}.${d.random.digits(2)}`,
    credit_balance: `${d.random.int(0, 40)}.${d.random.digits(2)}`,
    transfer_vend_read_date: d.t.lastBilledTo,
    gas_debt_repayment_options: {
      weekly_min: (weekly / 100).toFixed(2),
      weekly_max: ((weekly + 100) / 100).toFixed(2),
    },
  };
}

function gasMeter(
  d: SupplyDraw,
  smart: SmartType | undefined,
  prepay: boolean,
  monthlyM3: number,
): Json {
  const { random, t } = d;
  const fitted = fitting(d, smart);
  const installed = (fitted.installed_on as string | undefined) ?? t.supplyStart;
  // Metric meters count cubic metres on five dials; imperial ones hundreds of cubic feet on four.
  const imperial = d.shape !== 'minimal' && random.chance(0.15);
  const digits = imperial ? 4 : 5;
  const use = imperial ? Math.ceil(monthlyM3 / 2.83) : monthlyM3;
  const full = d.shape === 'full';
  const series = readingSeries(random, t, full ? random.int(2, 6) : 0, use, digits);
  const last = series[series.length - 1] as { date: string; value: string };
  const meter: Json = {
    meter_serial_number: uk.meterSerial(random, installed),
    ...fitted,
    gas_number_of_digits: digits,
    ...(imperial ? { units_of_measure: 'SCFH' } : {}),
    transfer_readings: [
      {
        reading_date: last.date,
        reading_value: last.value,
        reading_type: readType(random, smart !== undefined),
      },
    ],
  };
  if (!full) return meter;
  meter.last_billed_to_date = t.lastBilledTo;
  meter.reading_history = series
    .slice(0, -1)
    .reverse()
    .map((read) => ({
      reading_date: read.date,
      reading_value: read.value,
      reading_type: readType(random, smart !== undefined),
      billed: true,
    }));
  if (prepay) Object.assign(meter, { is_prepay: true, prepay_details: prepayDetails(d) });
  return meter;
}

/** A gas meter point, with the supplier's and a shipper's market participant ids. */
export function gasPoint(d: SupplyDraw, smart?: SmartType, prepay = false): Json {
  const { random, t } = d;
  const monthlyM3 = random.int(30, 150);
  const point: Json = {
    supply_type: 'GAS',
    identifier: uk.mprn(random),
    mpid: d.mpids.gas,
    shipper_mpid: random.pick(codes.GAS_SHIPPERS),
    supply_start_date: t.supplyStart,
  };
  if (d.shape === 'full') point.ldz = d.home.ldz;
  point.agreements = agreements(d, 'GAS', 1);
  point.meters = [gasMeter(d, smart, prepay, monthlyM3)];
  point.aq_history = aqHistory(d, monthlyM3);
  if (d.shape === 'full') {
    Object.assign(point, { et_in_progress: false, dr_in_progress: false });
    if (smart === undefined) point.smart_refusal_interest = smartInterest(d);
  }
  return point;
}
