/**
 * Skip marks: the operator's decision that an external account is not to be imported. Staging
 * or processing a marked account is refused with account_import_process_skipped.
 */
import { isoTime } from '../datetime.js';
import type { Db } from '../db/database.js';
import { atomicWrite } from '../db/storage.js';
import type { EventName } from '../events/event-names.js';
import { recordEvents, type NewAccountEvent } from '../events/events.repository.js';
import { holdsLiveClaim } from '../imports/creation/creation.repository.js';
import { quoted } from '../shared/quoted.js';
import { OperatorError } from '../shared/operator-error.js';
import { externalAccountNumber, reason as checkReason } from './operator.rules.js';
import type { SkipMark } from './operator.types.js';
import * as repository from './skip-marks.repository.js';
import { requireSupplierId } from './suppliers.service.js';

const SKIP_MARKED: EventName = 'EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_MARKED';
const SKIP_REMOVED: EventName = 'EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_REMOVED';

/** A skip mark's event, written with the mark's change (an operator's: no request id). */
const skipEvent = (
  supplierId: number,
  externalAccountNumber: string,
  event: EventName,
  occurredAt: number,
  data: Record<string, unknown> | null = null,
): NewAccountEvent => ({ supplierId, externalAccountNumber, event, occurredAt, data });

/** The account as messages name it, its input quoted. */
const accountName = (supplier: string, number: string) =>
  `account ${quoted(number)} of import supplier ${quoted(supplier)}`;

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
    const process = await repository.findMarkedProcess(trx, db.storage, supplierId, number);
    if (process?.state === 'completed') return { imported: process.service_account_number ?? '?' };
    if (process && holdsLiveClaim(process, Date.now())) {
      return { claimedUntil: process.lease_until ?? 0 };
    }
    const row = { supplier_id: supplierId, external_account_number: number, created_at: createdAt };
    const created = await repository.insertSkipMark(trx, { ...row, reason: mark.reason });
    if (created) {
      const data = { reason: mark.reason };
      await recordEvents(trx, [skipEvent(supplierId, number, SKIP_MARKED, createdAt, data)]);
    }
    return { created };
  });
  const account = accountName(supplier, number);
  // A mark on an imported account would have no effect and make its status ambiguous.
  if (outcome.imported !== undefined) {
    throw new OperatorError(
      `${account} was already imported as ${outcome.imported}; it cannot be skipped`,
    );
  }
  if (outcome.claimedUntil !== undefined) {
    throw new OperatorError(
      `${account} is being imported right now; run the command again once that ends ` +
        `(its claim lapses at ${isoTime(outcome.claimedUntil)} at the latest)`,
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
  const removed = await atomicWrite(db, async (trx) => {
    const mark = await repository.deleteSkipMark(trx, supplierId, number);
    if (mark) await recordEvents(trx, [skipEvent(supplierId, number, SKIP_REMOVED, Date.now())]);
    return mark;
  });
  if (removed === undefined) {
    throw new OperatorError(`${accountName(supplier, number)} is not marked to be skipped`);
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
