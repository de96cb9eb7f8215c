/** Validating and staging accounts (SPEC.md 4.2, 4.3). */
import type { Caller } from '../auth/access.js';
import { findGrantedSupplier } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportSupplier } from '../db/database.js';
import { validationFailed } from '../errors.js';
import { validateAccountPayload, type AccountPayload } from '../payload/account.js';
import { alreadyImported, inProgress, requireOngoing, skipped } from './imports.errors.js';
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
