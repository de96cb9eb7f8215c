/** Creating an account from its staged data: claim, re-validate, create in one atomic write. */
import { randomUUID } from 'node:crypto';
import {
  confirmWith,
  refuseConfirmed,
  revokedToken,
  type Caller,
  type ConfirmedCaller,
} from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import type { ImportProcess, ImportSupplier } from '../../db/database.js';
import { ServiceError, validationFailed } from '../../errors.js';
import { requireObjectBody, validOrRefused, type NulPath } from '../../http/json-body.js';
import { validateProcessRequest, type ProcessRequest } from '../../payload/process-request.js';
import { allocatedTeam } from '../../platform/platform-data.js';
import { createAccount } from './account-creation.js';
import type { CreationSlot, CreationSlots } from './creation-slots.js';
import {
  alreadyImported,
  inProgress,
  notOngoing,
  scheduledForCreation,
  skipped,
  tooManyInProgress,
} from '../imports.errors.js';
import type { EventName } from '../../events/event-names.js';
import { recordRefusal, refusalCodes } from '../../events/refusals.js';
import * as repo from './creation.repository.js';
import { rehearse, revalidate, type Target } from './rehearsal.js';
import { findProcessTarget, findTeamId, type ProcessTarget } from './process-lookup.repository.js';

/**
 * A process request's caller, confirmed in the one statement that reads everything the request
 * works on (findProcessTarget), with the request, what that statement found, and the creation
 * slot the request holds (none for a dry run).
 */
export interface ProcessAccess {
  readonly caller: ConfirmedCaller;
  readonly request: ProcessRequest;
  readonly found: ProcessTarget;
  readonly slot: CreationSlot | undefined;
}

/**
 * The first step of a process request: its body is validated, a creation beyond the
 * concurrency limit is refused with 429 before it does any work, and the caller is confirmed in
 * the statement that reads the request's target. A refusal found before that statement is
 * thrown once the caller is confirmed on its own. `nulPaths`: where the body holds U+0000
 * (reported with the request's errors).
 */
export async function confirmProcess(
  ctx: AppContext,
  slots: CreationSlots,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<ProcessAccess> {
  let request: ProcessRequest;
  try {
    request = validOrRefused(validateProcessRequest(requireObjectBody(body)), nulPaths, 'request');
  } catch (refusal) {
    return refuseConfirmed(ctx.db, caller, refusal);
  }
  const slot = request.dry_run ? undefined : await slots.enter();
  if (!request.dry_run && !slot) {
    return refuseConfirmed(ctx.db, caller, tooManyInProgress(slots.limit));
  }
  try {
    const confirmed = await confirmWith(caller, (unconfirmed) =>
      findTarget(ctx, unconfirmed, request),
    );
    return { caller: confirmed.caller, request, found: confirmed.found, slot };
  } catch (error) {
    slot?.release();
    throw error;
  }
}

/** A process's answer: the new account's number and the external number it was created from. */
export interface CreatedAccount {
  service_account_number: string;
  external_account_number: string;
}

/**
 * Creates the account from its staged data, or rehearses it with dry_run and rolls back; gives
 * back the creation slot either way.
 */
export async function processAccount(
  ctx: AppContext,
  access: ProcessAccess,
): Promise<CreatedAccount> {
  try {
    return await processRequest(ctx, access);
  } catch (error) {
    if (error instanceof ServiceError && error.status < 500)
      await recordAttempt(ctx, access, error);
    throw error;
  } finally {
    access.slot?.release();
  }
}

/**
 * Records a process request that created nothing: a dry run's outcome (DRY_RUN_SUCCEEDED or
 * DRY_RUN_ERRORED) or a refusal (ERRORED), with its codes, when the caller may use the supplier.
 */
async function recordAttempt(
  ctx: AppContext,
  { caller, request, found }: ProcessAccess,
  error: ServiceError,
): Promise<void> {
  if (!found.supplier) return;
  const failure = { ...refusalCodes(error), detail: error.message, via: 'v1' };
  let event: EventName = 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED';
  if (request.dry_run) {
    event = error.code === 'dry_run_rolled_back' ? DRY_RUN_SUCCEEDED : DRY_RUN_ERRORED;
  }
  await recordRefusal(ctx.db, {
    supplierId: found.supplier.id,
    externalAccountNumber: request.external_account_number,
    event,
    occurredAt: Date.now(),
    data: event === DRY_RUN_SUCCEEDED ? { via: 'v1' } : failure,
    requestId: caller.requestId,
  });
}

const DRY_RUN_SUCCEEDED: EventName = 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_SUCCEEDED';
const DRY_RUN_ERRORED: EventName = 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED';

async function processRequest(
  ctx: AppContext,
  { caller, request, found }: ProcessAccess,
): Promise<CreatedAccount> {
  const checked = checkTarget(found, request);
  // Every refusal before the claim goes through one `await`: a second one in this function,
  // though never reached by a creation, cost SQLite's process benchmark 2-3 % of its accounts
  // per second.
  if ('refusal' in checked) throw await refuse(ctx, request.dry_run, checked);
  const target = { ctx, caller, request, ...checked };
  return request.dry_run ? rehearse(target) : create(target);
}

/**
 * What the request works on. A request naming no team takes the team its supplier allocates
 * accounts to, if any (one more lookup, on that path only: the usual request, naming its
 * team, keeps its one statement).
 */
function findTarget(ctx: AppContext, caller: Caller, request: ProcessRequest) {
  const { import_supplier_code: code, external_account_number, operations_team_name } = request;
  const found = findProcessTarget(
    ctx.db.kysely,
    caller,
    code,
    operations_team_name ?? '',
    external_account_number,
  );
  return operations_team_name === undefined ? withAllocatedTeam(ctx, found) : found;
}

async function withAllocatedTeam(
  ctx: AppContext,
  pending: Promise<ProcessTarget | undefined>,
): Promise<ProcessTarget | undefined> {
  const found = await pending;
  const team = found?.supplier && allocatedTeam(found.supplier);
  if (!found || typeof team !== 'string') return found;
  return { ...found, teamId: await findTeamId(ctx.db.kysely, team) };
}

/**
 * A team named where the supplier allocates one itself, or none named where it does not
 * (the published pair of rules on the process request), as a refusal of the request.
 */
function allocationRefusal(supplier: ImportSupplier, request: ProcessRequest) {
  const team = allocatedTeam(supplier);
  const named = request.operations_team_name !== undefined;
  if (named === (team === null)) return undefined;
  const [code, detail] = named
    ? [
        'operations_team_provided_when_using_auto_allocation',
        `The accounts of ${supplier.code} go to the team ${team}: name no operations team.`,
      ]
    : [
        'operations_team_should_be_provided',
        `${supplier.code} allocates its accounts to no team: name an operations team.`,
      ];
  return validationFailed([{ detail, code, attr: 'operations_team_name' }], 'request');
}

/** Why a request may not go ahead, and whether the staged process records it (refuse). */
interface Refusal {
  refusal: ServiceError;
  /** The process to record the refusal on: the latest attempt, which the status shows. */
  recordOn?: ImportProcess;
}

/**
 * What the request may work on, or why not: the organisation is active, the supplier is
 * granted to it and Ongoing, the team exists, the account bears no skip mark, and it was staged
 * and has no account yet. Checked before the claim, and again when a claim is refused: the
 * claim checks all but the team itself (no operator command removes a team), since an operator
 * may have acted in between.
 */
function checkTarget(
  found: ProcessTarget | undefined,
  request: ProcessRequest,
): Refusal | { supplier: ImportSupplier; teamId: number; process: ImportProcess } {
  const { import_supplier_code: code, external_account_number: external } = request;
  if (!found) return { refusal: revokedToken() };
  const { supplier, teamId, process } = found;
  const teamName = request.operations_team_name ?? (supplier && allocatedTeam(supplier)) ?? '';
  if (!supplier) {
    return {
      refusal: validationFailed(
        [
          {
            detail: `No import supplier ${code} is available to you.`,
            code: 'import_supplier_not_found',
            attr: 'import_supplier_code',
          },
        ],
        'request',
      ),
    };
  }
  const refusal =
    allocationRefusal(supplier, request) ??
    (teamId === undefined
      ? unknownTeam(teamName)
      : (notOngoing(supplier) ?? (found.skipped ? skipped(external) : undefined)));
  if (refusal !== undefined || teamId === undefined) {
    // (`refusal ?? …` only tells the compiler what the condition already implies.)
    return { refusal: refusal ?? unknownTeam(teamName), recordOn: process };
  }
  if (!process) {
    return {
      refusal: new ServiceError({
        code: 'import_process_does_not_exist',
        detail: `Nothing was staged for account ${external} of ${code}.`,
      }),
    };
  }
  if (process.state === 'completed') return { refusal: alreadyImported(process) };
  // One owner of the creation at a time: a v2 schedule in its course (docs/interface.md).
  if (found.scheduled) return { refusal: scheduledForCreation(external) };
  return { supplier, teamId, process };
}

/**
 * Returns the refusal, recorded first as the staged process's last failure when it names one.
 * A dry run leaves no trace.
 */
async function refuse(
  ctx: AppContext,
  dryRun: boolean,
  { refusal, recordOn }: Refusal,
): Promise<ServiceError> {
  if (recordOn && !dryRun) {
    const failure = { code: refusal.code, detail: refusal.message, at: Date.now() };
    await repo.recordRefusal(ctx.db.kysely, recordOn.id, failure);
  }
  return refusal;
}

function unknownTeam(name: string): ServiceError {
  const detail = `No operations team is named "${name}".`;
  return new ServiceError({
    code: 'operations_team_name_does_not_exist',
    detail,
    errors: [{ detail, code: 'operations_team_name_does_not_exist', attr: 'operations_team_name' }],
  });
}

async function create(target: Target): Promise<CreatedAccount> {
  const { ctx, supplier, teamId, process } = target;
  const claimId = randomUUID();
  const now = Date.now();
  // The first claim is awaited here, not in a function of its own: one more async step before
  // the creation halved SQLite's accounts per second in the benchmark, for a reason not found.
  let claimed: repo.StagedPayload;
  try {
    claimed = (await claimFor(target, claimId, now)) ?? (await claimAgain(target, claimId, now));
  } catch (error) {
    // On PostgreSQL a claim may have committed though its answer was lost (a connection
    // broken meanwhile): give it back, or it holds the account and a concurrency slot until
    // its lease runs out. A refusal (ServiceError) holds no claim.
    if (!(error instanceof ServiceError)) await giveBack(ctx, process.id, claimId);
    throw error;
  }

  const fail = async (error: ServiceError) => {
    await repo.releaseClaim(ctx.db.kysely, process.id, claimId, {
      code: error.code,
      detail: error.message,
      at: Date.now(),
    });
    return error;
  };
  const checked = revalidate(ctx, supplier, claimed);
  if ('error' in checked) throw await fail(checked.error);
  try {
    const number = await createAccount(ctx, {
      supplier,
      teamId,
      processId: process.id,
      payload: checked.payload,
      dryRun: false,
      claimId,
      trace: { requestId: target.caller.requestId ?? null, via: 'v1' },
    });
    return {
      service_account_number: number,
      external_account_number: process.external_account_number,
    };
  } catch (error) {
    if (error instanceof ServiceError) throw await fail(error);
    await giveBack(ctx, process.id, claimId);
    throw error;
  }
}

/**
 * Gives back a claim that may be held, after an unexpected failure. The database may be gone:
 * if it cannot be given back, its lease recovers it. A claim never taken matches nothing.
 */
async function giveBack(ctx: AppContext, processId: number, claimId: string): Promise<void> {
  await repo
    .releaseClaim(ctx.db.kysely, processId, claimId, {
      code: 'internal_error',
      detail: 'The account could not be created.',
      at: Date.now(),
    })
    .catch(() => undefined);
}

/** The process claimed for `claimId` at `now`, with its staged data; undefined if refused. */
function claimFor({ ctx, caller, process }: Target, claimId: string, now: number) {
  return repo.claimProcess(ctx.db, {
    caller,
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
 * an operator acted since the request's checks (checkTarget), when the process is completed or
 * held by a live claim, when the concurrency limit is reached, or when another request held it
 * and gave it back between the claim and the reading of why. Without a limit that last case is
 * tried again, so that it never answers 429.
 */
async function claimAgain(
  target: Target,
  claimId: string,
  refusedAt: number,
): Promise<repo.StagedPayload> {
  const { ctx, caller, request } = target;
  const limit = ctx.config.processConcurrencyLimit;
  for (let attempt = 2, now = refusedAt; ; attempt++) {
    const checked = checkTarget(await findTarget(ctx, caller, request), request);
    if ('refusal' in checked) throw await refuse(ctx, request.dry_run, checked);
    if (repo.holdsLiveClaim(checked.process, now)) {
      throw inProgress(request.external_account_number);
    }
    if (limit > 0) throw tooManyInProgress(limit);
    if (attempt > CLAIM_ATTEMPTS) throw inProgress(request.external_account_number);
    now = Date.now();
    const claimed = await claimFor(target, claimId, now);
    if (claimed) return claimed;
  }
}
