/**
 * v2 scheduled creation (src/schedules/): one row per staged account that was scheduled, the
 * database being the queue. A row is the account's current schedule: scheduling again while it
 * is PENDING replaces its window; what happened before is in the event log.
 *
 * Workers claim a PENDING row whose window is open (`claim_id`, `lease_until`), as a process
 * request claims a process; a claim whose lease ran out may be taken over.
 */
import type { Kysely } from 'kysely';
import { idType } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creation_schedules')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('process_id', 'bigint', (c) => c.notNull().unique())
    .addColumn('supplier_id', 'bigint', (c) => c.notNull())
    .addColumn('external_account_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_dry_run', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .addColumn('team_id', 'bigint')
    .addColumn('claim_id', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('error_domain', 'text')
    .addColumn('service_account_number', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  // What workers claim: open windows of pending (or lease-expired) schedules, by supplier.
  await db.schema
    .createIndex('creation_schedules_due')
    .on('creation_schedules')
    .columns(['status', 'supplier_id', 'window_start'])
    .execute();
  await db.schema
    .createIndex('creation_schedules_by_account')
    .on('creation_schedules')
    .columns(['supplier_id', 'external_account_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('creation_schedules').execute();
}
