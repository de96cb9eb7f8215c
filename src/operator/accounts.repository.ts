/** The statements `account show` needs beside the account store: names, and a process's state. */
import type { Kysely } from 'kysely';
import type { Database, ImportProcess } from '../db/database.js';

/** The code of the supplier and the name of the team an account refers to. */
export function namesOf(
  db: Kysely<Database>,
  supplierId: number,
  teamId: number,
): Promise<{ code: string; name: string }> {
  return db
    .selectFrom(['import_suppliers as s', 'operations_teams as t'])
    .select(['s.code', 't.name'])
    .where('s.id', '=', supplierId)
    .where('t.id', '=', teamId)
    .executeTakeFirstOrThrow();
}

/** The state of the external account's process; undefined when it was never staged. */
export function findProcessState(
  db: Kysely<Database>,
  supplierId: number,
  externalAccountNumber: string,
): Promise<Pick<ImportProcess, 'state' | 'lease_until'> | undefined> {
  return db
    .selectFrom('import_processes')
    .select(['state', 'lease_until'])
    .where('supplier_id', '=', supplierId)
    .where('external_account_number', '=', externalAccountNumber)
    .executeTakeFirst();
}
