/** What the operator services return: camelCase views of the rows, booleans as booleans. */
import type { AddedItems } from '../post-import/additions.repository.js';
import type { SupplierStatus } from '../db/database.js';
import type { SupplierSettingKey, SupplierSettings } from '../settings/settings.declared.js';

export interface Supplier {
  code: string;
  status: SupplierStatus;
  /** '' or a path starting with '/' and without a trailing slash. */
  documentRoot: string;
  customerEmails: boolean;
  /** ISO 3166-1 alpha-2, upper-case: the region local phone numbers are read in. */
  phoneRegion: string;
  createdAt: number;
  /** What the account rules read of the supplier's configuration. */
  settings: SupplierSettings;
}

/**
 * A rule setting as the operator gives it: on or off, or the value of a setting that takes one
 * (a team's name), false for none (`--no-auto-allocation-team`).
 */
export type SupplierSettingInput = boolean | string;

/** Options of `supplier add` / `supplier set`; raw operator input, checked by the service. */
export interface SupplierOptions {
  status?: string;
  documentRoot?: string;
  customerEmails?: boolean;
  phoneRegion?: string;
  /** The rule settings given, by key; the others keep their value (their default on `add`). */
  ruleSettings?: Partial<Record<SupplierSettingKey, SupplierSettingInput>>;
}

export interface Team {
  name: string;
  createdAt: number;
}

export interface Organisation {
  name: string;
  enabled: boolean;
  /** Codes of the import suppliers granted to the organisation, sorted. */
  suppliers: string[];
  /** Public identifier of the current API key (never the key itself). */
  keyId: string;
  keyVersion: number;
  createdAt: number;
}

/** A freshly issued API key: the only moment the full key is known. */
export interface IssuedKey {
  name: string;
  apiKey: string;
  keyVersion: number;
}

export interface SkipMark {
  supplier: string;
  externalAccountNumber: string;
  reason: string | null;
  createdAt: number;
}

/** A created account as kept, with the names of its supplier and team. */
export interface ShownAccount {
  number: string;
  supplierCode: string;
  externalAccountNumber: string;
  teamName: string;
  createdAt: number;
  /** The normalised payload kept for the account, as stored; its shape is the payload's. */
  payload: unknown;
  /** What the post-import endpoints added since, as validated, transactions included. */
  added: AddedItems & { transactions: unknown[] };
}
