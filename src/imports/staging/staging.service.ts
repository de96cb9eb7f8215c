/** Validating and staging accounts (SPEC.md 4.2, 4.3). */
import {
  confirmCaller,
  findGrantedSupplier,
  markConfirmed,
  type Caller,
} from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import type { ImportSupplier } from '../../db/database.js';
import {
  parseJsonText,
  requireObjectBody,
  validOrRefused,
  type JsonText,
  type NulPath,
} from '../../http/json-body.js';
import { validateAccountPayload, type AccountPayload } from '../../payload/account.js';
import type { CheckedAccount } from '../../payload/account-json.js';
import type { SupplierRegions, ValidationThreads } from '../../payload/validation-threads.js';
import { alreadyImported, inProgress, requireOngoing, skipped } from '../imports.errors.js';
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
  // A code holding U+0000 names no supplier (and PostgreSQL could not even compare it).
  if (typeof code !== 'string' || code.trim() === '' || code.includes('\u0000')) {
    await confirmCaller(ctx.db, caller);
    return undefined;
  }
  return findGrantedSupplier(ctx.db, caller, code.trim());
}

/**
 * Runs every payload rule; throws 400 account_failed_validation with all errors at once. The
 * supplier found is remembered.
 */
async function validated(
  ctx: AppContext,
  known: KnownSuppliers,
  caller: Caller,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): Promise<ValidatedAccount> {
  const supplier = await supplierOf(ctx, caller, body.import_supplier);
  if (supplier) known.remember(supplier, caller);
  const result = validateAccountPayload(body, {
    phoneRegion: supplier?.phone_region ?? 'GB',
    supplierFound: supplier !== undefined,
  });
  const payload = validOrRefused(result, nulPaths);
  // The validator only reports import_supplier_not_found when the supplier is missing.
  return { supplier: supplier as ImportSupplier, payload };
}

/** `nulPaths`: where the body holds U+0000 (reported with the payload's errors). */
export async function validateAccount(
  ctx: AppContext,
  known: KnownSuppliers,
  caller: Caller,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): Promise<AccountPayload> {
  return (await validated(ctx, known, caller, body, nulPaths)).payload;
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
 * Validation threads are told each remembered supplier's phone region.
 *
 * A supplier is only used for the callers it was found granted to (by organisation and key
 * version). Another organisation's stage naming it takes the long way at once, as for a code
 * that does not exist: through the stage statement's refusal first, it took measurably longer,
 * which told any caller which codes exist and are in use (DESIGN.md: a supplier that does not
 * exist and one the caller may not use look the same).
 */
export class KnownSuppliers implements SupplierRegions {
  readonly #byCode = new Map<string, ImportSupplier>();
  /** `organisation:keyVersion:code` of each caller found granted the supplier with that code. */
  readonly #granted = new Set<string>();
  #version = 0;

  /** The remembered supplier when this caller was granted it and it accepts accounts. */
  ongoing(code: unknown, caller: Caller): ImportSupplier | undefined {
    if (typeof code !== 'string') return undefined;
    const trimmed = code.trim();
    if (!this.#granted.has(grantKey(caller, trimmed))) return undefined;
    const supplier = this.#byCode.get(trimmed);
    return supplier?.status === 'Ongoing' ? supplier : undefined;
  }

  /** A supplier just read from the database, granted to this caller. */
  remember(supplier: ImportSupplier, caller: Caller): void {
    const known = this.#byCode.get(supplier.code);
    if (known?.phone_region !== supplier.phone_region) this.#version += 1;
    this.#byCode.set(supplier.code, supplier);
    this.#granted.add(grantKey(caller, supplier.code));
  }

  get version(): number {
    return this.#version;
  }

  regionOf(code: string): string | undefined {
    return this.#byCode.get(code)?.phone_region;
  }

  regions(): [code: string, region: string][] {
    return [...this.#byCode.values()].map((supplier) => [supplier.code, supplier.phone_region]);
  }
}

const grantKey = (caller: Caller, code: string) =>
  `${caller.organisationId}:${caller.keyVersion}:${code}`;

/** A stage that found its caller or supplier changed is redone; this bounds the redos. */
const STAGE_ATTEMPTS = 3;

/**
 * Stores the normalised payload; every staged version is kept. Atomic: a failure changes
 * nothing, and nothing is stored unless the caller and the supplier are, when it is stored,
 * what the payload was validated for. The payload is checked (on a validation thread when
 * there is one) against the remembered supplier; the stage statement itself checks that the
 * caller and the supplier are still as remembered. Otherwise the long way answers.
 */
export async function stageAccount(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  caller: Caller,
  body: JsonText,
  nulPaths: readonly NulPath[] | undefined,
): Promise<StageResult> {
  if (nulPaths) return stageTheLongWay(ctx, known, caller, objectOf(body), nulPaths);
  const checked = await threads.check(body.text, known);
  const remembered = known.ongoing(checked?.supplierCode, caller);
  if (checked && remembered?.phone_region === checked.phoneRegion) {
    const staged = await storeStage(ctx, caller, remembered, checked);
    if (staged !== 'stale') return staged;
  }
  // Invalid, or the supplier or caller changed: the long way gives the authoritative answer.
  return stageTheLongWay(ctx, known, caller, objectOf(body), undefined);
}

const objectOf = (body: JsonText): Record<string, unknown> =>
  requireObjectBody(parseJsonText(body.text));

/** A fresh supplier lookup and validation, then the stage; redone if they changed meanwhile. */
async function stageTheLongWay(
  ctx: AppContext,
  known: KnownSuppliers,
  caller: Caller,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): Promise<StageResult> {
  for (let attempt = 1; ; attempt++) {
    const { supplier, payload } = await validated(ctx, known, caller, body, nulPaths);
    requireOngoing(supplier);
    const staged = await storeStage(ctx, caller, supplier, serialised(payload));
    if (staged !== 'stale') return staged;
    if (attempt === STAGE_ATTEMPTS) throw new Error('the supplier kept changing during staging');
  }
}

/** A refused stage is re-checked; this bounds the retries when its reason keeps vanishing. */
const BLOCKED_ATTEMPTS = 3;

/** What a stage stores: the normalised payload as JSON, and its external account number. */
type StageData = Pick<CheckedAccount, 'externalAccountNumber' | 'data'>;

const serialised = (payload: AccountPayload): StageData => ({
  externalAccountNumber: payload.external_account_number,
  data: JSON.stringify(payload),
});

/** Stages a validated payload; 'stale' when the caller or supplier changed (nothing stored). */
async function storeStage(
  ctx: AppContext,
  caller: Caller,
  supplier: ImportSupplier,
  { externalAccountNumber: external, data }: StageData,
): Promise<StageResult | 'stale'> {
  const stage = {
    supplier,
    externalAccountNumber: external,
    data,
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
