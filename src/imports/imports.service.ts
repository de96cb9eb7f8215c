/** Validating and staging accounts (SPEC.md 4.2, 4.3). */
import { confirmCaller, findGrantedSupplier, markConfirmed, type Caller } from '../auth/access.js';
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

/**
 * The suppliers this instance last read, by code. A stage validates its payload against the
 * remembered supplier, and the stage statement itself checks that the caller and the supplier
 * are still as remembered: one query per stage instead of two. Any difference sends the stage
 * the long way (a fresh lookup and validation), so an outdated entry costs time, never
 * correctness. Only suppliers read from the database are kept, so the map is bounded by them.
 */
export class KnownSuppliers {
  readonly #byCode = new Map<string, ImportSupplier>();

  /** The remembered supplier when it accepts accounts (the only ones a stage can use). */
  ongoing(code: unknown): ImportSupplier | undefined {
    if (typeof code !== 'string') return undefined;
    const supplier = this.#byCode.get(code.trim());
    return supplier?.status === 'Ongoing' ? supplier : undefined;
  }

  remember(supplier: ImportSupplier): void {
    this.#byCode.set(supplier.code, supplier);
  }
}

/** A stage that found its caller or supplier changed is redone; this bounds the redos. */
const STAGE_ATTEMPTS = 3;

/**
 * Stores the normalised payload; every staged version is kept. Atomic: a failure changes
 * nothing, and nothing is stored unless the caller and the supplier are, when it is stored,
 * what the payload was validated for.
 */
export async function stageAccount(
  ctx: AppContext,
  known: KnownSuppliers,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<StageResult> {
  const remembered = known.ongoing(body.import_supplier);
  if (remembered) {
    const result = validateAccountPayload(body, {
      phoneRegion: remembered.phone_region,
      supplierFound: true,
    });
    if (result.ok) {
      const staged = await storeStage(ctx, caller, remembered, result.value);
      if (staged !== 'stale') return staged;
    }
    // Invalid, or the supplier or caller changed: the long way gives the authoritative answer.
  }
  for (let attempt = 1; ; attempt++) {
    const { supplier, payload } = await validated(ctx, caller, body);
    known.remember(supplier);
    requireOngoing(supplier);
    const staged = await storeStage(ctx, caller, supplier, payload);
    if (staged !== 'stale') return staged;
    if (attempt === STAGE_ATTEMPTS) throw new Error('the supplier kept changing during staging');
  }
}

/** A refused stage is re-checked; this bounds the retries when its reason keeps vanishing. */
const BLOCKED_ATTEMPTS = 3;

/** Stages a validated payload; 'stale' when the caller or supplier changed (nothing stored). */
async function storeStage(
  ctx: AppContext,
  caller: Caller,
  supplier: ImportSupplier,
  payload: AccountPayload,
): Promise<StageResult | 'stale'> {
  const external = payload.external_account_number;
  const stage = {
    supplier,
    externalAccountNumber: external,
    data: JSON.stringify(payload),
    organisationId: caller.organisationId,
    keyVersion: caller.keyVersion,
    now: Date.now(),
  };
  for (let attempt = 1; ; attempt++) {
    const staged = await repo.stageProcess(ctx.db, stage);
    if (staged === 'stale') return staged;
    markConfirmed(caller);
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
    if (attempt === BLOCKED_ATTEMPTS) {
      throw new Error('import process changed state during staging');
    }
  }
}
