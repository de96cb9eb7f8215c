/** Every SQL statement on skip marks (accounts the operator decided not to import). */
import type { Insertable, Kysely } from 'kysely';
import type { Database, SkipMarksTable } from '../db/database.js';
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

/** What a mark must not land on: the account's process, imported or held by a claim. */
export interface MarkedProcess {
  /** The account number, when the account was imported. */
  imported: string | undefined;
  /** When a claim holds the process (a creation under way): its lease's end, in ms. */
  claimedUntil: number | undefined;
}

/**
 * The external account's process, if it was staged. With `lock` (PostgreSQL), the row is read
 * FOR SHARE whatever its state: a claim or a creation completing it at that moment is waited
 * for and then seen, and one that has not yet begun waits until the caller's transaction ends.
 */
export async function findMarkedProcess(
  db: Kysely<Database>,
  supplierId: number,
  externalAccountNumber: string,
  { lock = false } = {},
): Promise<MarkedProcess | undefined> {
  const query = db
    .selectFrom('import_processes')
    .select(['state', 'service_account_number', 'lease_until'])
    .where('supplier_id', '=', supplierId)
    .where('external_account_number', '=', externalAccountNumber);
  const row = await (lock ? query.forShare() : query).executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    imported: row.state === 'completed' ? (row.service_account_number ?? undefined) : undefined,
    claimedUntil:
      row.state === 'in_progress' && row.lease_until !== null ? Number(row.lease_until) : undefined,
  };
}
