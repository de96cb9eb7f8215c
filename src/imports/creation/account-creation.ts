/** The creating write: the account and the process's completion, all or nothing. */
import { newAccountNumber } from '../../accounts/account-rows.js';
import { writeAccount } from '../../accounts/account-store.js';
import type { AppContext } from '../../context.js';
import type { ImportSupplier } from '../../db/database.js';
import { ServiceError } from '../../errors.js';
import type { AccountPayload } from '../../payload/account.js';

/** Thrown inside a dry run's transaction to roll it back once everything was written. */
export class DryRunRollback extends Error {}

export interface Creation {
  supplier: ImportSupplier;
  teamId: number;
  processId: number;
  payload: AccountPayload;
  dryRun: boolean;
  /** The claim the process is held by (absent for a dry run, which claims nothing). */
  claimId?: string;
}

const NUMBER_ATTEMPTS = 5;

interface DriverError {
  code?: string;
  message?: string;
  constraint?: string;
}

function isNumberCollision(error: unknown): boolean {
  const { code, message, constraint } = error as DriverError;
  if (code === '23505') return constraint === 'accounts_number_key';
  return (
    typeof message === 'string' && message.includes('UNIQUE constraint failed: accounts.number')
  );
}

/** The unique constraints on an account's process and on its external number (PostgreSQL). */
const ACCOUNT_CONSTRAINTS = new Set([
  'accounts_import_process_id_key',
  'accounts_supplier_external_uq',
]);

/** Another transaction created this process's account first (a dry run racing a creation). */
function isAccountConflict(error: unknown): boolean {
  const { code, message, constraint } = error as DriverError;
  if (code === '23505') return ACCOUNT_CONSTRAINTS.has(constraint ?? '');
  return (
    typeof message === 'string' &&
    /UNIQUE constraint failed: accounts\.(supplier_id|import_process_id)/.test(message)
  );
}

/** Returns the new account number; a dry run always ends in DryRunRollback. */
export async function createAccount(ctx: AppContext, creation: Creation): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const number = newAccountNumber();
    const account = {
      number,
      supplier: creation.supplier,
      teamId: creation.teamId,
      processId: creation.processId,
      payload: creation.payload,
      documentBucket: ctx.config.documentBucket,
      now: Date.now(),
    };
    try {
      const completion = creation.dryRun
        ? { rollBackWith: new DryRunRollback() }
        : { claimId: creation.claimId ?? '' };
      if ((await writeAccount(ctx.db, account, completion)) === undefined) throw claimLost();
      return number;
    } catch (error) {
      // 2^32 numbers make a collision rare, but the unique index is the real guarantee.
      if (attempt < NUMBER_ATTEMPTS && isNumberCollision(error)) continue;
      if (isAccountConflict(error)) {
        throw new ServiceError({
          code: 'account_import_in_progress',
          detail: 'Another request created this account at the same moment.',
        });
      }
      throw error;
    }
  }
}

const claimLost = () =>
  new ServiceError({
    code: 'account_import_in_progress',
    detail: 'This request held the account too long and another request took it over.',
  });
