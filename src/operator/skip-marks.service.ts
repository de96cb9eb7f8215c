/**
 * Skip marks: the operator's decision that an external account is not to be imported. Staging
 * or processing a marked account is refused with account_import_process_skipped.
 */
import type { Db } from '../db/database.js';
import { atomicWrite } from '../db/group-commit.js';
import { OperatorError, quoted } from './operator-error.js';
import { externalAccountNumber, reason as checkReason } from './operator.rules.js';
import type { SkipMark } from './operator.types.js';
import * as repository from './skip-marks.repository.js';
import { requireSupplierId } from './suppliers.service.js';

/**
 * Marks the account to be skipped. An account already imported cannot be marked, nor one whose
 * creation is under way (a live claim): the mark would not stop it.
 */
export async function addSkipMark(
  db: Db,
  supplierCode: string,
  externalNumber: string,
  reason?: string,
): Promise<SkipMark> {
  const supplier = supplierCode.trim();
  const number = externalAccountNumber(externalNumber);
  const mark = { supplier, externalAccountNumber: number, reason: checkReason(reason) };
  const supplierId = await requireSupplierId(db.kysely, supplier);
  const createdAt = Date.now();
  // The check and the insert are one atomic write, so that an account claimed or imported in
  // between cannot be marked: SQLite's write lock, or PostgreSQL's lock on the process row,
  // holds off a claim or a creation completing meanwhile (or waits for it, and then sees it).
  const outcome = await atomicWrite(db, async (trx) => {
    const lock = db.dialect === 'postgres';
    const process = await repository.findMarkedProcess(trx, supplierId, number, { lock });
    if (process?.imported !== undefined) return { imported: process.imported };
    const claimedUntil = process?.claimedUntil;
    // Live up to its lease's end, as for the service (holdsLiveClaim).
    if (claimedUntil !== undefined && claimedUntil >= Date.now()) return { claimedUntil };
    const row = { supplier_id: supplierId, external_account_number: number, created_at: createdAt };
    return { created: await repository.insertSkipMark(trx, { ...row, reason: mark.reason }) };
  });
  const account = `account ${quoted(number)} of import supplier ${quoted(supplier)}`;
  // A mark on an imported account would have no effect and make its status ambiguous.
  if (outcome.imported !== undefined) {
    throw new OperatorError(
      `${account} was already imported as ${outcome.imported}; it cannot be skipped`,
    );
  }
  if (outcome.claimedUntil !== undefined) {
    const until = new Date(outcome.claimedUntil).toISOString().replace(/\.\d{3}Z$/, 'Z');
    throw new OperatorError(
      `${account} is being imported right now; run the command again once that ends ` +
        `(its claim lapses at ${until} at the latest)`,
    );
  }
  if (!outcome.created) throw new OperatorError(`${account} is already marked to be skipped`);
  return { ...mark, createdAt };
}

/** Removes the mark so the account can be staged and processed again. */
export async function removeSkipMark(
  db: Db,
  supplierCode: string,
  externalNumber: string,
): Promise<SkipMark> {
  const supplier = supplierCode.trim();
  const number = externalNumber.trim();
  const supplierId = await requireSupplierId(db.kysely, supplier);
  const removed = await repository.deleteSkipMark(db.kysely, supplierId, number);
  if (removed === undefined) {
    throw new OperatorError(
      `account ${quoted(number)} of import supplier ${quoted(supplier)} is not marked to be skipped`,
    );
  }
  return { supplier, externalAccountNumber: number, ...removed };
}

/** Skip marks of one supplier, or of every supplier when no code is given. */
export async function listSkipMarks(db: Db, supplierCode?: string): Promise<SkipMark[]> {
  const supplierId =
    supplierCode === undefined
      ? undefined
      : await requireSupplierId(db.kysely, supplierCode.trim());
  return repository.listSkipMarks(db.kysely, supplierId);
}
