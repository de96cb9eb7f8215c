/**
 * The reference catalogue in memory: every entry, by kind then code, with the change marker it
 * was read at. The account rules that need reference data answer from it. Built from rows
 * (catalogueOf) wherever they come from: the database (./reference.loader.ts) or, on a
 * validation thread, the rows the event loop sent (rowsOf).
 */
import {
  isReferenceKind,
  KINDS,
  type ReferenceAttributes,
  type ReferenceKind,
} from './reference.kinds.js';

export interface ReferenceCatalogue {
  /** The change marker the catalogue was read at (readReferenceVersion). */
  readonly version: number;
  /** The entries of the kind, by code; empty when there is none. */
  entries<K extends ReferenceKind>(kind: K): ReadonlyMap<string, Readonly<ReferenceAttributes<K>>>;
  /** The attributes of the entry, or undefined when the kind has no such code. */
  find<K extends ReferenceKind>(
    kind: K,
    code: string,
  ): Readonly<ReferenceAttributes<K>> | undefined;
}

/** One entry as stored: its attributes were checked when it was imported. */
export interface ReferenceRow {
  readonly kind: string;
  readonly code: string;
  readonly attributes: Record<string, unknown>;
}

/** The value frozen all the way down: the catalogue is shared by every check that reads it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The catalogue of `rows` at marker `version`. Rows of a kind this version does not declare
 * (stored by a newer one) are left out.
 */
export function catalogueOf(version: number, rows: Iterable<ReferenceRow>): ReferenceCatalogue {
  const byKind = new Map<string, Map<string, unknown>>(KINDS.map((kind) => [kind, new Map()]));
  for (const { kind, code, attributes } of rows) {
    if (isReferenceKind(kind)) byKind.get(kind)?.set(code, deepFreeze(attributes));
  }
  const entries = <K extends ReferenceKind>(kind: K) =>
    byKind.get(kind) as ReadonlyMap<string, Readonly<ReferenceAttributes<K>>>;
  return { version, entries, find: (kind, code) => entries(kind).get(code) };
}

/** Every entry of the catalogue as rows, for catalogueOf elsewhere (a validation thread). */
export function rowsOf(catalogue: ReferenceCatalogue): ReferenceRow[] {
  return KINDS.flatMap((kind) =>
    [...catalogue.entries(kind)].map(([code, attributes]) => ({
      kind,
      code,
      attributes: attributes as Record<string, unknown>,
    })),
  );
}
