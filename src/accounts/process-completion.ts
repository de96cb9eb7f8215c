/**
 * The completion of an account's import process, written with the account: the process is
 * completed only while the creating request still holds its claim.
 */
import { compiledQuery, type Params } from '../db/compiled.js';
import type { Executor } from '../db/database.js';

interface Completion {
  processId: number;
  claimId: string;
  accountId: number;
  number: string;
  createdAt: number;
}

const complete = compiledQuery(
  (db, { processId, claimId, accountId, number, createdAt }: Params<Completion>) =>
    db
      .updateTable('import_processes')
      .set({
        state: 'completed',
        claim_id: null,
        lease_until: null,
        account_id: accountId,
        service_account_number: number,
        account_created_at: createdAt,
        last_failure_code: null,
        last_failure_detail: null,
        last_failure_at: null,
      })
      .where('id', '=', processId)
      .where('claim_id', '=', claimId)
      .where('state', '=', 'in_progress'),
);

/** Marks a claimed process completed; false when the claim was lost to lease recovery. */
export async function completeProcess(
  db: Executor,
  processId: number,
  claimId: string,
  account: { id: number; number: string; createdAt: number },
): Promise<boolean> {
  const { id: accountId, number, createdAt } = account;
  const result = await complete(db, { processId, claimId, accountId, number, createdAt });
  return result.numAffectedRows === 1n;
}
