/**
 * The realistic defects a sample line may carry, one each, with the error the service must
 * answer: tests compare the loader's report against these exactly. A defect spoils a field the
 * account already has (only the column no schema defines is new), so each shape draws from the
 * defects that fit its accounts.
 */
import { addDays, addMonths } from './calendar.js';
import { psrDescription } from './codes.js';
import type { Prng } from './prng.js';
import { mpanWithBadCheckDigit, shortMobile, truncatedPostcode } from './uk-data.js';

/** The one field error a defective line must produce. */
export interface ExpectedError {
  code: string;
  attr: string;
}

type Json = Record<string, unknown>;
type Path = readonly (string | number)[];

/** A field of the account: the object holding it, its key and its path as errors name it. */
interface Spot {
  parent: Json;
  key: string;
  attr: string;
}

export interface Defect {
  name: string;
  code: string;
  /** The field this defect spoils in `account`; undefined when the account has no such field. */
  find(account: Json): Spot | undefined;
  /** The spoilt value (undefined: the field is left out). */
  spoil(value: unknown, random: Prng, today: string): unknown;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The field at `path`, when the account has it (or, with `absent`, when its object exists). */
function spot(account: Json, path: Path, absent = false): Spot | undefined {
  let node: unknown = account;
  for (const step of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  const key = String(path[path.length - 1]);
  if (!isObject(node) || (!absent && node[key] === undefined)) return undefined;
  return { parent: node, key, attr: path.join('.') };
}

const FIRST_POINT = ['supply_addresses', 0, 'meter_points', 0] as const;

function firstGasPoint(account: Json): number | undefined {
  const supply = (account.supply_addresses as Json[] | undefined)?.[0];
  const points = (supply?.meter_points as Json[] | undefined) ?? [];
  const index = points.findIndex((point) => point.supply_type === 'GAS');
  return index < 0 ? undefined : index;
}

function lastCurrentTransaction(account: Json): Path | undefined {
  const ledger = (account.ledgers as Json[] | undefined)?.[0];
  const count = (ledger?.current_statement_transactions as unknown[] | undefined)?.length ?? 0;
  return count === 0
    ? undefined
    : ['ledgers', 0, 'current_statement_transactions', count - 1, 'transaction_date'];
}

export const DEFECTS: readonly Defect[] = [
  {
    name: 'mobile with a digit missing',
    code: 'invalid_phone_number',
    find: (account) => spot(account, ['customers', 0, 'mobile']),
    spoil: (_value, random) => shortMobile(random),
  },
  {
    name: 'MPAN with a wrong check digit, or MPRN cut short',
    code: 'invalid_supply_point_identifier',
    find: (account) => spot(account, [...FIRST_POINT, 'identifier']),
    spoil: (value) => {
      const identifier = String(value);
      return identifier.length === 13 ? mpanWithBadCheckDigit(identifier) : identifier.slice(0, 5);
    },
  },
  {
    name: 'impossible date',
    code: 'invalid_date',
    find: (account) =>
      spot(account, ['supply_addresses', 0, 'customer_at_supply_address_from_date']),
    spoil: (value) => `${String(value).slice(0, 4)}-02-30`,
  },
  {
    name: 'column no schema defines',
    code: 'unknown_field',
    find: (account) => spot(account, ['customers', 0, 'middle_name'], true),
    spoil: () => 'Anne',
  },
  {
    name: 'postcode cut short',
    code: 'invalid_postcode',
    find: (account) =>
      spot(account, ['billing_address', 'postal_code']) ?? spot(account, ['billing_postcode']),
    spoil: (value) => truncatedPostcode(String(value)),
  },
  {
    name: 'e-mail with a dot for its @',
    code: 'invalid_email',
    find: (account) => spot(account, ['customers', 0, 'email']),
    spoil: (value) => String(value).replace('@', '.'),
  },
  {
    name: 'PSR need written as its label',
    code: 'psr_invalid_industry_code',
    find: (account) =>
      spot(account, ['customers', 0, 'psr', 0, 'elec_industry_code']) ??
      spot(account, ['customers', 0, 'psr', 0, 'gas_industry_code']),
    spoil: (value) => psrDescription(String(value)) ?? 'Pensionable age',
  },
  {
    name: 'ledger balance with a pound sign',
    code: 'invalid_decimal',
    find: (account) => spot(account, ['ledgers', 0, 'ledger_balance']),
    spoil: (value) => {
      const amount = String(value);
      return amount.startsWith('-') ? `-£${amount.slice(1)}` : `£${amount}`;
    },
  },
  {
    name: 'payment schedule means spelt out',
    code: 'invalid_choice',
    find: (account) => spot(account, ['payment_schedules', 0, 'means']),
    spoil: () => 'DIRECT_DEBIT',
  },
  {
    name: 'transaction dated a year ahead',
    code: 'transaction_in_future',
    find: (account) => {
      const path = lastCurrentTransaction(account);
      return path === undefined ? undefined : spot(account, path);
    },
    // The year keyed one too high: still ahead when the file is loaded weeks later.
    spoil: (value) => addMonths(String(value), 12),
  },
  {
    name: 'gas meter point without its shipper',
    code: 'required',
    find: (account) => {
      const index = firstGasPoint(account);
      return index === undefined
        ? undefined
        : spot(account, ['supply_addresses', 0, 'meter_points', index, 'shipper_mpid']);
    },
    spoil: () => undefined,
  },
  {
    name: 'transfer reading without its type',
    code: 'required',
    find: (account) =>
      spot(account, [...FIRST_POINT, 'meters', 0, 'transfer_readings', 0, 'reading_type']),
    spoil: () => undefined,
  },
  {
    name: 'tax year as one year',
    code: 'incorrect_format_for_tax_year',
    find: (account) => spot(account, ['warm_home_discount', 0, 'tax_year']),
    spoil: (value) => String(value).slice(0, 4),
  },
  {
    name: 'dunning path started already',
    code: 'date_in_past',
    find: (account) => spot(account, ['dunning_path', 'start_date']),
    spoil: (_value, random, today) => addDays(today, -random.int(1, 30)),
  },
];

/** Applies `defect` to `account` in place; undefined (and nothing changed) when it does not fit. */
export function applyDefect(
  defect: Defect,
  account: Json,
  random: Prng,
  today: string,
): ExpectedError | undefined {
  const found = defect.find(account);
  if (found === undefined) return undefined;
  const value = defect.spoil(found.parent[found.key], random, today);
  if (value === undefined) delete found.parent[found.key];
  else found.parent[found.key] = value;
  return { code: defect.code, attr: found.attr };
}

/** Spoils the (freshly generated, unshared) account with one of the defects that fit it. */
export function pickDefect(account: Json, random: Prng, today: string): ExpectedError {
  const fitting = DEFECTS.filter((defect) => defect.find(account) !== undefined);
  const expected = applyDefect(random.pick(fitting), account, random, today);
  if (expected === undefined) throw new Error('a fitting defect did not apply');
  return expected;
}
