/**
 * Change markers: numbers kept in `settings` under a key of their own, raised by one in the
 * same write as any change to what they mark (the reference catalogue, the platform settings),
 * so that an instance holding that data in memory notices a change by reading one row.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** The marker under `key`; 0 before its first change. */
export async function readChangeMarker(db: Kysely<Database>, key: string): Promise<number> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.value);
}

/**
 * Adds one to the marker under `key`, in one statement (an increment, never a read then a
 * write), so that no change is ever counted under the marker of another.
 */
export async function raiseChangeMarker(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: '1' })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: sql<string>`cast(cast(settings.value as bigint) + 1 as text)`,
      }),
    )
    .execute();
}
