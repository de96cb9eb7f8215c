/**
 * The account event log (src/events/): one row per thing that happened to an account of a
 * supplier, staged or not. Events are appended in the transaction that causes them and never
 * updated; `events prune` deletes old ones.
 *
 * On PostgreSQL each row also records the id of the transaction that wrote it
 * (`pg_current_xact_id()`), which the supplier feed orders by (src/events/README.md explains
 * why an id alone is not enough there). SQLite has one writer at a time, so its ids already
 * follow commit order and the column stays null.
 */
import { sql, type Kysely } from 'kysely';
import { idType, isPostgres } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('account_events')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    // The supplier, copied without a key to import_suppliers: an event never locks its row.
    .addColumn('supplier_id', 'bigint', (c) => c.notNull())
    .addColumn('external_account_number', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('request_id', 'text')
    .addColumn('transaction_id', 'bigint', (c) =>
      postgres ? c.notNull().defaultTo(sql`(pg_current_xact_id()::text::bigint)`) : c,
    )
    .execute();
  // The timeline of one account, oldest first.
  await db.schema
    .createIndex('account_events_by_account')
    .on('account_events')
    .columns(['supplier_id', 'external_account_number', 'id'])
    .execute();
  // The supplier feed, in commit order.
  await db.schema
    .createIndex('account_events_feed')
    .on('account_events')
    .columns(['supplier_id', 'transaction_id', 'id'])
    .execute();
  // Pruning by age.
  await db.schema
    .createIndex('account_events_by_age')
    .on('account_events')
    .column('occurred_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_events').execute();
}
