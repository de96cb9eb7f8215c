/** The creating write: the account and the process's completion, all or nothing. */
import { claimErrors, claimedElsewhere, CLAIMED_VALUES } from '../../accounts/account-claims.js';
import { newAccountNumber } from '../../accounts/account-rows.js';
import { writeAccount, type Completion } from '../../accounts/account-store.js';
import type { AlongWithAccount, CompletionEvent } from '../../accounts/account-writer.js';
import type { AppContext } from '../../context.js';
import type { Db, ImportSupplier } from '../../db/database.js';
import type { UniqueConstraint } from '../../db/storage.js';
import { ServiceError, validationFailed } from '../../errors.js';
import type { EnergyAccount } from '../../account/account.js';
import { accountClaims } from '../../account/claims.js';

/** Thrown inside a dry run's transaction to roll it back once everything was written. */
export class DryRunRollback extends Error {}

export interface Creation {
  supplier: ImportSupplier;
  teamId: number;
  processId: number;
  payload: EnergyAccount;
  dryRun: boolean;
  /** The claim the process is held by (absent for a dry run, which claims nothing). */
  claimId?: string;
  /** What commits with the account besides the process's completion (a schedule's outcome). */
  along?: AlongWithAccount;
  /** The request that creates the account (its COMPLETED event carries it), and its route. */
  trace?: { requestId: string | null; via: string };
}

const NUMBER_ATTEMPTS = 5;

/** The account numbers' uniqueness: a new number collided with an existing one. */
const ACCOUNT_NUMBER: UniqueConstraint = {
  name: 'accounts_number_key',
  table: 'accounts',
  columns: ['number'],
};

/** One account per process, and per external number: its violation means a racing creation. */
const ONE_ACCOUNT: readonly UniqueConstraint[] = [
  { name: 'accounts_import_process_id_key', table: 'accounts', columns: ['import_process_id'] },
  {
    name: 'accounts_supplier_external_uq',
    table: 'accounts',
    columns: ['supplier_id', 'external_account_number'],
  },
];

/** Another transaction created this process's account first (a dry run racing a creation). */
function isAccountConflict(db: Db, error: unknown): boolean {
  return ONE_ACCOUNT.some((constraint) => db.storage.isUniqueViolation(error, constraint));
}

/**
 * The refusal of an account whose write found a value it claims taken by another account (a
 * creation that committed since the payload was checked): every such claim's field error.
 */
async function claimsTaken(ctx: AppContext, creation: Creation): Promise<ServiceError> {
  const { supplier, payload } = creation;
  const claimant = {
    supplierId: supplier.id,
    externalAccountNumber: payload.external_account_number,
  };
  // The other account committed before the violation was reported, so a new read sees it.
  const claimed = await claimedElsewhere(ctx.db.kysely, accountClaims(payload), claimant);
  if (claimed.length === 0) throw new Error('a claimed value was refused but no account holds it');
  return validationFailed(claimErrors(claimed));
}

/**
 * Returns the new account number; a dry run always ends in DryRunRollback. An account claiming
 * a value another account holds is refused with 400 and nothing of it is written.
 */
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
      const completion: Completion = creation.dryRun
        ? { rollBackWith: new DryRunRollback() }
        : {
            claimId: creation.claimId ?? '',
            event: completedEvent(number, creation.trace),
            along: creation.along,
          };
      if ((await writeAccount(ctx.db, account, completion)) === undefined) throw claimLost();
      return number;
    } catch (error) {
      // 2^32 numbers make a collision rare, but the unique index is the real guarantee.
      const collided = ctx.db.storage.isUniqueViolation(error, ACCOUNT_NUMBER);
      if (attempt < NUMBER_ATTEMPTS && collided) continue;
      if (ctx.db.storage.isUniqueViolation(error, CLAIMED_VALUES)) {
        throw await claimsTaken(ctx, creation);
      }
      if (isAccountConflict(ctx.db, error)) {
        throw new ServiceError({
          code: 'account_import_in_progress',
          detail: 'Another request created this account at the same moment.',
        });
      }
      throw error;
    }
  }
}

/** The COMPLETED event of an account created with `number`. */
function completedEvent(
  number: string,
  trace: Creation['trace'] = { requestId: null, via: 'v1' },
): CompletionEvent {
  return {
    event: 'EVENT_ACCOUNT_IMPORT_PROCESS_COMPLETED',
    data: { service_account_number: number, via: trace.via },
    requestId: trace.requestId,
  };
}

const claimLost = () =>
  new ServiceError({
    code: 'account_import_in_progress',
    detail: 'This request held the account too long and another request took it over.',
  });
