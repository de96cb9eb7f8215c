/**
 * Migration 0008 adds the reference data table, one entry per kind and code, whose keys sort
 * byte by byte on both databases; `down` drops it with its change marker and nothing else.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261127_0007_accounts_as_documents';
const MIGRATION = '20261128_0008_reference_entries';

await describeEachDialect('migration 0008: reference entries', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  beforeEach(async () => {
    // A collation that is not byte order (en-US puts `a0` before `B0`), so the keys' own shows.
    ({ db, destroy } = await openTestDb(dialect, BEFORE, { icuLocale: 'en-US' }));
    await sql`insert into settings (key, value) values ('token_secret', 'kept')`.execute(db.kysely);
  });

  afterEach(() => destroy());

  const tables = async () => (await db.kysely.introspection.getTables()).map((t) => t.name);
  const insert = (kind: string, code: string) =>
    sql`insert into reference_entries (kind, code, attributes, updated_at)
      values (${kind}, ${code}, '{}', 1)`.execute(db.kysely);

  it('adds the table keyed by kind and code, and down removes it with its marker', async () => {
    expect(await tables()).not.toContain('reference_entries');
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);

    await insert('tpr', 'a0');
    await insert('tpr', 'B0');
    await insert('ledger_type', 'a0');
    await expect(insert('tpr', 'a0')).rejects.toThrow();
    const { rows } = await sql<{ code: string }>`
      select code from reference_entries where kind = 'tpr' order by code`.execute(db.kysely);
    expect(rows.map((row) => row.code)).toEqual(['B0', 'a0']);
    await sql`insert into settings (key, value)
      values ('reference_catalogue_version', '3')`.execute(db.kysely);

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await tables()).not.toContain('reference_entries');
    const settings = await sql<{ key: string }>`select key from settings`.execute(db.kysely);
    expect(settings.rows.map((row) => row.key)).toEqual(['token_secret']);

    // And up again on the reverted schema.
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    expect(await tables()).toContain('reference_entries');
  });
});
