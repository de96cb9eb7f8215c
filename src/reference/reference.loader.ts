/**
 * The reference catalogue read from the database, and read again only when its change marker
 * moved: an instance notices a change by reading the marker (one row).
 */
import type { Db } from '../db/database.js';
import { catalogueOf, type ReferenceCatalogue } from './reference.catalogue.js';
import * as repository from './reference.repository.js';

/** The catalogue's change marker: it changes whenever an entry is added, changed or removed. */
export function readReferenceVersion(db: Db): Promise<number> {
  return repository.readVersion(db.kysely);
}

/**
 * Reads every entry into memory. The marker is read first: a change committed between the two
 * reads is then in the catalogue under an older marker, and the next check of the marker
 * reloads it; the other order could keep a catalogue that lacks a change under its marker.
 */
export async function loadReferenceCatalogue(db: Db): Promise<ReferenceCatalogue> {
  const version = await readReferenceVersion(db);
  return catalogueOf(version, await repository.listEntries(db.kysely));
}

/** `catalogue` itself while its marker is current, else the catalogue read again. */
export async function refreshReferenceCatalogue(
  db: Db,
  catalogue: ReferenceCatalogue,
): Promise<ReferenceCatalogue> {
  const version = await readReferenceVersion(db);
  return version === catalogue.version ? catalogue : loadReferenceCatalogue(db);
}
