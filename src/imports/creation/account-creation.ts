/** The creating write: the account graph and the process's completion, all or nothing. */
import {
  accountGraph,
  insertAccount,
  newAccountNumber,
  type AccountGraph,
} from '../../accounts/accounts.repository.js';
import { writeAccountGraph } from '../../accounts/postgres-graph.js';
import type { AppContext } from '../../context.js';
import { atomicWrite } from '../../db/group-commit.js';
import type { Db, ImportSupplier } from '../../db/database.js';
import { ServiceError } from '../../errors.js';
import type { AccountPayload } from '../../payload/account.js';
import { completeProcess } from './creation.repository.js';

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
    const graph = accountGraph({
      number,
      supplier: creation.supplier,
      teamId: creation.teamId,
      processId: creation.processId,
      payload: creation.payload,
      documentBucket: ctx.config.documentBucket,
      now: Date.now(),
    });
    try {
      if (creation.dryRun) await rehearseWrite(ctx.db, graph);
      else await writeCompleting(ctx.db, graph, creation.claimId ?? '');
      return number;
    } catch (error) {
      // 2^32 numbers make a collision rare, but the unique index is the real guarantee.
      if (attempt < NUMBER_ATTEMPTS && isNumberCollision(error)) continue;
      if (isAccountConflict(error)) {
        throw new ServiceError(
          'account_import_in_progress',
          'Another request created this account at the same moment.',
        );
      }
      throw error;
    }
  }
}

/** Writes the whole graph as a creation would, then rolls it back (DryRunRollback). */
async function rehearseWrite(db: Db, graph: AccountGraph): Promise<never> {
  return atomicWrite(db, async (trx) => {
    if (db.dialect === 'postgres') await writeAccountGraph(trx, graph);
    else await insertAccount(trx, graph);
    throw new DryRunRollback();
  });
}

const claimLost = () =>
  new ServiceError(
    'account_import_in_progress',
    'This request held the account too long and another request took it over.',
  );

/** Writes the graph and completes the process in one atomic write, if the claim is still held. */
async function writeCompleting(db: Db, graph: AccountGraph, claimId: string): Promise<void> {
  if (db.dialect === 'postgres') {
    // One statement, atomic on its own (postgres-graph.ts).
    if ((await writeAccountGraph(db.kysely, graph, claimId)) === undefined) throw claimLost();
    return;
  }
  await atomicWrite(db, async (trx) => {
    const accountId = await insertAccount(trx, graph);
    const { account } = graph;
    const completed = await completeProcess(trx, account.import_process_id, claimId, {
      id: accountId,
      number: account.number,
      createdAt: account.created_at,
    });
    // Thrown inside the write, so that the account is rolled back with it.
    if (!completed) throw claimLost();
  });
}
