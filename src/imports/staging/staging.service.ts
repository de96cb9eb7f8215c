/** Validating and staging accounts (docs/interface.md, States and Endpoints). */
import {
  confirmSupplierAccess,
  confirmWith,
  supplierCodeOf,
  type Caller,
  type ConfirmedCaller,
  type SupplierAccess,
} from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import type { ImportSupplier } from '../../db/database.js';
import {
  LargeJsonText,
  parseJsonText,
  requireJsonText,
  requireObjectBody,
  validOrRefused,
  type NulPath,
} from '../../http/json-body.js';
import { isObject } from '../../payload/validators.js';
import { ServiceError } from '../../errors.js';
import { namedAccount, recordRefusedStage } from '../../events/refusals.js';
import { validateEnergyAccount, type EnergyAccount } from '../../account/account.js';
import { accountClaims, type AccountClaim } from '../../account/claims.js';
import { claimedElsewhere, refuseClaimed } from '../../accounts/account-claims.js';
import type { CheckedAccount } from '../../account/threads/account-json.js';
import { refusalOf, type LargeObjectBody } from '../../account/threads/large-bodies.js';
import type { ValidationThreads } from '../../account/threads/validation-threads.js';
import { alreadyImported, inProgress, requireOngoing, skipped } from '../imports.errors.js';
import { platformView, sameRule, type PlatformData } from '../../platform/platform-data.js';
import { dayBetween, validationStamp } from '../../account/validation-stamp.js';
import { supplierRule, type KnownSuppliers } from './known-suppliers.js';
import { findStageBlocker, type StageBlocker } from './stage-blocker.repository.js';
import * as repo from './staging.repository.js';

interface ValidatedAccount {
  supplier: ImportSupplier;
  payload: EnergyAccount;
  /** The version of the platform data it was validated against. */
  platformVersion: string;
}

/** The supplier code a request body gives (see supplierCodeOf); undefined for any other body. */
const supplierCodeIn = (body: unknown, field: string): string | undefined =>
  isObject(body) ? supplierCodeOf(body[field]) : undefined;

/** A supplier's rule before the supplier is found (its own error is reported). */
const NO_SUPPLIER = { phoneRegion: 'GB', settings: '{}' };

const ruleFor = (supplier: ImportSupplier | undefined) =>
  supplier === undefined ? NO_SUPPLIER : supplierRule(supplier);

/**
 * Whether a payload checked on a validation thread is valid as it stands: for the supplier as
 * found, and the platform data as current.
 */
const stillHolds = (
  checked: CheckedAccount,
  supplier: ImportSupplier | undefined,
  platform: PlatformData,
): supplier is ImportSupplier =>
  supplier !== undefined &&
  checked.platformVersion === platform.version &&
  sameRule(checked.rule, supplierRule(supplier));

/**
 * Runs every payload rule against the supplier the caller's check found and the platform data
 * as current; throws 400 account_failed_validation with all errors at once. The supplier found
 * is remembered.
 */
function validated(
  ctx: AppContext,
  known: KnownSuppliers,
  { caller, supplier }: SupplierAccess,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): ValidatedAccount {
  if (supplier) known.remember(supplier, caller);
  const rule = ruleFor(supplier);
  const platform = ctx.platform.current;
  const result = validateEnergyAccount(body, {
    phoneRegion: rule.phoneRegion,
    supplierFound: supplier !== undefined,
    platform: platformView(platform, rule.settings),
  });
  const payload = validOrRefused(result, nulPaths);
  // The validator only reports import_supplier_not_found when the supplier is missing.
  return { supplier: supplier as ImportSupplier, payload, platformVersion: platform.version };
}

/** A payload validated as JSON text, and the values it claims within its import supplier. */
interface ValidText {
  data: string;
  externalAccountNumber: string;
  claims: readonly AccountClaim[];
}

/**
 * Throws 400 unless no value the payload claims within its import supplier (an account reference, a
 * CAIS reference) is held by a created account other than its own, with an error for each that
 * is. One statement when it claims something, none otherwise. `supplier`: the payload's, found
 * (the payload would not be valid otherwise).
 */
function requireUnclaimed(
  ctx: AppContext,
  supplier: ImportSupplier | undefined,
  externalAccountNumber: string,
  claims: readonly AccountClaim[],
): Promise<void> {
  const supplierId = (supplier as ImportSupplier).id;
  return refuseClaimed(ctx.db.kysely, claims, { supplierId, externalAccountNumber });
}

/** The payload's JSON text, once nothing it claims is taken (requireUnclaimed). */
async function unclaimedText(
  ctx: AppContext,
  supplier: ImportSupplier | undefined,
  { data, externalAccountNumber, claims }: ValidText,
): Promise<string> {
  await requireUnclaimed(ctx, supplier, externalAccountNumber, claims);
  return data;
}

/** requireUnclaimed for a payload validated on the event loop. */
function requireAccountUnclaimed(ctx: AppContext, { supplier, payload }: ValidatedAccount) {
  return requireUnclaimed(ctx, supplier, payload.external_account_number, accountClaims(payload));
}

/** The payload validated on the event loop as JSON text, once nothing it claims is taken. */
async function unclaimed(ctx: AppContext, account: ValidatedAccount): Promise<string> {
  await requireAccountUnclaimed(ctx, account);
  return JSON.stringify(account.payload);
}

/**
 * Validation for a LargeJsonText: the body read and validated on a validation thread, the
 * caller confirmed between the two as for any body. The normalised payload, as JSON.
 */
export async function validateLargeAccount(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  caller: Caller,
  { text }: LargeJsonText,
): Promise<string> {
  const reading = await threads.runLarge({ kind: 'read', text });
  const code = 'refusal' in reading ? undefined : supplierCodeOf(reading.importSupplier);
  const access = await confirmSupplierAccess(ctx.db, caller, code);
  if ('refusal' in reading) throw refusalOf(reading.refusal);
  const valid = await validatedOffLoop(known, threads, access, text, reading.nulPaths);
  return unclaimedText(ctx, access.supplier, valid);
}

/** validated(), on a validation thread: the normalised payload as JSON, and what it claims. */
async function validatedOffLoop(
  known: KnownSuppliers,
  threads: ValidationThreads,
  { caller, supplier }: SupplierAccess,
  text: string,
  nulPaths: readonly NulPath[] | undefined,
): Promise<ValidText> {
  if (supplier) known.remember(supplier, caller);
  const rule = ruleFor(supplier);
  const supplierFound = supplier !== undefined;
  const result = await threads.runLarge({ kind: 'validate', text, rule, supplierFound });
  const data = validOrRefused(result, nulPaths);
  // validOrRefused returned, so the result is ok.
  if (!result.ok) throw new Error('a refused payload was taken for valid');
  return { data, externalAccountNumber: result.externalAccountNumber, claims: result.claims };
}

/**
 * Validation of a body kept as JSON text (a `jsonText` route): checked on a validation
 * thread when it can be, as a stage's is, so that the event loop only reads and answers it; the
 * caller is confirmed with the supplier the body names, and a payload the thread could not
 * vouch for (invalid, U+0000 in it, a supplier not remembered or whose region changed) takes
 * the long way, which reports why. The normalised payload, as JSON.
 */
export async function validateAccountText(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<string> {
  const read = await readAccountBody(known, threads, body, nulPaths);
  const access = await confirmSupplierAccess(ctx.db, caller, supplierCodeOfBody(read));
  if ('refusal' in read) throw read.refusal;
  if ('checked' in read) {
    const { supplier } = access;
    if (stillHolds(read.checked, supplier, ctx.platform.current)) {
      known.remember(supplier, access.caller);
      return unclaimedText(ctx, supplier, read.checked);
    }
    return unclaimed(ctx, validated(ctx, known, access, objectOf(read.text), undefined));
  }
  if ('large' in read) {
    const valid = await validatedOffLoop(known, threads, access, read.large, nulPaths);
    return unclaimedText(ctx, access.supplier, valid);
  }
  return unclaimed(ctx, validated(ctx, known, access, read.body, read.nulPaths));
}

export interface StageResult {
  created: boolean;
  import_supplier: string;
  /** The same code under the name the publication gives it. */
  import_supplier_code: string;
  external_account_number: string;
  /** With a companion (repo.StageCompanion): whether it wrote. Never part of an answer. */
  companionWrote?: boolean;
}

/** A stage that found its caller or supplier changed is redone; this bounds the redos. */
const STAGE_ATTEMPTS = 3;

/**
 * A validate or stage body as read before its caller check: checked on a validation thread, or
 * parsed here for the long way (a U+0000 in it, or a payload the thread found invalid or could
 * not check), or refused (thrown once the caller is confirmed).
 */
type AccountBody =
  | { checked: CheckedAccount; text: string }
  | { large: string; reading: LargeObjectBody }
  | { body: Record<string, unknown>; nulPaths: readonly NulPath[] | undefined }
  | { refusal: unknown };

/** A stage statement sent as a stage's first step, and what it did (never `stale`). */
interface FirstStatement {
  request: repo.StageRequest;
  outcome: repo.StagedProcess | undefined;
  /** The body, for the long way should a retry find the supplier changed. */
  text: string;
}

/**
 * A stage's caller, confirmed by the stage's first statement: the stage itself, or the lookup
 * of the supplier its body names (with the body as read).
 */
export type StageAccess =
  | { readonly caller: ConfirmedCaller; readonly staged: FirstStatement }
  | (SupplierAccess & { readonly stage: AccountBody; readonly companion?: repo.CompanionWrite });

/**
 * The first step of a stage: its body is read (checked on a validation thread when it can be),
 * and its caller confirmed by the request's first statement. For a payload checked against a
 * supplier this caller was found granted before, that is the stage statement itself, which
 * stores nothing unless the caller's organisation is active and the supplier as remembered:
 * one statement per stage instead of two. Otherwise it is the lookup of the supplier the body
 * names. A body refused here is refused by stageAccount, after the check. A payload that claims
 * values within its import supplier has them looked up first (a statement that tells the caller
 * nothing until it is confirmed): should a created account hold one, the stage takes the long
 * way, which refuses it. A companion (v2's schedule) is written with the stage, whichever way it
 * goes.
 */
export async function confirmStage(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
  companion?: repo.CompanionWrite,
): Promise<StageAccess> {
  const since = Date.now();
  const stage = await readAccountBody(known, threads, body, nulPaths);
  return confirmRead(ctx, known, caller, stage, { since, companion });
}

/**
 * confirmStage for an account checked already (on a validation thread, inside a v2 body) from
 * `since` on. Its normalised payload stands for the body should the stage take the long way
 * (a normalised payload validates to itself).
 */
export function confirmCheckedStage(
  ctx: AppContext,
  known: KnownSuppliers,
  caller: Caller,
  checked: CheckedAccount,
  { since, companion }: { since: number; companion: repo.CompanionWrite },
): Promise<StageAccess> {
  return confirmRead(ctx, known, caller, { checked, text: checked.data }, { since, companion });
}

/** confirmStage once the body is read. */
async function confirmRead(
  ctx: AppContext,
  known: KnownSuppliers,
  caller: Caller,
  stage: AccountBody,
  { since, companion }: { since: number; companion: repo.CompanionWrite | undefined },
): Promise<StageAccess> {
  if ('checked' in stage) {
    const { checked, text } = stage;
    const remembered = known.ongoing(checked.supplierCode, caller);
    if (
      stillHolds(checked, remembered, ctx.platform.current) &&
      (await nothingTaken(ctx, remembered, checked))
    ) {
      const validatedWith = { platformVersion: checked.platformVersion, since };
      const request = stageRequest(caller, remembered, checked, validatedWith, companion);
      const outcome = await repo.stageProcess(ctx.db, request);
      // Anything but `stale` means the statement found the caller's organisation active.
      if (outcome !== 'stale') {
        const confirmed = await confirmWith(caller, async () => ({ request, outcome, text }));
        return { caller: confirmed.caller, staged: confirmed.found };
      }
    }
  }
  const access = await confirmSupplierAccess(ctx.db, caller, supplierCodeOfBody(stage));
  return { ...access, stage, companion };
}

/** Whether no account but the payload's own holds a value it claims (requireUnclaimed). */
async function nothingTaken(
  ctx: AppContext,
  supplier: ImportSupplier,
  { externalAccountNumber, claims }: CheckedAccount,
): Promise<boolean> {
  const claimant = { supplierId: supplier.id, externalAccountNumber };
  return (await claimedElsewhere(ctx.db.kysely, claims, claimant)).length === 0;
}

function supplierCodeOfBody(stage: AccountBody): string | undefined {
  if ('checked' in stage) return supplierCodeOf(stage.checked.supplierCode);
  if ('large' in stage) return supplierCodeOf(stage.reading.importSupplier);
  return 'body' in stage ? supplierCodeIn(stage.body, 'import_supplier') : undefined;
}

async function readAccountBody(
  known: KnownSuppliers,
  threads: ValidationThreads,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<AccountBody> {
  try {
    const json = requireJsonText(body);
    const { text } = json;
    // A large body was not looked at for U+0000 (LargeJsonText).
    const large = json instanceof LargeJsonText;
    if (!nulPaths && !(large && text.includes('\\u0000'))) {
      const checked = await threads.check(text, known);
      if (checked) return { checked, text };
    }
    if (large) {
      const reading = await threads.runLarge({ kind: 'read', text });
      if ('refusal' in reading) return { refusal: refusalOf(reading.refusal) };
      return { large: text, reading };
    }
    return { body: objectOf(text), nulPaths };
  } catch (refusal) {
    return { refusal };
  }
}

/**
 * Stores the normalised payload; every staged version is kept. Atomic: a failure changes
 * nothing, and nothing is stored unless the caller and the supplier are, when it is stored,
 * what the payload was validated for. A payload checked on a validation thread against the
 * remembered supplier was stored by the first step (confirmStage); otherwise, or should the
 * supplier or caller have changed, the long way (validation against the supplier as read)
 * answers.
 */
export function stageAccount(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  access: StageAccess,
  /** The refusal as the caller's interface words it (v2 places field errors under `payload`). */
  refusalAs: (error: unknown) => unknown = (error) => error,
): Promise<StageResult> {
  return stageConfirmed(ctx, known, threads, access).catch(async (refusal: unknown) => {
    const account = refusedAccount(access);
    const reason = account === undefined ? refusal : await accountClosed(ctx, account, refusal);
    // Recorded as answered: the timeline names the fields as the caller's request does.
    const error = refusalAs(reason);
    if (error instanceof ServiceError && error.status < 500 && account !== undefined) {
      await recordRefusedStage(ctx.db, account, error, access.caller.requestId);
    }
    throw error;
  });
}

/**
 * A stage refused for its data, of an account marked to be skipped or already imported, is
 * answered with the mark or the import: no data would be staged for it, and an operator marks
 * an account to be skipped most often because its data is bad (docs/decisions.md, "Order of
 * stage checks"). Any other refusal stands. Read only after a refusal for the data.
 */
async function accountClosed(
  ctx: AppContext,
  { supplierId, externalAccountNumber }: { supplierId: number; externalAccountNumber: string },
  refusal: unknown,
): Promise<unknown> {
  if (!(refusal instanceof ServiceError) || refusal.code !== 'account_failed_validation') {
    return refusal;
  }
  const blocker = await findStageBlocker(ctx.db.kysely, supplierId, externalAccountNumber);
  return closedBy(blocker, externalAccountNumber) ?? refusal;
}

/** The refusal of an account no stage may change: marked to be skipped, or already imported. */
function closedBy(blocker: StageBlocker, external: string): ServiceError | undefined {
  if (blocker.skipped) return skipped(external);
  if (blocker.process?.state === 'completed') return alreadyImported(blocker.process);
  return undefined;
}

/**
 * The account a refused stage is about, when the caller may see it: the supplier the stage was
 * checked against (granted to the caller) and the external account number its body names.
 * A body too large for the event loop is not read again for it.
 */
function refusedAccount(
  access: StageAccess,
): { supplierId: number; externalAccountNumber: string } | undefined {
  if ('staged' in access) {
    const { request } = access.staged;
    return {
      supplierId: request.supplier.id,
      externalAccountNumber: request.externalAccountNumber,
    };
  }
  const { supplier, stage } = access;
  if (supplier === undefined) return undefined;
  let number: string | undefined;
  if ('checked' in stage) number = stage.checked.externalAccountNumber;
  else if ('body' in stage) number = namedAccount(stage.body.external_account_number);
  return number === undefined
    ? undefined
    : { supplierId: supplier.id, externalAccountNumber: number };
}

async function stageConfirmed(
  ctx: AppContext,
  known: KnownSuppliers,
  threads: ValidationThreads,
  access: StageAccess,
): Promise<StageResult> {
  if ('staged' in access) {
    const { request, outcome, text } = access.staged;
    const staged = await settleStage(ctx, request, outcome);
    if (staged !== 'stale') return staged;
    const code = request.supplier.code;
    const fresh = await confirmSupplierAccess(ctx.db, access.caller, code);
    const again = { ...fresh, companion: request.companion };
    return stageTheLongWay(ctx, known, again, objectOf(text), undefined);
  }
  const { stage } = access;
  if ('refusal' in stage) throw stage.refusal;
  if ('body' in stage) return stageTheLongWay(ctx, known, access, stage.body, stage.nulPaths);
  if ('large' in stage) {
    // Refused on a thread when invalid; a valid payload is parsed here, as any body, and its
    // claims looked up there.
    const { nulPaths } = stage.reading;
    await validatedOffLoop(known, threads, access, stage.large, nulPaths);
    return stageTheLongWay(ctx, known, access, objectOf(stage.large), nulPaths);
  }
  // Invalid, or not checked against a supplier remembered for this caller.
  return stageTheLongWay(ctx, known, access, objectOf(stage.text), undefined);
}

/** A supplier's access, and the companion to write with the stage (StageAccess). */
type LongWayAccess = SupplierAccess & { readonly companion?: repo.CompanionWrite };

const objectOf = (text: string): Record<string, unknown> => requireObjectBody(parseJsonText(text));

/** Validation against the supplier found, then the stage; redone if they changed meanwhile. */
async function stageTheLongWay(
  ctx: AppContext,
  known: KnownSuppliers,
  access: LongWayAccess,
  body: Record<string, unknown>,
  nulPaths: readonly NulPath[] | undefined,
): Promise<StageResult> {
  for (let attempt = 1; ; attempt++) {
    const since = Date.now();
    const account = validated(ctx, known, access, body, nulPaths);
    const { supplier, payload } = account;
    await requireAccountUnclaimed(ctx, account);
    requireOngoing(supplier);
    const checked = { platformVersion: account.platformVersion, since };
    const { companion } = access;
    const request = stageRequest(access.caller, supplier, serialised(payload), checked, companion);
    const staged = await settleStage(ctx, request, await repo.stageProcess(ctx.db, request));
    if (staged !== 'stale') return staged;
    if (attempt === STAGE_ATTEMPTS) throw new Error('the supplier kept changing during staging');
    const fresh = await confirmSupplierAccess(ctx.db, access.caller, supplier.code);
    access = { ...fresh, companion };
  }
}

/** A refused stage is re-checked; this bounds the retries when its reason keeps vanishing. */
const BLOCKED_ATTEMPTS = 3;

/** What a stage stores: the normalised payload as JSON, and its external account number. */
type StageData = Pick<CheckedAccount, 'externalAccountNumber' | 'data'>;

const serialised = (payload: EnergyAccount): StageData => ({
  externalAccountNumber: payload.external_account_number,
  data: JSON.stringify(payload),
});

/** When and against which platform data a payload was validated: it began no earlier than `since`. */
interface CheckedSince {
  platformVersion: string;
  since: number;
}

/**
 * The stage statement's request: a payload validated for the supplier as given, for the caller
 * as its token states it, with the stamp of that validation (none when a UTC midnight fell
 * during it: the day it judged dates against is then not known).
 */
function stageRequest(
  caller: Caller,
  supplier: ImportSupplier,
  { externalAccountNumber, data }: StageData,
  { platformVersion, since }: CheckedSince,
  companion: repo.CompanionWrite | undefined,
): repo.StageRequest {
  const { organisationId, keyVersion, requestId } = caller;
  const now = Date.now();
  const day = dayBetween(since, now);
  const checkedWith =
    day === undefined
      ? null
      : validationStamp({ platformVersion, rule: supplierRule(supplier), day });
  return {
    supplier,
    externalAccountNumber,
    data,
    checkedWith,
    organisationId,
    keyVersion,
    now,
    requestId,
    companion,
  };
}

/**
 * The answer to a stage statement's `outcome`; 'stale' when the caller or supplier changed
 * (nothing stored). A refused stage's reason is read, and the stage sent again should the
 * reason have gone away.
 */
async function settleStage(
  ctx: AppContext,
  request: repo.StageRequest,
  outcome: repo.StageOutcome,
): Promise<StageResult | 'stale'> {
  const { supplier, externalAccountNumber: external } = request;
  for (let attempt = 1; ; attempt++) {
    if (outcome === 'stale') return outcome;
    if (outcome) {
      const result: StageResult = {
        created: outcome.version === 1,
        import_supplier: supplier.code,
        import_supplier_code: supplier.code,
        external_account_number: external,
      };
      if (outcome.companionWrote !== undefined) result.companionWrote = outcome.companionWrote;
      return result;
    }
    // Refusals are rare, so their reason is read only now, in the order a stage checks them.
    const blocker = await findStageBlocker(ctx.db.kysely, supplier.id, external);
    const closed = closedBy(blocker, external);
    if (closed) throw closed;
    // A live claim refuses a stage (the upsert itself releases one whose lease ran out).
    if (blocker.process?.state === 'in_progress') throw inProgress(external);
    // A v2 worker creating it refuses a stage alike (the stage statement's guard).
    if (blocker.scheduleInProgress) throw inProgress(external);
    // The reason went away in between (a claim was given back, a skip mark removed): try again.
    if (attempt === BLOCKED_ATTEMPTS) {
      throw new Error('import process changed state during staging');
    }
    outcome = await repo.stageProcess(ctx.db, request);
  }
}
