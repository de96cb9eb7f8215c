/**
 * The kinds of reference data and the attributes each one carries, declared once: adding a
 * kind is one more entry in REFERENCE_KINDS. Attributes are checked with the payload's
 * combinators (src/payload/), so an entry is refused for a missing, wrong or unknown attribute
 * exactly as a payload field would be.
 */
import { instant } from '../payload/dates.js';
import { documentPath } from '../payload/rules/document-path.js';
import { optional, required, type ObjectOf, type Shape } from '../payload/object.js';
import { bool, enumOf, str } from '../payload/scalars.js';
import { array, fail, type, type Type } from '../payload/validators.js';
import { quoted } from '../shared/quoted.js';

/** The longest code, name or other text an entry holds, in code points. */
export const MAX_TEXT = 255;

/**
 * Characters a terminal could act on: a line break or escape sequence would garble the
 * operator's listings, and a bidirectional formatting character would make the text shown
 * differ from the text stored.
 */
export const UNSHOWABLE = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;

/** Trimmed text of 1 to MAX_TEXT code points, without control or bidirectional formatting characters. */
export const label: Type<string> = (() => {
  const base = str(MAX_TEXT);
  return type((value, path, run, parent) => {
    const s = base.check(value, path, run, parent);
    if (typeof s !== 'string' || !UNSHOWABLE.test(s)) return s;
    return fail(
      run,
      path,
      'invalid_character',
      'Expected text without control or bidirectional formatting characters.',
    );
  }, base.schema);
})();

/**
 * The most bytes (UTF-8) of a document path kept as a code: PostgreSQL indexes a key of at most
 * about a third of a page, and a path of 1,024 characters outside ASCII can be longer.
 */
const MAX_DOCUMENT_CODE_BYTES = 2048;

/** An uploaded document's code: a document path, of at most MAX_DOCUMENT_CODE_BYTES. */
const documentCode: Type<string> = type((value, path, run, parent) => {
  const s = documentPath.check(value, path, run, parent);
  if (typeof s !== 'string' || Buffer.byteLength(s) <= MAX_DOCUMENT_CODE_BYTES) return s;
  return fail(
    run,
    path,
    'max_length',
    `Expected a path of at most ${MAX_DOCUMENT_CODE_BYTES} bytes in UTF-8.`,
  );
}, documentPath.schema);

/** A list of distinct items (a set, kept in the order given), at most `max` of them. */
function setOf<T extends string>(item: Type<T>, { min = 0, max = 1000 } = {}): Type<T[]> {
  return array(item, {
    min,
    max,
    refine: (items, path, run) => {
      const seen = new Set<string>();
      items.forEach((value, i) => {
        if (value === undefined) return;
        if (seen.has(value)) {
          const at = run.paths ? `${path}.${i}` : path;
          fail(run, at, 'duplicate', `${quoted(value)} is listed twice.`);
        }
        seen.add(value);
      });
    },
  });
}

const SUPPLY_TYPE = enumOf(['ELECTRICITY', 'GAS']);
/** Roles a market participant plays in the industry's data flows. */
const ROLE = enumOf(['SUPPLIER', 'SHIPPER', 'MOP', 'DC', 'DA', 'MAM']);
/** The JSON type a detail's value must have: LIST is an array, DATE a `YYYY-MM-DD` string. */
const VALUE_TYPE = enumOf(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'DATE', 'LIST', 'OBJECT']);

export interface KindDeclaration {
  /** What the entries are, and what the code is, for the operator's help and the docs. */
  readonly summary: string;
  /** The check of an entry's code, when not a `label`. */
  readonly code?: Type<string>;
  readonly attributes: Shape;
}

const NONE = {} as const;

export const REFERENCE_KINDS = {
  tariff: {
    summary: 'a tariff an agreement may name by its code; its rate bands, product, payment kind',
    attributes: {
      supply_type: required(SUPPLY_TYPE),
      rate_bands: optional(setOf(label)),
      // The product the tariff prices: agreements on the tariff are agreements for it.
      product: optional(label),
      // True for a prepayment tariff, false for a credit one; not given, the rules do not ask.
      prepay: optional(bool),
    },
  },
  product: {
    summary: 'a product; its characteristics, when it is on sale, whether its price varies',
    attributes: {
      characteristics: optional(setOf(label)),
      available_from: optional(instant()),
      // The first instant it is no longer available; not given, it has no end.
      available_to: optional(instant()),
      // A variable or tracker product (its price follows the market).
      variable: optional(bool),
    },
  },
  market_participant: {
    summary: 'a market participant by its MPID; its market and roles',
    attributes: {
      supply_type: required(SUPPLY_TYPE),
      roles: required(setOf(ROLE, { min: 1 })),
    },
  },
  tpr: { summary: 'a time pattern regime', attributes: NONE },
  ledger_type: { summary: 'a ledger type by its ledger code', attributes: NONE },
  campaign: { summary: 'a campaign by its slug; its name', attributes: { name: required(label) } },
  dunning_path: { summary: 'a dunning path', attributes: NONE },
  reference_namespace: { summary: 'an account reference namespace', attributes: NONE },
  psr_code: {
    // Both markets use the same codes, and an entry is keyed by its kind and code alone: an
    // entry without a market serves both.
    summary: 'a Priority Services Register industry code; its description, its market if only one',
    attributes: {
      supply_type: optional(SUPPLY_TYPE),
      description: required(label),
      // A need registered for a while only: its registration has an end date.
      temporary: optional(bool),
    },
  },
  debt_collection_agency: { summary: 'a debt collection agency by its name', attributes: NONE },
  contribution_scheme: { summary: 'a contribution scheme', attributes: NONE },
  affiliate_organisation: { summary: 'an affiliate organisation by its name', attributes: NONE },
  partner_organisation: { summary: 'a partner organisation', attributes: NONE },
  payment_plan_strategy: { summary: 'a payment plan strategy by its name', attributes: NONE },
  complaint_type: {
    summary: 'a complaint type; its subtypes',
    attributes: { subtypes: optional(setOf(label)) },
  },
  complaint_source: { summary: 'a complaint source', attributes: NONE },
  official_complaints_organisation: {
    summary: 'an official complaints organisation; the statuses it uses',
    attributes: { statuses: optional(setOf(label)) },
  },
  customer_detail_namespace: {
    summary: "a customer detail namespace; its value's type",
    attributes: { value_type: required(VALUE_TYPE) },
  },
  business_detail_key: {
    summary: "a business detail key; its value's type",
    attributes: { value_type: required(VALUE_TYPE) },
  },
  characteristic: {
    summary: 'a product characteristic by its code; the values it may take',
    attributes: { values: required(setOf(label, { min: 1 })) },
  },
  agent_contract_reference: {
    // What the contract is also known by, where the platform holds it: the payload must agree.
    summary: "an agent contract reference; the agent's MPID and the service references",
    attributes: {
      agent_mpid: optional(label),
      service_reference: optional(label),
      service_level_reference: optional(label),
    },
  },
  uploaded_document: {
    // Read only with the platform setting document_path_check_enabled on.
    summary:
      'a file uploaded to the migration file store, by the path documents name it with (leading slash)',
    // A code a payload's path could never equal would never be found: a document path, as
    // long as one may be (in bytes, as long as a key may be).
    code: documentCode,
    attributes: NONE,
  },
} as const satisfies Record<string, KindDeclaration>;

export type ReferenceKind = keyof typeof REFERENCE_KINDS;

/** The attributes of an entry of kind K, as checked and stored. */
export type ReferenceAttributes<K extends ReferenceKind> = ObjectOf<
  (typeof REFERENCE_KINDS)[K]['attributes']
>;

/** Every kind, in declaration order. */
export const KINDS = Object.keys(REFERENCE_KINDS) as ReferenceKind[];

export function isReferenceKind(name: string): name is ReferenceKind {
  return Object.hasOwn(REFERENCE_KINDS, name);
}
