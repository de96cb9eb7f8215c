/**
 * Each import supplier's rule settings (src/settings/settings.declared.ts, SUPPLIER_SETTINGS):
 * one JSON text column. `{}` gives every setting its default, so the suppliers already there
 * keep the behaviour they had. The same statements serve both databases: SQLite adds and drops
 * a column in place (DROP COLUMN since 3.35; the column is in no index).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('import_suppliers')
    .addColumn('rule_settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('import_suppliers').dropColumn('rule_settings').execute();
}
