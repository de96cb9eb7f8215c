/**
 * What the account's lookup rules read of the platform, in memory: the reference catalogue and
 * the platform's settings, under one version that changes whenever either does. The event loop
 * keeps it current (./live-platform-data.ts) and sends it to the validation threads as a
 * message (messageOf, platformDataFrom); each validation reads it through a PlatformView, with
 * the import supplier's own settings (platformView).
 */
import type { PlatformView } from '../payload/validators.js';
import {
  catalogueOf,
  rowsOf,
  type ReferenceCatalogue,
  type ReferenceRow,
} from '../reference/reference.catalogue.js';
import { isReferenceKind } from '../reference/reference.kinds.js';
import {
  DEFAULT_PLATFORM_SETTINGS,
  readSupplierSettings,
  type PlatformSettings,
  type SupplierSettings,
} from '../settings/settings.declared.js';

export interface PlatformData {
  /** `<catalogue marker>.<settings marker>`: changes whenever the catalogue or a setting does. */
  readonly version: string;
  readonly catalogue: ReferenceCatalogue;
  readonly settingsVersion: number;
  /** Every platform setting's value in force. */
  readonly settings: PlatformSettings;
}

/** PlatformData as plain data, for a validation thread. */
export interface PlatformDataMessage {
  readonly referenceVersion: number;
  readonly rows: readonly ReferenceRow[];
  readonly settingsVersion: number;
  readonly settings: PlatformSettings;
}

export function platformData(
  catalogue: ReferenceCatalogue,
  settingsVersion: number,
  settings: PlatformSettings = DEFAULT_PLATFORM_SETTINGS,
): PlatformData {
  return {
    version: `${catalogue.version}.${settingsVersion}`,
    catalogue,
    settingsVersion,
    settings: Object.freeze({ ...settings }),
  };
}

export const messageOf = (data: PlatformData): PlatformDataMessage => ({
  referenceVersion: data.catalogue.version,
  rows: rowsOf(data.catalogue),
  settingsVersion: data.settingsVersion,
  settings: data.settings,
});

export const platformDataFrom = (message: PlatformDataMessage): PlatformData =>
  platformData(
    catalogueOf(message.referenceVersion, message.rows),
    message.settingsVersion,
    message.settings,
  );

/**
 * What of an import supplier its accounts are validated with: its phone region and its rule
 * settings, as the canonical JSON text they are stored as (two equal settings, equal texts).
 */
export interface SupplierRule {
  readonly phoneRegion: string;
  readonly settings: string;
}

export const sameRule = (a: SupplierRule, b: SupplierRule): boolean =>
  a.phoneRegion === b.phoneRegion && a.settings === b.settings;

let lastSettingsText = '';
let lastSettings: SupplierSettings = readSupplierSettings(lastSettingsText);

/** The settings a supplier's stored text holds; most validations in a row read the same text. */
export function supplierSettingsOf(text: string): SupplierSettings {
  if (text !== lastSettingsText) {
    lastSettings = readSupplierSettings(text);
    lastSettingsText = text;
  }
  return lastSettings;
}

/**
 * The operations team a supplier's accounts go to (its `auto_allocation_team`), or null when
 * each process request or v2 account names its own.
 */
export const allocatedTeam = (supplier: { readonly rule_settings: string }): string | null =>
  supplierSettingsOf(supplier.rule_settings).auto_allocation_team;

/** The view one validation reads: the platform's data and the import supplier's settings. */
export function platformView(data: PlatformData, supplierSettings: string): PlatformView {
  const { catalogue } = data;
  return {
    entry: (kind, code) => (isReferenceKind(kind) ? catalogue.find(kind, code) : undefined),
    entries: (kind) => (isReferenceKind(kind) ? catalogue.entries(kind) : []),
    settings: data.settings,
    supplier: supplierSettingsOf(supplierSettings),
  };
}
