/** Validating and staging accounts (SPEC.md 4.2, 4.3). */
import {
  confirmSupplierAccess,
  supplierCodeOf,
  type Caller,
  type ConfirmedCaller,
  type SupplierAccess,
} from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportSupplier } from '../db/database.js';
import {
  parseJsonText,
  requireJsonText,
  requireObjectBody,
  validOrRefused,
  type NulPath,
} from '../http/json-body.js';
import { isObject } from '../payload/validators.js';
import { validateAccountPayload, type AccountPayload } from '../payload/account.js';
import type { CheckedAccount } from '../payload/account-json.js';
import type { SupplierRegions, ValidationThreads } from '../payload/validation-threads.js';
import { alreadyImported, inProgress, requireOngoing, skipped } from './imports.errors.js';
import * as repo from './staging.repository.js';

interface ValidatedAccount {
  supplier: ImportSupplier;
  payload: AccountPayload;
}

/** The supplier code a request body gives (see supplierCodeOf); undefined for any other body. */
export const supplierCodeIn = (body: unknown, field: string): string | undefined =>
  isObject(body) ? supplierCodeOf(body[field]) : undefined;

/**
 * Runs every payload rule against the supplier the caller's check found; throws 400
 * account_failed_validation with all errors at once. The supplier found is remembered.
 */
function validated(
  known: KnownSuppliers,
  { supplier }: SupplierAccess,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): ValidatedAccount {
  if (supplier) known.remember(supplier);
  const result = validateAccountPayload(body, {
    phoneRegion: supplier?.phone_region ?? 'GB',
    supplierFound: supplier !== undefined,
  });
  const payload = validOrRefused(result, nulPaths);
  // The validator only reports import_supplier_not_found when the supplier is missing.
  return { supplier: supplier as ImportSupplier, payload };
}

/**
 * `access`: the caller, confirmed with the supplier the body names (supplierCodeIn). `nulPaths`:
 * where the body holds U+0000 (reported with the payload's errors).
 */
export function validateAccount(
  known: KnownSuppliers,
  access: SupplierAccess,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): AccountPayload {
  return validated(known, access, body, nulPaths).payload;
}

export interface StageResult {
  created: boolean;
  import_supplier: string;
  external_account_number: string;
}

/**
 * The phone regions of the suppliers this instance last read, by code, which validation threads
 * check stages against before the stage's caller check reads the supplier afresh. A stage whose
 * supplier turns out to have another region (or none the caller may use) goes the long way, so
 * an outdated entry costs time, never correctness. Only suppliers read from the database are
 * kept, so the map is bounded by them.
 */
export class KnownSuppliers implements SupplierRegions {
  readonly #byCode = new Map<string, ImportSupplier>();
  #version = 0;

  /** A supplier just read from the database. */
  remember(supplier: ImportSupplier): void {
    const known = this.#byCode.get(supplier.code);
    if (known?.phone_region !== supplier.phone_region) this.#version += 1;
    this.#byCode.set(supplier.code, supplier);
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

/** A stage that found its caller or supplier changed is redone; this bounds the redos. */
const STAGE_ATTEMPTS = 3;

/**
 * A stage's body as read before its caller check: checked on a validation thread, or parsed
 * here for the long way (a U+0000 in it, or a payload the thread found invalid or could not
 * check), or refused (thrown once the caller is confirmed).
 */
type StageBody =
  | { checked: CheckedAccount; text: string }
  | { body: Record<string, unknown>; nulPaths: readonly NulPath[] | undefined }
  | { refusal: unknown };

/** A stage's caller, confirmed with the supplier its body names, and that body. */
export interface StageAccess extends SupplierAccess {
  readonly stage: StageBody;
}

/**
 * The first step of a stage: its body is read (on a validation thread when it can be) for the
 * supplier it names, and the caller confirmed with that supplier in one query. A body refused
 * here is refused by stageAccount, after the check.
 */
export async function confirmStage(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<StageAccess> {
  const stage = await readStage(known, threads, body, nulPaths);
  const code =
    'checked' in stage
      ? supplierCodeOf(stage.checked.supplierCode)
      : 'body' in stage
        ? supplierCodeIn(stage.body, 'import_supplier')
        : undefined;
  return { ...(await confirmSupplierAccess(ctx.db, caller, code)), stage };
}

async function readStage(
  known: KnownSuppliers,
  threads: ValidationThreads,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<StageBody> {
  try {
    const { text } = requireJsonText(body);
    if (!nulPaths) {
      const checked = await threads.check(text, known);
      if (checked) return { checked, text };
    }
    return { body: requireObjectBody(parseJsonText(text)), nulPaths };
  } catch (refusal) {
    return { refusal };
  }
}

/**
 * Stores the normalised payload; every staged version is kept. Atomic: a failure changes
 * nothing, and nothing is stored unless the caller and the supplier are, when it is stored,
 * what the payload was validated for. A payload checked on a validation thread against the
 * supplier's phone region as the caller's check found it is stored at once; the stage
 * statement itself checks that the caller and the supplier are still the same. Otherwise the
 * long way answers.
 */
export async function stageAccount(
  ctx: AppContext,
  known: KnownSuppliers,
  access: StageAccess,
): Promise<StageResult> {
  const { stage, supplier } = access;
  if ('refusal' in stage) throw stage.refusal;
  if ('body' in stage) return stageTheLongWay(ctx, known, access, stage.body, stage.nulPaths);
  const { checked } = stage;
  if (supplier?.status === 'Ongoing' && supplier.phone_region === checked.phoneRegion) {
    const staged = await storeStage(ctx, access.caller, supplier, checked);
    if (staged !== 'stale') return staged;
    // The supplier or caller changed since the check: the long way reads them again.
    const fresh = await confirmSupplierAccess(ctx.db, access.caller, supplier.code);
    return stageTheLongWay(ctx, known, fresh, objectOf(stage.text), undefined);
  }
  // Invalid, or another supplier than checked against: the long way gives the answer.
  return stageTheLongWay(ctx, known, access, objectOf(stage.text), undefined);
}

const objectOf = (text: string): Record<string, unknown> => requireObjectBody(parseJsonText(text));

/** Validation against the supplier found, then the stage; redone if they changed meanwhile. */
async function stageTheLongWay(
  ctx: AppContext,
  known: KnownSuppliers,
  access: SupplierAccess,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): Promise<StageResult> {
  for (let attempt = 1; ; attempt++) {
    const { supplier, payload } = validated(known, access, body, nulPaths);
    requireOngoing(supplier);
    const staged = await storeStage(ctx, access.caller, supplier, serialised(payload));
    if (staged !== 'stale') return staged;
    if (attempt === STAGE_ATTEMPTS) throw new Error('the supplier kept changing during staging');
    access = await confirmSupplierAccess(ctx.db, access.caller, supplier.code);
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
  caller: ConfirmedCaller,
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
