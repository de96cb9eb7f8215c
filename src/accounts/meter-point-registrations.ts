/**
 * The registration rows a new account's meter points start with (table
 * meter_point_registrations): one per meter point, in payload order, in the starting status its
 * supplier's settings give (registration-lifecycle.ts).
 */
import type { EnergyAccount } from '../account/account.js';
import type { ImportSupplier } from '../db/database.js';
import { readSupplierSettings } from '../settings/settings.declared.js';
import { startingStatus, type MeterPointStatus } from './registration-lifecycle.js';

export interface StartingRegistration {
  mpxn: string;
  supply_type: string;
  status: MeterPointStatus;
  detail: null;
  updated_at: number;
}

export function meterPointRegistrations(
  payload: EnergyAccount,
  supplier: Pick<ImportSupplier, 'rule_settings'>,
  now: number,
): StartingRegistration[] {
  const points = (payload.supply_addresses ?? []).flatMap((address) => address.meter_points);
  if (points.length === 0) return [];
  const status = startingStatus(
    readSupplierSettings(supplier.rule_settings).send_registration_flows,
  );
  const seen = new Set<string>();
  return points.flatMap(({ identifier, supply_type: supplyType }) => {
    // The rules refuse a meter point listed twice; were one to pass, it would still get one row.
    if (seen.has(identifier)) return [];
    seen.add(identifier);
    return [{ mpxn: identifier, supply_type: supplyType, status, detail: null, updated_at: now }];
  });
}
