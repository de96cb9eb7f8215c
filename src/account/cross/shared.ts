/**
 * Small readers the cross-field rules share: values as sent, checked lists, exact decimals, paths
 * and the account's type.
 */
import { isObject, type Parent } from '../../payload/validators.js';
import type { Items } from '../rules.js';

/** Sent with a value: not absent, null or a blank string (a wrongly typed value counts). */
export const holdsData = (raw: unknown): boolean =>
  raw !== undefined && raw !== null && !(typeof raw === 'string' && raw.trim() === '');

/** Sent with a value that says something: as `holdsData`, and not an empty list either. */
export const filledIn = (raw: unknown): boolean =>
  holdsData(raw) && !(Array.isArray(raw) && raw.length === 0);

/**
 * Not given: absent, a blank string (which an optional field reads as absent), or null where
 * the field may be null. A null the field refuses has its own error: it counts as given.
 */
export function missing(out: Parent, input: Parent, name: string): boolean {
  const raw = input[name];
  if (raw === null) return out[name] === null;
  return raw === undefined || (typeof raw === 'string' && raw.trim() === '');
}

/** The checked items of a list, or undefined when it is missing or an item was refused. */
export function checkedItems(list: unknown): readonly Parent[] | undefined {
  if (!Array.isArray(list) || list.some((item) => item === undefined)) return undefined;
  return list as Parent[];
}

export const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** A list's items, each an object or undefined (an item refused by its own checks). */
export const objectsOf = (value: unknown): (Parent | undefined)[] =>
  listOf(value).map((item) => (isObject(item) ? item : undefined));

/** A checked list of objects as it is, or none. */
export const itemsOf = (value: unknown): Items<Parent> => (Array.isArray(value) ? value : []);

/** The checked items of a list with their indexes. */
export function* indexed(items: Items<Parent>): Generator<[number, Parent]> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item !== undefined) yield [i, item];
  }
}

/** The object's own path, from the prefix of its fields (`a.b.` is `a.b`). */
export const objectPath = (prefix: string): string => prefix.slice(0, -1);

/** Places of the scaled decimals: the most any published decimal field carries. */
export const DECIMAL_SCALE = 10;

/** A checked decimal string as an integer of `scale` places (digits past it are dropped). */
export function scaled(decimal: string, scale = DECIMAL_SCALE): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const digits = BigInt(`0${whole}${fraction.padEnd(scale, '0').slice(0, scale)}`);
  return negative ? -digits : digits;
}

/** The account's type: `account_type`, else the deprecated lead or managed flag. */
export function accountType(out: Parent): string | undefined {
  if (typeof out.account_type === 'string') return out.account_type;
  if (out.is_portfolio_lead === true) return 'PORTFOLIO_LEAD';
  if (out.is_managed === true) return 'MANAGED';
  return undefined;
}

export const isDomestic = (type: string | undefined): boolean =>
  type?.startsWith('DOMESTIC') === true;
export const isBusiness = (type: string | undefined): boolean =>
  type?.startsWith('BUSINESS') === true;
export const isOccupier = (out: Parent): boolean =>
  out.unknown_occupier === true || accountType(out)?.endsWith('_OCCUPIER') === true;

/** The objects of `o[name]` when it is a list, else none. */
export const listIn = (o: Parent, name: string): readonly Parent[] => {
  const v = o[name];
  return Array.isArray(v) ? (v as Parent[]) : [];
};

/** Every value sent within `raw` passed its own checks (so a rule never reports twice). */
export function intact(out: unknown, raw: unknown): boolean {
  if (Array.isArray(raw)) {
    return (
      Array.isArray(out) && out.length === raw.length && raw.every((r, i) => intact(out[i], r))
    );
  }
  if (isObject(raw)) {
    if (!isObject(out)) return false;
    for (const key in raw) {
      if (!!holdsData(raw[key]) && !intact(out[key], raw[key])) return false;
    }
    return true;
  }
  return out !== undefined;
}

/** The field passed its own checks, or was not sent. */
export const fieldIntact = (out: Parent, input: Parent, name: string) =>
  !holdsData(input[name]) || intact(out[name], input[name]);

/** A field sent but refused by its own checks: rules say nothing about it. */
export const UNSURE: unique symbol = Symbol('unsure');
export type Field = string | null | undefined | typeof UNSURE;

/** A checked date or string field of `out` (null when sent as null), or UNSURE. */
export function fieldOf(out: Parent, raw: unknown, name: string): Field {
  const value = out[name];
  if (typeof value === 'string' || value === null) return value;
  return isObject(raw) && holdsData(raw[name]) ? UNSURE : undefined;
}

/** Item `i` of the list `name` of an object as sent. */
export const rawItem = (raw: unknown, name: string, i: number): unknown => {
  const list = isObject(raw) ? raw[name] : undefined;
  return Array.isArray(list) ? list[i] : undefined;
};

/** Dates (or any strings) in order. */
export const byDate = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
