/** A process request's dry run, and the re-validation of staged data it shares with creation. */
import type { ConfirmedCaller } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import type { ImportProcess, ImportSupplier } from '../../db/database.js';
import { ServiceError, validationFailed } from '../../errors.js';
import { validateEnergyAccount, type EnergyAccount } from '../../account/account.js';
import type { ProcessRequest } from '../../payload/process-request.js';
import { platformView } from '../../platform/platform-data.js';
import { inProgress } from '../imports.errors.js';
import { supplierRule } from '../staging/known-suppliers.js';
import { createAccount, DryRunRollback } from './account-creation.js';
import { utcDay, validationStamp } from '../../account/validation-stamp.js';
import * as repo from './creation.repository.js';

/** What a process request works on, once its checks passed. */
export interface Target {
  ctx: AppContext;
  caller: ConfirmedCaller;
  request: ProcessRequest;
  supplier: ImportSupplier;
  teamId: number;
  process: ImportProcess;
}

/**
 * The staged payload as a creation takes it: validated again unless its stamp says it was
 * validated with what a validation now would use (src/account/validation-stamp.ts). The rules,
 * the supplier's settings, the platform's reference data and settings or the day may have
 * changed since it was staged (a tariff removed is refused now).
 */
export function revalidate(
  ctx: AppContext,
  supplier: ImportSupplier,
  { data, checkedWith }: repo.StagedPayload,
): { payload: EnergyAccount } | { error: ServiceError } {
  const rule = supplierRule(supplier);
  const platform = ctx.platform.current;
  const now = { platformVersion: platform.version, rule, day: utcDay(Date.now()) };
  if (checkedWith !== null && checkedWith === validationStamp(now)) {
    return { payload: JSON.parse(data) as EnergyAccount };
  }
  const result = validateEnergyAccount(JSON.parse(data) as unknown, {
    phoneRegion: rule.phoneRegion,
    supplierFound: true,
    platform: platformView(platform, rule.settings),
  });
  return result.ok ? { payload: result.value } : { error: validationFailed(result.errors) };
}

/** A dry run: the account created and rolled back; always throws (dry_run_rolled_back when it would succeed). */
export async function rehearse({ ctx, supplier, teamId, process }: Target): Promise<never> {
  if (repo.holdsLiveClaim(process, Date.now())) {
    throw inProgress(process.external_account_number);
  }
  const staged = await repo.readStagedData(ctx.db.kysely, process.id);
  throw await rehearseStaged(ctx, { supplier, teamId, processId: process.id, staged });
}

/** What a rehearsal works on: the process's staged data, for its supplier and team. */
export interface Staged {
  supplier: ImportSupplier;
  teamId: number;
  processId: number;
  staged: repo.StagedPayload;
}

/**
 * Re-validates the staged data and creates the account in a transaction that is rolled back:
 * the refusal a creation would meet, or dry_run_rolled_back when it would succeed. Process
 * requests and scheduled dry runs both rehearse through it.
 */
export async function rehearseStaged(ctx: AppContext, staged: Staged): Promise<ServiceError> {
  const { supplier, teamId, processId } = staged;
  const checked = revalidate(ctx, supplier, staged.staged);
  if ('error' in checked) return checked.error;
  try {
    await createAccount(ctx, {
      supplier,
      teamId,
      processId,
      payload: checked.payload,
      dryRun: true,
    });
  } catch (error) {
    if (error instanceof DryRunRollback) {
      return new ServiceError({
        code: 'dry_run_rolled_back',
        detail: 'The account would import successfully and was rolled back due to the dry run.',
      });
    }
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('a dry run must roll back');
}
