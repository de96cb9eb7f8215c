/**
 * The platform's reference data (tariffs, market participants, TPRs, ledger types…): one row
 * per entry, keyed by its kind and code, with the attributes its kind declares as JSON text
 * (src/reference/reference.kinds.ts). The catalogue belongs to the platform, not to an
 * organisation, so no organisation column: every organisation's accounts are checked against
 * the same entries. Its change marker, bumped by every change, is a row of `settings`.
 *
 * Kind and code compare byte by byte on PostgreSQL too (collation "C", as migration 0006 gave
 * the other operator keys), so listings come out in the same order on both databases.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/** The `settings` key of the catalogue's change marker (src/reference/reference.repository.ts). */
const VERSION_KEY = 'reference_catalogue_version';

export async function up(db: Kysely<unknown>): Promise<void> {
  const key = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema
    .createTable('reference_entries')
    .addColumn('kind', key, (c) => c.notNull())
    .addColumn('code', key, (c) => c.notNull())
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reference_entries_pk', ['kind', 'code'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reference_entries').execute();
  await sql`delete from settings where key = ${VERSION_KEY}`.execute(db);
}
