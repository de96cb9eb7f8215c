/** The data-import feature: validate, stage and process accounts (SPEC.md 4.2–4.4). */
import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/access.js';
import { findGrantedSupplier } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportProcess, ImportSupplier } from '../db/database.js';
import { ServiceError, validationFailed } from '../errors.js';
import { validateAccountPayload, type AccountPayload } from '../payload/account.js';
import { validateProcessRequest } from '../payload/process-request.js';
import { createAccount, DryRunRollback } from './account-creation.js';
import * as repo from './imports.repository.js';

interface ValidatedAccount {
  supplier: ImportSupplier;
  payload: AccountPayload;
}

async function supplierOf(
  ctx: AppContext,
  caller: Caller,
  code: unknown,
): Promise<ImportSupplier | undefined> {
  if (typeof code !== 'string' || code.trim() === '') return undefined;
  return findGrantedSupplier(ctx.db, caller.organisationId, code.trim());
}

/** Runs every payload rule; throws 400 account_failed_validation with all errors at once. */
async function validated(
  ctx: AppContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<ValidatedAccount> {
  const supplier = await supplierOf(ctx, caller, body.import_supplier);
  const result = validateAccountPayload(body, {
    phoneRegion: supplier?.phone_region ?? 'GB',
    supplierFound: supplier !== undefined,
  });
  if (!result.ok) throw validationFailed(result.errors);
  // The validator only reports import_supplier_not_found when the supplier is missing.
  return { supplier: supplier as ImportSupplier, payload: result.value };
}

export async function validateAccount(
  ctx: AppContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<AccountPayload> {
  return (await validated(ctx, caller, body)).payload;
}

function requireOngoing(supplier: ImportSupplier): void {
  if (supplier.status !== 'Ongoing') {
    throw new ServiceError(
      'import_supplier_migration_not_ongoing',
      `The migration of import supplier ${supplier.code} is ${supplier.status}; it accepts no accounts now.`,
    );
  }
}

function alreadyImported(
  process: Pick<ImportProcess, 'external_account_number' | 'service_account_number'>,
): ServiceError {
  return new ServiceError(
    'account_import_process_already_imported',
    `Account ${process.external_account_number} was already imported as ${process.service_account_number}.`,
    [],
    {
      external_account_number: process.external_account_number,
      service_account_number: process.service_account_number ?? '',
    },
  );
}

function skipped(externalAccountNumber: string): ServiceError {
  return new ServiceError(
    'account_import_process_skipped',
    `Account ${externalAccountNumber} is marked to be skipped.`,
  );
}

function inProgress(externalAccountNumber: string): ServiceError {
  return new ServiceError(
    'account_import_in_progress',
    `Account ${externalAccountNumber} is being created by another request right now.`,
  );
}

export interface StageResult {
  created: boolean;
  import_supplier: string;
  external_account_number: string;
}

/** Stores the normalised payload; every staged version is kept. Atomic: a failure changes nothing. */
export async function stageAccount(
  ctx: AppContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<StageResult> {
  const { supplier, payload } = await validated(ctx, caller, body);
  requireOngoing(supplier);
  const external = payload.external_account_number;
  const data = JSON.stringify(payload);
  const now = Date.now();
  const created = await ctx.db.kysely.transaction().execute(async (trx) => {
    if (await repo.isSkipped(trx, supplier.id, external)) throw skipped(external);
    // Re-staging is the common case for a busy migration, so it is tried first.
    const restaged = await repo.restageProcess(trx, supplier.id, external, data, now);
    if (restaged) {
      await repo.insertVersion(
        trx,
        restaged.id,
        restaged.version,
        data,
        caller.organisationId,
        now,
      );
      return false;
    }
    const insertedId = await repo.insertProcess(trx, supplier.id, external, data, now);
    if (insertedId !== undefined) {
      await repo.insertVersion(trx, insertedId, 1, data, caller.organisationId, now);
      return true;
    }
    const existing = await repo.findProcess(trx, supplier.id, external);
    if (existing?.state === 'completed') throw alreadyImported(existing);
    if (existing?.state === 'in_progress') throw inProgress(external);
    // A concurrent first stage inserted the row between our update and insert: update it now.
    const raced = await repo.restageProcess(trx, supplier.id, external, data, now);
    if (!raced) throw new Error('import process changed state during staging');
    await repo.insertVersion(trx, raced.id, raced.version, data, caller.organisationId, now);
    return false;
  });
  return { created, import_supplier: supplier.code, external_account_number: external };
}

/** Creates the account from its staged data, or rehearses it with dry_run and rolls back. */
export async function processAccount(
  ctx: AppContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<{ service_account_number: string }> {
  const request = validateProcessRequest(body);
  if (!request.ok) throw validationFailed(request.errors);
  const {
    import_supplier_code: code,
    external_account_number: external,
    operations_team_name,
    dry_run,
  } = request.value;

  const supplier = await findGrantedSupplier(ctx.db, caller.organisationId, code);
  if (!supplier) {
    throw validationFailed([
      {
        detail: `No import supplier ${code} is available to you.`,
        code: 'import_supplier_not_found',
        attr: 'import_supplier_code',
      },
    ]);
  }
  const team = await repo.findTeamByName(ctx.db.kysely, operations_team_name);
  if (!team) {
    throw new ServiceError(
      'operations_team_name_does_not_exist',
      `No operations team is named "${operations_team_name}".`,
      [
        {
          detail: `No operations team is named "${operations_team_name}".`,
          code: 'operations_team_name_does_not_exist',
          attr: 'operations_team_name',
        },
      ],
    );
  }
  requireOngoing(supplier);
  if (await repo.isSkipped(ctx.db.kysely, supplier.id, external)) throw skipped(external);
  const process = await repo.findProcess(ctx.db.kysely, supplier.id, external);
  if (!process) {
    throw new ServiceError(
      'import_process_does_not_exist',
      `Nothing was staged for account ${external} of ${code}.`,
    );
  }
  if (process.state === 'completed') throw alreadyImported(process);

  const target = { ctx, supplier, teamId: team.id, process };
  return dry_run ? rehearse(target) : create(target);
}

interface Target {
  ctx: AppContext;
  supplier: ImportSupplier;
  teamId: number;
  process: repo.ProcessSummary;
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
  if (process.state === 'in_progress' && (process.lease_until ?? 0) >= Date.now()) {
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
  const now = Date.now();
  const claimId = randomUUID();
  const claimed = await repo.claimProcess(ctx.db, {
    processId: process.id,
    claimId,
    now,
    leaseUntil: now + ctx.config.processLeaseSeconds * 1000,
    limit: ctx.config.processConcurrencyLimit,
  });
  if (!claimed) throw await whyNotClaimed(ctx, process, now);

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

async function whyNotClaimed(
  ctx: AppContext,
  process: repo.ProcessSummary,
  now: number,
): Promise<ServiceError> {
  const current = await repo.findProcess(
    ctx.db.kysely,
    process.supplier_id,
    process.external_account_number,
  );
  if (current?.state === 'completed') return alreadyImported(current);
  if (current?.state === 'in_progress' && (current.lease_until ?? 0) >= now) {
    return inProgress(process.external_account_number);
  }
  return new ServiceError(
    'too_many_accounts_in_progress',
    `At most ${ctx.config.processConcurrencyLimit} accounts are created at once; retry shortly.`,
    [],
    {},
    { 'Retry-After': '1' },
  );
}
