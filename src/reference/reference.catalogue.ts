/**
 * The reference catalogue in memory: every entry, by kind then code, read at once, with the
 * change marker it was read at. The account rules that need reference data answer from it; an
 * instance notices a change by reading the marker (one row), and reloads only then.
 */
import type { Db } from '../db/database.js';
import {
  isReferenceKind,
  KINDS,
  type ReferenceAttributes,
  type ReferenceKind,
} from './reference.kinds.js';
import * as repository from './reference.repository.js';

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

/** The value frozen all the way down: the catalogue is shared by every check that reads it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The catalogue's change marker: it changes whenever an entry is added, changed or removed. */
export function readReferenceVersion(db: Db): Promise<number> {
  return repository.readVersion(db.kysely);
}

/**
 * Reads every entry into memory. The marker is read first: a change committed between the two
 * reads is then in the catalogue under an older marker, and the next check of the marker
 * reloads it; the other order could keep a catalogue that lacks a change under its marker.
 * Entries of a kind this version does not declare (stored by a newer one) are left out.
 */
export async function loadReferenceCatalogue(db: Db): Promise<ReferenceCatalogue> {
  const version = await readReferenceVersion(db);
  const rows = await repository.listEntries(db.kysely);
  const byKind = new Map<string, Map<string, unknown>>(KINDS.map((kind) => [kind, new Map()]));
  for (const { kind, code, attributes } of rows) {
    if (isReferenceKind(kind)) byKind.get(kind)?.set(code, deepFreeze(attributes));
  }
  const entries = <K extends ReferenceKind>(kind: K) =>
    byKind.get(kind) as ReadonlyMap<string, Readonly<ReferenceAttributes<K>>>;
  return { version, entries, find: (kind, code) => entries(kind).get(code) };
}

/** `catalogue` itself while its marker is current, else the catalogue read again. */
export async function refreshReferenceCatalogue(
  db: Db,
  catalogue: ReferenceCatalogue,
): Promise<ReferenceCatalogue> {
  const version = await readReferenceVersion(db);
  return version === catalogue.version ? catalogue : loadReferenceCatalogue(db);
}
