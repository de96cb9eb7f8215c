/**
 * The keys an account is found by across accounts (table account_keys): one row per key, its
 * kind saying what it identifies. Adding a kind of key is adding an entry to KEYS.
 */
import type { EnergyAccount } from '../account/account.js';

export interface AccountKey {
  kind: string;
  value: string;
}

const KEYS: readonly ((payload: EnergyAccount) => AccountKey[])[] = [
  (p) =>
    (p.supply_addresses ?? []).flatMap((address) =>
      address.meter_points.map((point) => ({ kind: 'meter_point', value: point.identifier })),
    ),
  (p) => (p.statements ?? []).map((s) => ({ kind: 'statement', value: s.statement_id })),
  // A reference's namespace is part of its kind: `reference:legacy-crm`.
  (p) => (p.references ?? []).map((r) => ({ kind: `reference:${r.namespace}`, value: r.value })),
];

export function accountKeys(payload: EnergyAccount): AccountKey[] {
  return KEYS.flatMap((keys) => keys(payload));
}
