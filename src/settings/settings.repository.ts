/** Every SQL statement on the platform settings and their change marker, rows of `settings`. */
import type { Kysely } from 'kysely';
import { raiseChangeMarker, readChangeMarker } from '../db/change-markers.js';
import type { Database } from '../db/database.js';

/** The `settings` key of the change marker: a number raised by every write that changes a value. */
const VERSION_KEY = 'platform_settings_version';

/** A platform setting is stored under its key with this prefix, its value as JSON text. */
const PREFIX = 'platform.';

/** The advisory lock that serialises the writes to platform settings on PostgreSQL. */
export const SETTINGS_LOCK_KEY = 7_201_402;

/** The stored JSON text of the keys that have a stored value, by key (without the prefix). */
export async function storedValues(
  db: Kysely<Database>,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      keys.map((key) => PREFIX + key),
    )
    .execute();
  return new Map(rows.map((row) => [row.key.slice(PREFIX.length), row.value]));
}

/** Stores the JSON text as the key's value, replacing any value stored before. */
export async function storeValue(db: Kysely<Database>, key: string, text: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: PREFIX + key, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}

/** Removes the key's stored value, if any. */
export async function removeValue(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .deleteFrom('settings')
    .where('key', '=', PREFIX + key)
    .execute();
}

/** The change marker (src/db/change-markers.ts). */
export const readVersion = (db: Kysely<Database>): Promise<number> =>
  readChangeMarker(db, VERSION_KEY);

/** Raises the change marker by one, in the write that makes the change. */
export const bumpVersion = (db: Kysely<Database>): Promise<void> =>
  raiseChangeMarker(db, VERSION_KEY);
