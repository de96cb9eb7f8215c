/**
 * What the account's rules read of the platform, typed: reference entries by kind and code
 * (../reference/), platform settings and the import supplier's settings (../settings/), through
 * the run's PlatformView.
 */
import type { Run } from '../payload/validators.js';
import type { ReferenceAttributes, ReferenceKind } from '../reference/reference.kinds.js';
import {
  DEFAULT_PLATFORM_SETTINGS,
  DEFAULT_SUPPLIER_SETTINGS,
  type PlatformSettingKey,
  type PlatformSettings,
  type SupplierSettingKey,
  type SupplierSettings,
} from '../settings/settings.declared.js';

/** The attributes of the platform's entry of `kind` with `code`, or undefined without one. */
export function referenceEntry<K extends ReferenceKind>(
  run: Run,
  kind: K,
  code: string,
): Readonly<ReferenceAttributes<K>> | undefined {
  // The view is built from a ReferenceCatalogue, whose entries are checked by kind on import.
  return run.platform.entry(kind, code) as Readonly<ReferenceAttributes<K>> | undefined;
}

/** Every entry of `kind` as [code, attributes], for a lookup by an attribute rather than the code. */
export function referenceEntries<K extends ReferenceKind>(
  run: Run,
  kind: K,
): Iterable<readonly [string, Readonly<ReferenceAttributes<K>>]> {
  return run.platform.entries(kind) as Iterable<
    readonly [string, Readonly<ReferenceAttributes<K>>]
  >;
}

/** A platform setting's value in force (its default when the view does not give it). */
export function platformSetting<K extends PlatformSettingKey>(
  run: Run,
  key: K,
): PlatformSettings[K] {
  const value = run.platform.settings[key] as PlatformSettings[K] | undefined;
  return value ?? DEFAULT_PLATFORM_SETTINGS[key];
}

/** The import supplier's setting (its default when the view does not give it). */
export function supplierSetting<K extends SupplierSettingKey>(
  run: Run,
  key: K,
): SupplierSettings[K] {
  const value = run.platform.supplier[key] as SupplierSettings[K] | undefined;
  return value ?? DEFAULT_SUPPLIER_SETTINGS[key];
}
