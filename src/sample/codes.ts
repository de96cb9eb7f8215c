/**
 * The platform codes sample accounts name, all drawn from the demo catalogue
 * (src/reference/reference.demo.ts), so that a platform seeded with it knows every one:
 * tariffs, market participants, TPRs, PSR needs, debt agencies, dunning paths, campaigns and
 * reference namespaces. Lists keep the catalogue's order, so draws from them are reproducible.
 */
import { demoCatalogue } from '../reference/reference.demo.js';
import type { ReferenceAttributes, ReferenceKind } from '../reference/reference.kinds.js';

const catalogue = demoCatalogue();

type SupplyType = 'ELECTRICITY' | 'GAS';

/** The codes of `kind` whose attributes pass `keep`, in the catalogue's order; at least one. */
function codes<K extends ReferenceKind>(
  kind: K,
  keep: (attributes: Readonly<ReferenceAttributes<K>>) => boolean = () => true,
): string[] {
  const found = [...catalogue.entries(kind)].filter(([, a]) => keep(a)).map(([code]) => code);
  if (found.length === 0) throw new Error(`the demo catalogue has no ${kind} the samples can use`);
  return found;
}

/** `code` itself, once the demo catalogue is known to hold it as a `kind`. */
export function known(kind: ReferenceKind, code: string): string {
  if (catalogue.find(kind, code) === undefined) {
    throw new Error(`the demo catalogue has no ${kind} ${JSON.stringify(code)}`);
  }
  return code;
}

export interface TariffChoice {
  /** Tariffs for a fixed term (`-FIX-` in the code). */
  fixed: readonly string[];
  /** Tariffs an account stays on once its fixed terms are over. */
  variable: readonly string[];
}

function tariffChoice(supplyType: SupplyType, rates: number): TariffChoice {
  const all = codes(
    'tariff',
    // A prepayment tariff is kept for prepayment meters; the samples' meters may be either.
    (a) =>
      a.supply_type === supplyType && (a.rate_bands?.length ?? 1) === rates && a.prepay !== true,
  );
  const fixed = all.filter((code) => code.includes('-FIX-'));
  const variable = all.filter((code) => !code.includes('-FIX-'));
  if (fixed.length === 0 || variable.length === 0) {
    throw new Error(
      `the demo catalogue lacks fixed or variable ${supplyType} ${rates}-rate tariffs`,
    );
  }
  return { fixed, variable };
}

const TARIFFS = {
  ELECTRICITY: [1, 2].map((rates) => tariffChoice('ELECTRICITY', rates)),
  GAS: [tariffChoice('GAS', 1)],
};

/** The tariffs of the supply type with `rates` rate bands (1 or 2 for electricity, 1 for gas). */
export function tariffs(supplyType: SupplyType, rates: number): TariffChoice {
  const choice = TARIFFS[supplyType][rates - 1];
  if (choice === undefined) throw new Error(`no ${supplyType} tariffs of ${rates} rates`);
  return choice;
}

const suppliers = (supplyType: SupplyType) =>
  codes('market_participant', (a) => a.supply_type === supplyType && a.roles.includes('SUPPLIER'));

const ELECTRICITY_SUPPLIERS = suppliers('ELECTRICITY');
const GAS_SUPPLIERS = suppliers('GAS');

/** Gas shippers' market participant ids. */
export const GAS_SHIPPERS = codes(
  'market_participant',
  (a) => a.supply_type === 'GAS' && a.roles.includes('SHIPPER'),
);

/**
 * The supplier's own market participant ids, one per fuel, chosen by its code: every meter
 * point of one supplier's file names the same ones, as a real supplier's do. An electricity
 * MPID that begins the code is the supplier's (DEMO for DEMO, TENT for TENTACLE_ENERGY);
 * otherwise the code's hash picks one. The catalogue lists both fuels' suppliers in the same
 * order, so the n-th of each make one supplier's pair.
 */
export function supplierMpids(supplier: string): { electricity: string; gas: string } {
  const letters = supplier.toUpperCase().replace(/[^A-Z0-9]/g, '');
  let index = ELECTRICITY_SUPPLIERS.findIndex((mpid) => letters.startsWith(mpid));
  if (index < 0) {
    let hash = 0;
    for (const c of letters) hash = (Math.imul(hash, 31) + (c.codePointAt(0) ?? 0)) >>> 0;
    index = hash;
  }
  return {
    electricity: ELECTRICITY_SUPPLIERS[index % ELECTRICITY_SUPPLIERS.length] as string,
    gas: GAS_SUPPLIERS[index % GAS_SUPPLIERS.length] as string,
  };
}

export interface PsrNeed {
  code: string;
  description: string;
  /** Registered for a while, with an end date. */
  temporary: boolean;
}

/** Priority Services Register needs that serve both fuels, as a customer of both registers them. */
export const PSR_NEEDS: readonly PsrNeed[] = codes(
  'psr_code',
  (a) => a.supply_type === undefined,
).map((code) => {
  const entry = catalogue.find('psr_code', code);
  return { code, description: entry?.description ?? '', temporary: entry?.temporary === true };
});

/** The description of the PSR code, or undefined when the catalogue has no such code. */
export const psrDescription = (code: string): string | undefined =>
  catalogue.find('psr_code', code)?.description;

export const DEBT_AGENCIES = codes('debt_collection_agency');
export const DUNNING_PATHS = codes('dunning_path');

/** Campaigns by slug, with their names. */
export const CAMPAIGNS: readonly { slug: string; name: string }[] = codes('campaign').map(
  (slug) => ({ slug, name: catalogue.find('campaign', slug)?.name ?? slug }),
);

/** Where the old CRM's account number goes. */
export const CRM_NAMESPACE = known('reference_namespace', 'legacy-crm');
/** Where a prepayment customer's payment card number goes. */
export const CARD_NAMESPACE = known('reference_namespace', 'allpay-client-reference-number');
