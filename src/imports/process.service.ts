/** Creating an account from its staged data: claim, re-validate, create in one atomic write. */
import { randomUUID } from 'node:crypto';
import { markConfirmed, revokedToken, type Caller } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportProcess, ImportSupplier } from '../db/database.js';
import { ServiceError, validationFailed } from '../errors.js';
import { validOrRefused, type NulPath } from '../http/json-body.js';
import { validateAccountPayload, type AccountPayload } from '../payload/account.js';
import { validateProcessRequest, type ProcessRequest } from '../payload/process-request.js';
import { createAccount, DryRunRollback } from './account-creation.js';
import type { CreationSlots } from './creation-slots.js';
import {
  alreadyImported,
  inProgress,
  notOngoing,
  skipped,
  tooManyInProgress,
} from './imports.errors.js';
import * as repo from './imports.repository.js';

/**
 * Creates the account from its staged data, or rehearses it with dry_run and rolls back. A
 * creation beyond the concurrency limit is refused with 429 before it does any work.
 * `nulPaths`: where the body holds U+0000 (reported with the request's errors).
 */
export async function processAccount(
  ctx: AppContext,
  slots: CreationSlots,
  caller: Caller,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): Promise<{ service_account_number: string }> {
  const request = validOrRefused(validateProcessRequest(body), nulPaths);
  if (request.dry_run) return processRequest(ctx, caller, request);
  const done = await slots.run(() => processRequest(ctx, caller, request));
  if (!done) throw tooManyInProgress(slots.limit);
  return done.value;
}

async function processRequest(
  ctx: AppContext,
  caller: Caller,
  request: ProcessRequest,
): Promise<{ service_account_number: string }> {
  const {
    import_supplier_code: code,
    external_account_number: external,
    operations_team_name,
    dry_run,
  } = request;

  const found = await repo.findProcessTarget(
    ctx.db.kysely,
    caller,
    code,
    operations_team_name,
    external,
  );
  if (!found) throw revokedToken();
  markConfirmed(caller);
  const { supplier, teamId, process } = found;
  if (!supplier) {
    throw validationFailed([
      {
        detail: `No import supplier ${code} is available to you.`,
        code: 'import_supplier_not_found',
        attr: 'import_supplier_code',
      },
    ]);
  }
  // Every refusal before the claim goes through one `await`: a second one in this function,
  // though never reached by a creation, cost SQLite's process benchmark 2-3 % of its accounts
  // per second. (`refusal ?? …` only tells the compiler what the condition already implies.)
  const refusal =
    teamId === undefined
      ? unknownTeam(operations_team_name)
      : (notOngoing(supplier) ?? (found.skipped ? skipped(external) : undefined));
  if (refusal !== undefined || teamId === undefined) {
    throw await refuse(ctx, process, dry_run, refusal ?? unknownTeam(operations_team_name));
  }
  if (!process) {
    throw new ServiceError(
      'import_process_does_not_exist',
      `Nothing was staged for account ${external} of ${code}.`,
    );
  }
  if (process.state === 'completed') throw alreadyImported(process);

  const target = { ctx, supplier, teamId, process };
  return dry_run ? rehearse(target) : create(target);
}

/**
 * Returns `error`, recorded first as the staged process's last failure: a refused attempt is
 * the latest attempt, which the status shows. A dry run leaves no trace.
 */
async function refuse(
  ctx: AppContext,
  process: ImportProcess | undefined,
  dryRun: boolean,
  error: ServiceError,
): Promise<ServiceError> {
  if (process && !dryRun) {
    const failure = { code: error.code, detail: error.message, at: Date.now() };
    await repo.recordRefusal(ctx.db.kysely, process.id, failure);
  }
  return error;
}

function unknownTeam(name: string): ServiceError {
  const detail = `No operations team is named "${name}".`;
  return new ServiceError('operations_team_name_does_not_exist', detail, [
    { detail, code: 'operations_team_name_does_not_exist', attr: 'operations_team_name' },
  ]);
}

interface Target {
  ctx: AppContext;
  supplier: ImportSupplier;
  teamId: number;
  process: ImportProcess;
}

/** Staged data is re-validated: rules or the supplier's phone region may have changed since. */
function revalidate(
  supplier: ImportSupplier,
  data: string,
): { payload: AccountPayload } | { error: ServiceError } {
  const result = validateAccountPayload(JSON.parse(data) as unknown, {
    phoneRegion: supplier.phone_region,
    supplierFound: true,
  });
  return result.ok ? { payload: result.value } : { error: validationFailed(result.errors) };
}

async function rehearse({ ctx, supplier, teamId, process }: Target): Promise<never> {
  if (repo.holdsLiveClaim(process, Date.now())) {
    throw inProgress(process.external_account_number);
  }
  const checked = revalidate(supplier, await repo.readStagedData(ctx.db.kysely, process.id));
  if ('error' in checked) throw checked.error;
  try {
    await createAccount(ctx, {
      supplier,
      teamId,
      processId: process.id,
      payload: checked.payload,
      dryRun: true,
    });
  } catch (error) {
    if (error instanceof DryRunRollback) {
      throw new ServiceError(
        'dry_run_rolled_back',
        'The account would import successfully and was rolled back due to the dry run.',
      );
    }
    throw error;
  }
  throw new Error('a dry run must roll back');
}

async function create({
  ctx,
  supplier,
  teamId,
  process,
}: Target): Promise<{ service_account_number: string }> {
  const claimId = randomUUID();
  const now = Date.now();
  // The first claim is awaited here, not in a function of its own: one more async step before
  // the creation halved SQLite's accounts per second in the benchmark, for a reason not found.
  const claimed =
    (await claimFor(ctx, process, claimId, now)) ?? (await claimAgain(ctx, process, claimId, now));

  const fail = async (error: ServiceError) => {
    await repo.releaseClaim(ctx.db.kysely, process.id, claimId, {
      code: error.code,
      detail: error.message,
      at: Date.now(),
    });
    return error;
  };
  const checked = revalidate(supplier, claimed.data);
  if ('error' in checked) throw await fail(checked.error);
  try {
    const number = await createAccount(ctx, {
      supplier,
      teamId,
      processId: process.id,
      payload: checked.payload,
      dryRun: false,
      claimId,
    });
    return { service_account_number: number };
  } catch (error) {
    if (error instanceof ServiceError) throw await fail(error);
    // The database may be gone: give the claim back if possible, else its lease recovers it.
    await repo
      .releaseClaim(ctx.db.kysely, process.id, claimId, {
        code: 'internal_error',
        detail: 'The account could not be created.',
        at: Date.now(),
      })
      .catch(() => undefined);
    throw error;
  }
}

/** The process claimed for `claimId` at `now`, with its staged data; undefined if refused. */
function claimFor(ctx: AppContext, process: ImportProcess, claimId: string, now: number) {
  return repo.claimProcess(ctx.db, {
    processId: process.id,
    claimId,
    now,
    leaseUntil: now + ctx.config.processLeaseSeconds * 1000,
    limit: ctx.config.processConcurrencyLimit,
  });
}

/** A claim refused while the process was changing hands is tried this many times in all. */
const CLAIM_ATTEMPTS = 3;

/**
 * After the claim at `refusedAt` was refused: throws why, or claims again. A claim fails when
 * the process is completed or held by a live claim, when the concurrency limit is reached, or
 * when another request held it and gave it back between the claim and the reading of why.
 * Without a limit that last case is tried again, so that it never answers 429.
 */
async function claimAgain(
  ctx: AppContext,
  process: ImportProcess,
  claimId: string,
  refusedAt: number,
): Promise<{ data: string }> {
  const limit = ctx.config.processConcurrencyLimit;
  for (let attempt = 2, now = refusedAt; ; attempt++) {
    const current = await repo.findProcess(
      ctx.db.kysely,
      process.supplier_id,
      process.external_account_number,
    );
    if (current?.state === 'completed') throw alreadyImported(current);
    if (current && repo.holdsLiveClaim(current, now)) {
      throw inProgress(process.external_account_number);
    }
    if (limit > 0) throw tooManyInProgress(limit);
    if (attempt > CLAIM_ATTEMPTS) throw inProgress(process.external_account_number);
    now = Date.now();
    const claimed = await claimFor(ctx, process, claimId, now);
    if (claimed) return claimed;
  }
}
