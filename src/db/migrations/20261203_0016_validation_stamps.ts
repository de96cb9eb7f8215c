/**
 * The stamp of what each staged version was validated with (src/account/validation-stamp.ts):
 * the rules' revision, the platform data's version, the supplier's rule and the UTC day. A
 * creation whose own stamp is the same trusts the staged payload instead of validating it
 * again. Versions staged before this column have none, and are validated again, as before.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('import_process_versions').addColumn('checked_with', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('import_process_versions').dropColumn('checked_with').execute();
}
