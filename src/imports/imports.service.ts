/** Validating and staging accounts (SPEC.md 4.2, 4.3). */
import { confirmCaller, findGrantedSupplier, type Caller } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportSupplier } from '../db/database.js';
import { validationFailed } from '../errors.js';
import { validateAccountPayload, type AccountPayload } from '../payload/account.js';
import { alreadyImported, inProgress, requireOngoing, skipped } from './imports.errors.js';
import * as repo from './staging.repository.js';

interface ValidatedAccount {
  supplier: ImportSupplier;
  payload: AccountPayload;
}

/** The granted supplier the body names; either way, the caller's organisation is confirmed. */
async function supplierOf(
  ctx: AppContext,
  caller: Caller,
  code: unknown,
): Promise<ImportSupplier | undefined> {
  if (typeof code !== 'string' || code.trim() === '') {
    await confirmCaller(ctx.db, caller);
    return undefined;
  }
  return findGrantedSupplier(ctx.db, caller, code.trim());
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

/** A refused stage is re-checked; this bounds the retries when its reason keeps vanishing. */
const STAGE_ATTEMPTS = 3;

/** Stores the normalised payload; every staged version is kept. Atomic: a failure changes nothing. */
export async function stageAccount(
  ctx: AppContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<StageResult> {
  const { supplier, payload } = await validated(ctx, caller, body);
  requireOngoing(supplier);
  const external = payload.external_account_number;
  const stage = {
    supplierId: supplier.id,
    externalAccountNumber: external,
    data: JSON.stringify(payload),
    organisationId: caller.organisationId,
    now: Date.now(),
  };
  for (let attempt = 1; ; attempt++) {
    const staged = await repo.stageProcess(ctx.db, stage);
    if (staged) {
      return {
        created: staged.version === 1,
        import_supplier: supplier.code,
        external_account_number: external,
      };
    }
    // Refusals are rare, so their reason is read only now, in the order a stage checks them.
    const blocker = await repo.findStageBlocker(ctx.db.kysely, supplier.id, external);
    if (blocker.skipped) throw skipped(external);
    if (blocker.process?.state === 'completed') throw alreadyImported(blocker.process);
    // A live claim refuses a stage (the upsert itself releases one whose lease ran out).
    if (blocker.process?.state === 'in_progress') throw inProgress(external);
    // The reason went away in between (a claim was given back, a skip mark removed): try again.
    if (attempt === STAGE_ATTEMPTS) throw new Error('import process changed state during staging');
  }
}
