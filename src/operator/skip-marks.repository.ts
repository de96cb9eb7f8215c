/** Every SQL statement on skip marks (accounts the operator decided not to import). */
import type { Insertable, Kysely } from 'kysely';
import type { Database, ImportProcess, SkipMarksTable } from '../db/database.js';
import type { Storage } from '../db/storage.js';
import type { SkipMark } from './operator.types.js';

/** Inserts the mark; false when the account is already marked. */
export async function insertSkipMark(
  db: Kysely<Database>,
  row: Insertable<SkipMarksTable>,
): Promise<boolean> {
  const created = await db
    .insertInto('skip_marks')
    .values(row)
    .onConflict((oc) => oc.columns(['supplier_id', 'external_account_number']).doNothing())
    .returning('created_at')
    .executeTakeFirst();
  return created !== undefined;
}

/** Deletes the mark and returns what it held; undefined when there was none. */
export async function deleteSkipMark(
  db: Kysely<Database>,
  supplierId: number,
  externalAccountNumber: string,
): Promise<{ reason: string | null; createdAt: number } | undefined> {
  const row = await db
    .deleteFrom('skip_marks')
    .where('supplier_id', '=', supplierId)
    .where('external_account_number', '=', externalAccountNumber)
    .returning(['reason', 'created_at'])
    .executeTakeFirst();
  return row && { reason: row.reason, createdAt: Number(row.created_at) };
}

/** Marks of one supplier, or of all when supplierId is undefined, by supplier then number. */
export async function listSkipMarks(
  db: Kysely<Database>,
  supplierId?: number,
): Promise<SkipMark[]> {
  let query = db
    .selectFrom('skip_marks as m')
    .innerJoin('import_suppliers as s', 's.id', 'm.supplier_id')
    .select(['s.code', 'm.external_account_number', 'm.reason', 'm.created_at'])
    .orderBy('s.code')
    .orderBy('m.external_account_number');
  if (supplierId !== undefined) query = query.where('m.supplier_id', '=', supplierId);
  const rows = await query.execute();
  return rows.map((row) => ({
    supplier: row.code,
    externalAccountNumber: row.external_account_number,
    reason: row.reason,
    createdAt: Number(row.created_at),
  }));
}

/**
 * The external account's process, if it was staged: what a mark must not land on (an imported
 * account, or one a live claim holds), read in the caller's atomic write. The row is shared
 * (Storage.sharingRows) whatever its state: a claim or a creation completing it at that moment
 * is waited for and then seen, and one that has not yet begun waits until the write ends.
 */
export async function findMarkedProcess(
  db: Kysely<Database>,
  storage: Storage,
  supplierId: number,
  externalAccountNumber: string,
): Promise<Pick<ImportProcess, 'state' | 'service_account_number' | 'lease_until'> | undefined> {
  const query = db
    .selectFrom('import_processes')
    .select(['state', 'service_account_number', 'lease_until'])
    .where('supplier_id', '=', supplierId)
    .where('external_account_number', '=', externalAccountNumber);
  const row = await storage.sharingRows(query).executeTakeFirst();
  return row && { ...row, lease_until: row.lease_until === null ? null : Number(row.lease_until) };
}
