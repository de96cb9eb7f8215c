/** The suppliers a stage validates against without reading them again (see KnownSuppliers). */
import type { Caller } from '../../auth/access.js';
import type { ImportSupplier } from '../../db/database.js';
import type { SupplierRules } from '../../account/threads/validation-threads.js';
import { sameRule, type SupplierRule } from '../../platform/platform-data.js';

/** What a supplier's accounts are validated with: its phone region and rule settings. */
export const supplierRule = (supplier: ImportSupplier): SupplierRule => ({
  phoneRegion: supplier.phone_region,
  settings: supplier.rule_settings,
});

/**
 * The suppliers this instance last read, by code. A stage validates its payload against the
 * remembered supplier, and the stage statement itself checks that the caller and the supplier
 * are still as remembered: one query per stage instead of two. Any difference sends the stage
 * the long way (a fresh lookup and validation), so an outdated entry costs time, never
 * correctness. Only suppliers read from the database are kept, so the map is bounded by them.
 * Validation threads are told each remembered supplier's rule (phone region and settings).
 *
 * A supplier is only used for the callers it was found granted to (by organisation and key
 * version). Another organisation's stage naming it takes the long way at once, as for a code
 * that does not exist: through the stage statement's refusal first, it took measurably longer,
 * which told any caller which codes exist and are in use (docs/interface.md, Import supplier: a supplier that does not
 * exist and one the caller may not use look the same).
 */
export class KnownSuppliers implements SupplierRules {
  readonly #byCode = new Map<string, ImportSupplier>();
  /** `organisation:keyVersion:code` of each caller found granted the supplier with that code. */
  readonly #granted = new Set<string>();
  #version = 0;

  /** The remembered supplier when this caller was granted it and it accepts accounts. */
  ongoing(code: unknown, caller: Caller): ImportSupplier | undefined {
    if (typeof code !== 'string') return undefined;
    const trimmed = code.trim();
    if (!this.#granted.has(grantKey(caller, trimmed))) return undefined;
    const supplier = this.#byCode.get(trimmed);
    return supplier?.status === 'Ongoing' ? supplier : undefined;
  }

  /** A supplier just read from the database, granted to this caller. */
  remember(supplier: ImportSupplier, caller: Caller): void {
    const known = this.#byCode.get(supplier.code);
    if (known === undefined || !sameRule(supplierRule(known), supplierRule(supplier)))
      this.#version += 1;
    this.#byCode.set(supplier.code, supplier);
    this.#granted.add(grantKey(caller, supplier.code));
  }

  get version(): number {
    return this.#version;
  }

  ruleOf(code: string): SupplierRule | undefined {
    const supplier = this.#byCode.get(code);
    return supplier === undefined ? undefined : supplierRule(supplier);
  }

  rules(): [code: string, rule: SupplierRule][] {
    return [...this.#byCode.values()].map((supplier) => [supplier.code, supplierRule(supplier)]);
  }
}

const grantKey = (caller: Caller, code: string) =>
  `${caller.organisationId}:${caller.keyVersion}:${code}`;
