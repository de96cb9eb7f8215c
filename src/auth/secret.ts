/** The HS256 signing key: TOKEN_SECRET when set, else one generated once and kept in the database. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

const SETTING_KEY = 'token_secret';
const GENERATED_BYTES = 32;

async function readStoredSecret(db: Db): Promise<string | undefined> {
  const row = await db.kysely
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTING_KEY)
    .executeTakeFirst();
  return row?.value;
}

/** Returns the token signing key, generating and storing one on first start. */
export async function ensureTokenSecret(
  db: Db,
  configured: string | undefined,
): Promise<Uint8Array> {
  if (configured !== undefined) return new TextEncoder().encode(configured);

  const stored = await readStoredSecret(db);
  if (stored !== undefined) return new Uint8Array(Buffer.from(stored, 'base64url'));

  // Insert-or-ignore and re-read: when several instances start together on one database the
  // first insert wins and every instance signs with that same key.
  await db.kysely
    .insertInto('settings')
    .values({ key: SETTING_KEY, value: randomBytes(GENERATED_BYTES).toString('base64url') })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const winner = await readStoredSecret(db);
  if (winner === undefined) throw new Error('token secret missing right after it was stored');
  return new Uint8Array(Buffer.from(winner, 'base64url'));
}
