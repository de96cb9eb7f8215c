/** The published full account as tests change it, and its validation outcome (the reference must be present). */
import { validateEnergyAccount, type EnergyAccount } from '../../src/account/account.js';
import { publishedFullAccount } from './reference.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

export const context = { ...TEST_ACCOUNT_CONTEXT, today: '2026-11-26' };
export type Json = Record<string, unknown>;

/** The published full account, sent by one of our suppliers on `context.today`. */
export const fullAccount = () => publishedFullAccount('OUR_SUPPLIER', context.today);

export const customerOf = (account: Json) => (account.customers as Json[])[0] as Json;
export const supplyAddressOf = (account: Json) => (account.supply_addresses as Json[])[0] as Json;
/** Meter point `i` of the first supply address (0: electricity, 1: gas, as published). */
export const meterPointOf = (account: Json, i: number) =>
  (supplyAddressOf(account).meter_points as Json[])[i] as Json;
/** The first meter of meter point `i`. */
export const meterOf = (account: Json, i: number) =>
  (meterPointOf(account, i).meters as Json[])[0] as Json;

/** The errors of `account` as `{ attr, code }`, in the order reported; [] when valid. */
export function errorsOf(account: Json, today = context.today) {
  const result = validateEnergyAccount(account, { ...context, today });
  return result.ok ? [] : result.errors.map(({ attr, code }) => ({ attr, code }));
}

/** The normalised account; throws with the errors when it is not valid. */
export function validated(account: Json): EnergyAccount {
  const result = validateEnergyAccount(account, context);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
