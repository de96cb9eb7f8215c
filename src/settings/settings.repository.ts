/** Every SQL statement on the platform settings and their change marker, rows of `settings`. */
import { sql, type Kysely } from 'kysely';
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

/** The change marker: 0 until the first change, then one more after each write that changed a value. */
export async function readVersion(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', VERSION_KEY)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.value);
}

/**
 * Adds one to the change marker, in one statement (an increment, never a read then a write),
 * so that no change is ever counted under the marker of another.
 */
export async function bumpVersion(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: VERSION_KEY, value: '1' })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: sql<string>`cast(cast(settings.value as bigint) + 1 as text)`,
      }),
    )
    .execute();
}
