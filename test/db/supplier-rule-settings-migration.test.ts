/**
 * Migration 0009 adds each import supplier's rule settings, `{}` for the suppliers already
 * there (every setting at its default); `down` drops the column and keeps the suppliers.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { listSuppliers } from '../../src/operator/suppliers.service.js';
import { DEFAULT_SUPPLIER_SETTINGS } from '../../src/settings/settings.declared.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261128_0008_reference_entries';
const MIGRATION = '20261129_0009_supplier_rule_settings';

await describeEachDialect('migration 0009: supplier rule settings', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await sql`insert into import_suppliers
      (code, status, document_root, customer_emails, phone_region, created_at)
      values ('OLD', 'Paused', '/old', 1, 'IE', 1)`.execute(db.kysely);
  });

  afterEach(() => destroy());

  const columns = async () => {
    const tables = await db.kysely.introspection.getTables();
    return tables.find((t) => t.name === 'import_suppliers')?.columns.map((c) => c.name) ?? [];
  };
  const ruleSettings = async () => {
    const { rows } = await sql<{ code: string; rule_settings: string }>`
      select code, rule_settings from import_suppliers order by code`.execute(db.kysely);
    return rows;
  };

  it('gives the suppliers already there {} (the defaults), and down drops only the column', async () => {
    expect(await columns()).not.toContain('rule_settings');
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);

    expect(await ruleSettings()).toEqual([{ code: 'OLD', rule_settings: '{}' }]);
    const [old] = await listSuppliers(db);
    expect(old).toMatchObject({ code: 'OLD', status: 'Paused', phoneRegion: 'IE' });
    expect(old?.settings).toEqual(DEFAULT_SUPPLIER_SETTINGS);

    // A row inserted without the column gets the default too; null is refused.
    await sql`insert into import_suppliers
      (code, status, document_root, customer_emails, phone_region, created_at)
      values ('NEW', 'Ongoing', '', 0, 'GB', 2)`.execute(db.kysely);
    expect((await ruleSettings())[0]).toEqual({ code: 'NEW', rule_settings: '{}' });
    await expect(
      sql`update import_suppliers set rule_settings = null where code = 'NEW'`.execute(db.kysely),
    ).rejects.toThrow();

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await columns()).not.toContain('rule_settings');
    const { rows } = await sql<{ code: string; status: string }>`
      select code, status from import_suppliers order by code`.execute(db.kysely);
    expect(rows).toEqual([
      { code: 'NEW', status: 'Ongoing' },
      { code: 'OLD', status: 'Paused' },
    ]);

    // And up again on the reverted schema.
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    expect(await columns()).toContain('rule_settings');
  });
});
