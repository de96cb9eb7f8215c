/**
 * Migration 0006 makes PostgreSQL order external account numbers (and the operator's keys) byte
 * by byte, as SQLite does, whatever the database's collation; `down` gives the columns the
 * database's collation back. Rows already stored stay, and stay unique.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261124_0005_covering_list_indexes';
const MIGRATION = '20261124_0006_byte_order_keys';

await describeEachDialect('migration 0006: byte order keys', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE, { icuLocale: 'en-US' }));
    await sql`insert into import_suppliers (id, code, status, created_at)
      values (1, 'S', 'Ongoing', 1)`.execute(db.kysely);
    await sql`insert into import_processes (supplier_id, external_account_number, state, version,
        first_staged_at, last_staged_at)
      values (1, 'a0', 'pending', 1, 1, 1), (1, 'B0', 'pending', 1, 1, 1)`.execute(db.kysely);
  });

  afterEach(() => destroy());

  async function listed(): Promise<string[]> {
    const { rows } = await sql<{ external_account_number: string }>`
      select external_account_number from import_processes
      where supplier_id = 1 and first_staged_at >= 1
      order by first_staged_at, external_account_number`.execute(db.kysely);
    return rows.map((row) => row.external_account_number);
  }

  it('orders by bytes after up, and by the database collation again after down', async () => {
    const databaseOrder = dialect === 'sqlite' ? ['B0', 'a0'] : ['a0', 'B0'];
    expect(await listed()).toEqual(databaseOrder);

    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    expect(await listed()).toEqual(['B0', 'a0']);
    // Still one process per number: the unique key survived the rebuild.
    await expect(
      sql`insert into import_processes (supplier_id, external_account_number, state, version,
          first_staged_at, last_staged_at)
        values (1, 'a0', 'pending', 1, 2, 2)`.execute(db.kysely),
    ).rejects.toThrow(/unique/i);

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await listed()).toEqual(databaseOrder);
  });
});
