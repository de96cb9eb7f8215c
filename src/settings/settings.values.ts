/**
 * The types of setting values: how each is checked (a payload type), read from the text an
 * operator types on the command line, and shown back as such text.
 */
import { emailAddress } from '../payload/rules/email.js';
import { runType, startRun } from '../payload/run.js';
import { bool, enumOf, integer, pattern, str } from '../payload/scalars.js';
import { array, fail, type, type Type } from '../payload/validators.js';
import { quoted } from '../shared/quoted.js';

/** One type of setting value. */
export interface ValueKind<T> {
  /** The check of a value, given as JSON: a stored value and a read VALUE alike. */
  readonly type: Type<T>;
  /** What VALUE must be, for messages and help. */
  readonly expects: string;
  /** The VALUE text as the JSON value `type` checks; text it cannot read is passed on as is. */
  readonly read: (text: string) => unknown;
  /** The value as the VALUE text that sets it. */
  readonly show: (value: T) => string;
}

/** The checked value, or the details of what is wrong with it (maybe none, for a blank one). */
export function checkValue<T>(
  kind: Type<T>,
  value: unknown,
): { value: T } | { problems: string[] } {
  const result = runType(kind, value, startRun());
  if (result.ok) return { value: result.value };
  return {
    problems: result.errors.map(({ attr, detail }) => {
      const text = detail.replace(/\.$/, '');
      // A list's items are at `.0`, `.1`…: the operator counts them from 1.
      const index = /^\.(\d+)$/.exec(attr ?? '')?.[1];
      return index === undefined ? text : `item ${Number(index) + 1}: ${text}`;
    }),
  };
}

const TRUE = new Set(['true', 'on', 'yes']);
const FALSE = new Set(['false', 'off', 'no']);

/** true or false; VALUE is `true`, `on` or `yes`, `false`, `off` or `no`, in any letter case. */
export const onOff: ValueKind<boolean> = {
  type: bool,
  expects: 'true or false (or on/off, yes/no)',
  read: (text) => {
    const word = text.trim().toLowerCase();
    return TRUE.has(word) ? true : FALSE.has(word) ? false : text;
  },
  show: String,
};

/** A whole number from `min` to `max`, written in decimal digits. */
export function wholeNumber(min: number, max: number): ValueKind<number> {
  return {
    type: integer(min, max),
    expects: `a whole number from ${min} to ${max}`,
    read: (text) => (/^[+-]?\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : text),
    show: String,
  };
}

/** At most this many items in a list setting. */
export const MAX_ITEMS = 1000;

/** Distinct items, kept in the order given. */
function distinct<T extends string>(item: Type<T>): Type<T[]> {
  return array(item, {
    max: MAX_ITEMS,
    refine: (items, path, run) => {
      const seen = new Set<string>();
      items.forEach((value, i) => {
        if (value === undefined) return;
        const at = run.paths ? `${path}.${i}` : path;
        if (seen.has(value)) fail(run, at, 'duplicate', `${quoted(value)} is listed twice.`);
        seen.add(value);
      });
    },
  });
}

/**
 * A list of distinct items; VALUE gives them separated by commas, each trimmed (and lower-cased
 * when `lowerCase`), and an empty VALUE is the empty list.
 */
export function listOf<T extends string>(
  item: Type<T>,
  what: string,
  { lowerCase = false } = {},
): ValueKind<readonly T[]> {
  return {
    type: distinct(item),
    expects: `${what} separated by commas, or "" for none`,
    read: (text) =>
      text.trim() === ''
        ? []
        : text.split(',').map((part) => (lowerCase ? part.trim().toLowerCase() : part.trim())),
    show: (items) => (items.length === 0 ? '""' : items.join(',')),
  };
}

/** An e-mail address by its shape (a reserved example domain is accepted too). */
export const emailItem: Type<string> = emailAddress();

/** Text without control or bidirectional formatting characters, of 1 to 255 characters. */
const PLAIN = /^[^\p{Cc}\p{Bidi_Control}\u2028\u2029]{1,255}$/u;

/** A customer detail namespace, as the account's customer details name one. */
export const namespaceItem: Type<string> = pattern(
  PLAIN,
  'Expected a name of 1 to 255 characters, without control or bidirectional formatting characters.',
);

/**
 * The published names of a customer's roles (the values of `EnergyCustomer.role` and of a
 * business user's `business_roles`; test/settings checks them against the account's schema).
 */
export const PUBLISHED_ROLES = [
  'POWER_OF_ATTORNEY',
  'NEIGHBOUR',
  'LOA_LEVEL_1',
  'LOA_LEVEL_3',
  'CARER',
  'ADMIN',
  'EXECUTOR',
  'LOA_LEVEL_2',
  'STUDENT_HOUSE',
  'FRIEND_FAMILY_MEMBER',
] as const;

/**
 * A user role's name: one of the published ones, as written there (a customer's roles are
 * compared as given, so `admin` would never match one).
 */
export const roleItem: Type<string> = enumOf(PUBLISHED_ROLES);

/** An amount in major currency units, never negative: up to 8 digits and 2 decimals. */
export const amountAtLeastZero: ValueKind<string> = {
  type: pattern(
    /^\d{1,8}(?:\.\d{1,2})?$/,
    'Expected an amount such as 10 or 12.50 (up to 8 digits and 2 decimals, not negative).',
  ),
  expects: 'an amount such as 10 or 12.50, not negative',
  read: (text) => text.trim(),
  show: (value) => value,
};

/** The name of an operations team, or null for none. */
export const teamOrNone: Type<string | null> = (() => {
  const name = str(255);
  return type<string | null>(
    (value, path, run, parent) => {
      if (value === null) return null;
      const s = name.check(value, path, run, parent);
      if (typeof s !== 'string' || PLAIN.test(s)) return s;
      return fail(run, path, 'invalid_character', 'Expected a name without control characters.');
    },
    { type: ['string', 'null'], maxLength: 255 },
  );
})();
