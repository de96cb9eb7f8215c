/**
 * What the post-import endpoints add to a created account (src/post-import/): historical
 * statements, notes and payment instructions, one row each, its `data` the item as validated
 * (JSON). `key` is the item's identity within its kind on its account (a statement's id, a
 * note's identity, an instruction's type and reference); the unique key on (account_id, kind,
 * key) is what makes an addition idempotent: a second insert of the same item, even from a
 * concurrent request, does nothing.
 */
import type { Kysely } from 'kysely';
import { idType } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_additions')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('account_additions_key', ['account_id', 'kind', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_additions').execute();
}
