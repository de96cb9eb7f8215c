/**
 * Rules of the supply side that compare the items of a list (registers, meters, periods,
 * exemptions, bespoke rates, supply addresses) or stop an import while an industry process
 * runs. Attached by ./field-rules.ts; the readings chosen are in ./README.md.
 */
import { fail, type Parent } from '../payload/validators.js';
import { periods, type PeriodFields } from './periods.js';
import {
  allOf,
  listRule,
  refusedWhileTrue,
  uniqueEntries,
  uniqueItems,
  type Entry,
  type FieldRule,
  type Items,
} from './rules.js';

const itemsOf = (list: unknown): Items<Parent> => (Array.isArray(list) ? list : []);

/** The odd TPRs from 01201 to 01229, which two registers of one meter may share. */
export function isPairedTpr(tpr: string): boolean {
  if (!/^\d{5}$/.test(tpr)) return false;
  const n = Number(tpr);
  return n >= 1201 && n <= 1229 && n % 2 === 1;
}

/** ElectricityMeter.registers: a TPR once per meter (a paired TPR twice). */
export const registerTprs: FieldRule = uniqueEntries<Parent>(
  'registers_have_duplicate_tprs',
  (register, r) =>
    typeof register.tpr === 'string' ? [{ key: register.tpr, at: `${r}.tpr` }] : [],
  (tpr) => (isPairedTpr(tpr) ? 2 : 1),
);

function* registerIds(meter: Parent, m: number): Iterable<Entry> {
  const registers = itemsOf(meter.registers);
  for (let r = 0; r < registers.length; r++) {
    const id = registers[r]?.register_id;
    if (typeof id === 'string') {
      yield { key: `${m}\u0000${id}`, at: `${m}.registers.${r}.register_id` };
    }
  }
}

/** ElectricityMeterPoint.meters: a register id once per meter. */
export const meterRegisterIds: FieldRule = uniqueEntries<Parent>(
  'meter_with_duplicate_register_ids',
  registerIds,
);

export const disputedRead = refusedWhileTrue(
  'disputed_read_in_progress',
  'A disputed read is in progress on this meter point; it can be imported once resolved.',
);

export const erroneousTransfer = refusedWhileTrue(
  'erroneous_transfer_not_in_progress',
  'An erroneous transfer is in progress on this meter point; it can be imported once resolved.',
);

/** ccl_exemptions, vat_exemptions: the end is the first day without the exemption. */
export const taxExemptions: FieldRule = periods(
  { from: 'effective_from', to: 'effective_to', end: 'day-after' },
  {
    openEnded: 'multiple_open_ended_tax_exemptions',
    overlaps: 'overlapping_effective_dates_for_tax_exemptions',
  },
);

/** GasMeterPoint.aq_history: the end is the entry's last day; the next starts the day after. */
export const aqHistory: FieldRule = periods(
  { from: 'effective_from', to: 'effective_to', end: 'last-day' },
  {
    openEnded: 'multiple_open_ended_aqs_in_meterpoint_aq_history',
    overlaps: 'gaps_or_overlaps_in_aq_history',
    gaps: 'gaps_or_overlaps_in_aq_history',
  },
);

// The next period starts on the day the previous one ends.
const ELECTRICITY_PERIOD: PeriodFields = {
  from: 'effective_from_date',
  to: 'effective_to_date',
  end: 'day-after',
};
const CONSECUTIVE = {
  overlaps: 'gaps_or_overlaps_in_periods',
  gaps: 'gaps_or_overlaps_in_periods',
  zeroLength: 'zero_length_periods',
} as const;

export const capacityValues: FieldRule = periods(ELECTRICITY_PERIOD, CONSECUTIVE);

export const configurationPeriods: FieldRule = periods(ELECTRICITY_PERIOD, {
  ...CONSECUTIVE,
  futureStart: 'configuration_period_starts_in_future',
  latestHasEnd: 'latest_configuration_period_not_open_ended',
});

/** bespoke_tariff_rates: one rate per meter serial number and payment method. */
export const bespokeRates: FieldRule = uniqueItems<Parent>(
  (rate) => `${String(rate.meter_serial_number ?? '')}\u0000${String(rate.payment_method ?? '')}`,
  'duplicate_bespoke_rates',
  null,
);

const ACROSS_ADDRESSES = 'duplicate_meter_points_on_different_supply_addresses_provided';

/** A meter point given under an earlier supply address (within one address: another rule). */
const meterPointsAcrossAddresses = listRule<Parent>([ACROSS_ADDRESSES], (addresses, path, run) => {
  const firstAddress = new Map<string, number>();
  for (let a = 0; a < addresses.length; a++) {
    const points = itemsOf(addresses[a]?.meter_points);
    for (let p = 0; p < points.length; p++) {
      const id = points[p]?.identifier;
      if (typeof id !== 'string') continue;
      const first = firstAddress.get(id);
      if (first === undefined) firstAddress.set(id, a);
      else if (first !== a) {
        fail(
          run,
          `${path}.${a}.meter_points.${p}.identifier`,
          ACROSS_ADDRESSES,
          `This meter point is already given under supply address ${first}.`,
        );
      }
    }
  }
});

// Case and runs of white space do not make two address lines different.
const addressLine = (line: unknown) =>
  typeof line === 'string' ? line.toLowerCase().replace(/\s+/g, ' ') : '';

/** The same first two lines and postcode (normalised) as an earlier supply address. */
const repeatedAddresses = uniqueItems<Parent>(
  (address) =>
    [
      addressLine(address.supply_address1),
      addressLine(address.supply_address2),
      String(address.supply_postcode ?? ''),
    ].join('\u0000'),
  'duplicate_supply_addresses_found',
  null,
);

/** EnergyAccount.supply_addresses. */
export const supplyAddresses: FieldRule = allOf(meterPointsAcrossAddresses, repeatedAddresses);
