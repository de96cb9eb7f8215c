/** How each database writes an account's rows: the one part of the store that differs. */
import type { Db } from '../db/database.js';
import type { NewAccountEvent } from '../events/events.repository.js';
import type { AccountRows } from './account-rows.js';

/**
 * What the write does besides storing the account: complete the import process held by the
 * claim `claimId` (nothing is written once the claim is lost) and append the completion's
 * `event`, or roll everything back by throwing `rollBackWith` from inside the write (a
 * rehearsal).
 */
export type Completion = { claimId: string; event: CompletionEvent } | { rollBackWith: Error };

/** The completion's event: written for the account's supplier and external number, at its creation. */
export type CompletionEvent = Pick<NewAccountEvent, 'event' | 'data' | 'requestId'>;

export interface AccountWriter {
  /** Writes the rows atomically; returns the account's id, or undefined if the claim was lost. */
  write(db: Db, rows: AccountRows, completion: Completion): Promise<number | undefined>;
}
