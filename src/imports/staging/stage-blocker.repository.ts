/** Why a stage was refused, read only after a refusal. */
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { Executor, ImportProcess } from '../../db/database.js';

/** An account by its supplier and external number. */
interface AccountKey {
  supplierId: number;
  external: string;
}

/** Why a stage was refused: the skip mark, the process and its v2 schedule as they are now. */
export interface StageBlocker {
  skipped: boolean;
  /** A v2 worker holds the account's schedule (IN_PROGRESS, its lease not run out). */
  scheduleInProgress: boolean;
  process:
    Pick<ImportProcess, 'state' | 'external_account_number' | 'service_account_number'> | undefined;
}

const stageBlocker = compiledQuery((db, { supplierId, external }: Params<AccountKey>) =>
  db
    .selectFrom('import_suppliers as s')
    .leftJoin('skip_marks as k', (join) =>
      join.onRef('k.supplier_id', '=', 's.id').on('k.external_account_number', '=', external),
    )
    .leftJoin('import_processes as p', (join) =>
      join.onRef('p.supplier_id', '=', 's.id').on('p.external_account_number', '=', external),
    )
    .leftJoin('creation_schedules as c', 'c.process_id', 'p.id')
    .select([
      'c.status as schedule_status',
      'c.lease_until as schedule_lease_until',
      'k.supplier_id as skip_supplier_id',
      'p.state',
      'p.external_account_number',
      'p.service_account_number',
    ])
    .where('s.id', '=', supplierId),
);

/** Reads what stops the account from being staged, in one statement (only after a refusal). */
export async function findStageBlocker(
  db: Executor,
  supplierId: number,
  externalAccountNumber: string,
): Promise<StageBlocker> {
  const row = (await stageBlocker(db, { supplierId, external: externalAccountNumber })).rows[0];
  const process =
    row?.state == null || row.external_account_number == null
      ? undefined
      : {
          state: row.state,
          external_account_number: row.external_account_number,
          service_account_number: row.service_account_number,
        };
  const lease = row?.schedule_lease_until;
  const scheduleInProgress =
    row?.schedule_status === 'IN_PROGRESS' && (lease == null || Number(lease) >= Date.now());
  return { skipped: row?.skip_supplier_id != null, scheduleInProgress, process };
}
