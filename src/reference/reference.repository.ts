/** Every SQL statement on reference data and its change marker; rows are mapped to views here. */
import type { Insertable, Kysely, Selectable } from 'kysely';
import { raiseChangeMarker, readChangeMarker } from '../db/change-markers.js';
import type { Database, ReferenceEntriesTable } from '../db/database.js';
import type { StoredReferenceEntry } from './reference.types.js';

/**
 * The `settings` key of the change marker: a number bumped by every write that changes an
 * entry (migration 20261128_0008 removes it with the table).
 */
const VERSION_KEY = 'reference_catalogue_version';

/** The advisory lock that serialises the writes to reference data on PostgreSQL. */
export const REFERENCE_LOCK_KEY = 7_201_401;

/** Rows inserted by one statement: 4 parameters each, far below SQLite's 32,766. */
const ROWS_PER_INSERT = 500;

function toEntry(row: Selectable<ReferenceEntriesTable>): StoredReferenceEntry {
  return {
    kind: row.kind,
    code: row.code,
    attributes: JSON.parse(row.attributes) as Record<string, unknown>,
    updatedAt: Number(row.updated_at),
  };
}

/** Every entry, or those of one kind, ordered by kind then code. */
export async function listEntries(
  db: Kysely<Database>,
  kind?: string,
): Promise<StoredReferenceEntry[]> {
  let query = db.selectFrom('reference_entries').selectAll();
  if (kind !== undefined) query = query.where('kind', '=', kind);
  const rows = await query.orderBy('kind').orderBy('code').execute();
  return rows.map(toEntry);
}

/** Whether any entry is stored, of any kind. */
export async function anyEntry(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('reference_entries').select('kind').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The stored attributes (as JSON text) of every entry of the kinds, keyed by kind and code. */
export async function attributesOf(
  db: Kysely<Database>,
  kinds: readonly string[],
): Promise<Map<string, string>> {
  if (kinds.length === 0) return new Map();
  const rows = await db
    .selectFrom('reference_entries')
    .select(['kind', 'code', 'attributes'])
    .where('kind', 'in', kinds)
    .execute();
  return new Map(rows.map((row) => [entryKey(row.kind, row.code), row.attributes]));
}

/** The key attributesOf gives an entry. */
export const entryKey = (kind: string, code: string) => `${kind}\n${code}`;

/** Inserts the entries, replacing the attributes and time of those already stored. */
export async function upsertEntries(
  db: Kysely<Database>,
  rows: readonly Insertable<ReferenceEntriesTable>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await db
      .insertInto('reference_entries')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .onConflict((oc) =>
        oc.columns(['kind', 'code']).doUpdateSet((eb) => ({
          attributes: eb.ref('excluded.attributes'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Deletes the entry; undefined when there is none. */
export async function deleteEntry(
  db: Kysely<Database>,
  kind: string,
  code: string,
): Promise<StoredReferenceEntry | undefined> {
  const row = await db
    .deleteFrom('reference_entries')
    .where('kind', '=', kind)
    .where('code', '=', code)
    .returningAll()
    .executeTakeFirst();
  return row && toEntry(row);
}

/** The change marker (src/db/change-markers.ts). */
export const readVersion = (db: Kysely<Database>): Promise<number> =>
  readChangeMarker(db, VERSION_KEY);

/** Raises the change marker by one, in the write that makes the change. */
export const bumpVersion = (db: Kysely<Database>): Promise<void> =>
  raiseChangeMarker(db, VERSION_KEY);
