import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureTokenSecret } from '../../src/auth/secret.js';
import type { Db } from '../../src/db/database.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

await describeEachDialect('token secret', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(async () => destroy());

  it('uses TOKEN_SECRET when configured and stores nothing', async () => {
    const configured = 'x'.repeat(40);
    const key = await ensureTokenSecret(db, configured);
    expect(Buffer.from(key).toString()).toBe(configured);
    const rows = await db.kysely.selectFrom('settings').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('generates 32 random bytes once, and every later start reads the same key', async () => {
    const first = await ensureTokenSecret(db, undefined);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(first.length).toBe(32);
    const second = await ensureTokenSecret(db, undefined);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const row = await db.kysely
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'token_secret')
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.value, 'base64url').equals(Buffer.from(first))).toBe(true);
  });

  it('lets instances starting together agree on one key', async () => {
    await db.kysely.deleteFrom('settings').execute();
    const keys = await Promise.all(
      Array.from({ length: 8 }, () => ensureTokenSecret(db, undefined)),
    );
    const distinct = new Set(keys.map((key) => Buffer.from(key).toString('hex')));
    expect(distinct.size).toBe(1);
  });
});
