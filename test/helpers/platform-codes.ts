/**
 * The platform codes an account names (tariffs, market participants, TPRs, PSR codes, ledger
 * types, namespaces, campaigns, dunning paths, debt agencies), and those a catalogue lacks.
 */
import type { ReferenceCatalogue } from '../../src/reference/reference.catalogue.js';
import type { ReferenceKind } from '../../src/reference/reference.kinds.js';

type Json = Record<string, unknown>;
type SupplyType = 'ELECTRICITY' | 'GAS';

/** One code an account names, where, and what the entry it names must be. */
export interface PlatformCode {
  path: string;
  kind: ReferenceKind;
  code: string;
  /** The market the entry must serve, for kinds that have one. */
  supplyType?: SupplyType;
  /** The role a market participant must play. */
  role?: 'SUPPLIER' | 'SHIPPER';
  /** The PSR description given beside the code, which must be the code's. */
  description?: string;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const items = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** Every platform code of the account, in document order. */
export function platformCodesOf(account: Json): PlatformCode[] {
  const found: PlatformCode[] = [];
  const add = (
    path: string,
    kind: ReferenceKind,
    code: unknown,
    extra: Omit<PlatformCode, 'path' | 'kind' | 'code'> = {},
  ) => {
    if (typeof code === 'string' && code !== '') found.push({ path, kind, code, ...extra });
  };
  items(account.customers).forEach((customer, i) => {
    items(customer.psr).forEach((psr, j) => {
      const at = `customers.${i}.psr.${j}`;
      const description = typeof psr.description === 'string' ? psr.description : undefined;
      const extra = (supplyType: SupplyType) =>
        description ? { supplyType, description } : { supplyType };
      add(`${at}.elec_industry_code`, 'psr_code', psr.elec_industry_code, extra('ELECTRICITY'));
      add(`${at}.gas_industry_code`, 'psr_code', psr.gas_industry_code, extra('GAS'));
    });
  });
  items(account.supply_addresses).forEach((address, i) => {
    items(address.meter_points).forEach((point, j) => {
      const at = `supply_addresses.${i}.meter_points.${j}`;
      const supplyType = point.supply_type as SupplyType;
      add(`${at}.mpid`, 'market_participant', point.mpid, { supplyType, role: 'SUPPLIER' });
      add(`${at}.shipper_mpid`, 'market_participant', point.shipper_mpid, {
        supplyType: 'GAS',
        role: 'SHIPPER',
      });
      items(point.agreements).forEach((agreement, k) => {
        add(`${at}.agreements.${k}.tariff_code`, 'tariff', agreement.tariff_code, { supplyType });
      });
      items(point.meters).forEach((meter, k) => {
        items(meter.registers).forEach((register, r) => {
          add(`${at}.meters.${k}.registers.${r}.tpr`, 'tpr', register.tpr);
        });
      });
      items(point.eac_history).forEach((eac, k) =>
        add(`${at}.eac_history.${k}.tpr`, 'tpr', eac.tpr),
      );
    });
  });
  for (const list of ['ledgers', 'payment_instructions', 'payment_schedules']) {
    items(account[list]).forEach((item, i) => {
      add(`${list}.${i}.ledger_code`, 'ledger_type', item.ledger_code);
    });
  }
  items(account.references).forEach((reference, i) => {
    add(`references.${i}.namespace`, 'reference_namespace', reference.namespace);
  });
  items(account.account_campaigns).forEach((campaign, i) => {
    add(`account_campaigns.${i}.slug`, 'campaign', campaign.slug);
  });
  if (isObject(account.dunning_path)) {
    add('dunning_path.path_name', 'dunning_path', account.dunning_path.path_name);
  }
  items(account.debts).forEach((debt, i) => {
    add(`debts.${i}.agency_name`, 'debt_collection_agency', debt.agency_name);
  });
  if (isObject(account.debt)) {
    add('debt.agency_name', 'debt_collection_agency', account.debt.agency_name);
  }
  return found;
}

/** What is wrong with each code the catalogue does not hold as the account needs it; [] when none. */
export function codesMissingFrom(catalogue: ReferenceCatalogue, account: Json): string[] {
  const problems: string[] = [];
  for (const { path, kind, code, supplyType, role, description } of platformCodesOf(account)) {
    const entry = catalogue.find(kind, code) as Readonly<Json> | undefined;
    const named = `${path}: ${kind} ${JSON.stringify(code)}`;
    if (entry === undefined) {
      problems.push(`${named} is not in the catalogue`);
      continue;
    }
    // An entry without a market serves both (PSR codes).
    if (supplyType !== undefined && entry.supply_type !== undefined) {
      if (entry.supply_type !== supplyType) problems.push(`${named} is not ${supplyType}`);
    }
    if (role !== undefined && !(entry.roles as string[]).includes(role)) {
      problems.push(`${named} is not a ${role}`);
    }
    if (description !== undefined && entry.description !== description) {
      problems.push(`${named} is described as ${JSON.stringify(entry.description)}`);
    }
  }
  return problems;
}
