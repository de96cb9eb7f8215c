/** How each database writes an account's rows: the one part of the store that differs. */
import type { Db, Executor } from '../db/database.js';
import type { NewAccountEvent } from '../events/events.repository.js';
import type { AccountRows } from './account-rows.js';

/** The account just written, as the statements that go with it see it. */
export interface WrittenAccount {
  id: number;
  number: string;
  createdAt: number;
}

/**
 * Statements that commit with the account, in its transaction (a schedule marked PROCESSED and
 * its event): false means the caller's own claim was lost, and the whole write is undone.
 */
export type AlongWithAccount = (executor: Executor, account: WrittenAccount) => Promise<boolean>;

/**
 * What the write does besides storing the account: complete the import process held by the
 * claim `claimId` (nothing is written once the claim is lost), appending the completion's
 * `event` and running `along` in the same transaction, or roll everything back by throwing
 * `rollBackWith` from inside the write (a rehearsal).
 */
export type Completion =
  { claimId: string; event: CompletionEvent; along?: AlongWithAccount } | { rollBackWith: Error };

/** The completion's event: written for the account's supplier and external number, at its creation. */
export type CompletionEvent = Pick<NewAccountEvent, 'event' | 'data' | 'requestId'>;

/** Rolls back a write whose claim was lost; the writers catch it and answer undefined. */
export class ClaimLost extends Error {}

export interface AccountWriter {
  /** Writes the rows atomically; returns the account's id, or undefined if the claim was lost. */
  write(db: Db, rows: AccountRows, completion: Completion): Promise<number | undefined>;
}
