/** Supply addresses and their meter points, agreements, meters, registers and readings. */
import { date } from '../dates.js';
import { defaulted, nullable, object, optional, required } from '../object.js';
import { ukPostcode } from '../rules/postcode.js';
import { supplyPointIdentifier } from '../rules/supply-point.js';
import { bool, decimal, enumOf, integer, pattern, str } from '../scalars.js';
import { array, type Infer } from '../validators.js';

const agreement = object({
  tariff_code: required(str(64)),
  effective_from: required(date()),
  effective_to: optional(date({ notBefore: 'effective_from' })),
});

const register = object({
  register_id: required(str(8)),
  tpr: optional(pattern(/^[0-9]{5}$/, 'Expected a five-digit time pattern regime.')),
  number_of_digits: optional(integer(1, 10)),
});

const transferReading = object({
  register_id: optional(str(8)),
  reading_date: required(date()),
  reading_value: required(decimal),
  reading_type: optional(enumOf(['CUSTOMER', 'ESTIMATE', 'ROUTINE', 'SMART'])),
});

const meter = object({
  meter_serial_number: required(str(32)),
  installed_on: optional(date()),
  registers: optional(array(register)),
  transfer_readings: optional(array(transferReading)),
});

export const meterPoint = object({
  supply_type: required(enumOf(['ELECTRICITY', 'GAS'], 'supply_type_not_recognised')),
  identifier: required(supplyPointIdentifier),
  supply_start_date: required(date()),
  mpid: optional(pattern(/^[A-Z0-9]{4}$/, 'Expected four upper-case letters or digits.')),
  agreements: optional(array(agreement)),
  meters: optional(array(meter)),
});

export const supplyAddress = object({
  supply_address1: required(str(512)),
  supply_address2: optional(str(512)),
  supply_address3: optional(str(512)),
  supply_address4: optional(str(512)),
  supply_address5: optional(str(512)),
  supply_postcode: required(ukPostcode),
  customer_at_supply_address_from_date: required(date({ notFuture: true })),
  customer_at_supply_address_to_date: nullable(
    date({ notBefore: 'customer_at_supply_address_from_date' }),
  ),
  is_landlord: defaulted(bool, false),
  meter_points: required(array(meterPoint, { min: 1, max: 20 })),
});

export type Agreement = Infer<typeof agreement>;
export type Meter = Infer<typeof meter>;
export type MeterPoint = Infer<typeof meterPoint>;
export type SupplyAddress = Infer<typeof supplyAddress>;
