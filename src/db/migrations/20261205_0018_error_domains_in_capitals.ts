/**
 * A schedule's error domain is written in capitals, one set for the status and the queue
 * (VALIDATION, CREATION, SCHEDULING, INTERNAL; src/schedules/worker/schedule-errors.ts). Before,
 * the workers wrote `validation`, `creation`, `schedule` and `internal`, and a skip mark or a
 * supplier no longer Ongoing counted as `creation` at the claim while the status showed the
 * same skip mark as SCHEDULING before it. Rows already written are brought to the new set.
 */
import { sql, type Kysely } from 'kysely';

/** The refusals that count as the schedule's own conditions (SCHEDULING, not CREATION). */
const SCHEDULING_REFUSALS = sql`('account_import_process_skipped',
  'import_supplier_migration_not_ongoing')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update creation_schedules set error_domain = case
      when error_domain = 'validation' then 'VALIDATION'
      when error_domain = 'schedule' then 'SCHEDULING'
      when error_domain = 'internal' then 'INTERNAL'
      when error_code in ${SCHEDULING_REFUSALS} then 'SCHEDULING'
      else 'CREATION' end
    where error_domain in ('validation', 'creation', 'schedule', 'internal')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update creation_schedules set error_domain = case
      when error_domain = 'VALIDATION' then 'validation'
      when error_domain = 'INTERNAL' then 'internal'
      when error_code = 'schedule_window_closed' then 'schedule'
      else 'creation' end
    where error_domain in ('VALIDATION', 'CREATION', 'SCHEDULING', 'INTERNAL')`.execute(db);
}
