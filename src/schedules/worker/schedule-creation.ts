/**
 * One claimed schedule carried out: the account created from its staged data through the same
 * core as a process request (claim the process, re-validate, write the account with its
 * completion), or rehearsed for a dry run, and the schedule ended with its outcome.
 *
 * A creation's PROCESSED and its COMPLETED event commit in the account's own transaction, and
 * only while this worker's claim still holds the schedule: a worker killed at any point leaves
 * either the account and PROCESSED, or neither, and a worker overtaken after its lease ran out
 * writes nothing.
 */
import type { AppContext } from '../../context.js';
import type { ImportSupplier } from '../../db/database.js';
import { atomicWrite } from '../../db/storage.js';
import { ServiceError } from '../../errors.js';
import { createAccount } from '../../imports/creation/account-creation.js';
import {
  claimStagedProcess,
  holdsLiveClaim,
  readStagedData,
  releaseClaim,
} from '../../imports/creation/creation.repository.js';
import { rehearseStaged, revalidate } from '../../imports/creation/rehearsal.js';
import { alreadyImported, notOngoing, skipped } from '../../imports/imports.errors.js';
import { INTERNAL_ERROR, scheduleErrorOf, type ScheduleError } from './schedule-errors.js';
import { endSchedule, type ClaimedSchedule, type Outcome } from './schedule-queue.repository.js';
import { readScheduleTarget, type ScheduleTarget } from './schedule-target.repository.js';

/**
 * What became of a claimed schedule: ended (with any outcome, or taken over by another worker
 * meanwhile), or deferred: to be given back to the queue and tried again later (the concurrency
 * limit was reached, or a process request holds the account).
 */
export type Run = 'ended' | 'deferred';

/** Claims of one schedule after which a failure of ours ends it ERRORED `internal_error`. */
export const MAX_ATTEMPTS = 5;

/**
 * Carries out the claimed schedule; throws only when the database fails. `supplier`, when the
 * caller read it already (a pool reads each round's suppliers once), spares a creation the
 * reading of its target: the process's claim checks the rest, and a refused claim reads why.
 */
export async function runSchedule(
  ctx: AppContext,
  schedule: ClaimedSchedule,
  supplier?: ImportSupplier,
): Promise<Run> {
  if (supplier && !schedule.isDryRun && schedule.teamId !== null) {
    return create(ctx, schedule, { supplier, teamId: schedule.teamId });
  }
  const target = await readScheduleTarget(ctx.db.kysely, schedule.processId);
  const refusal = target === undefined ? nothingStaged(schedule) : refusalOf(schedule, target);
  if (refusal) return end(ctx, schedule, failed(schedule, refusal));
  if (!target || schedule.teamId === null) throw new Error('unreachable: refusalOf checked both');
  const staged = { supplier: target.supplier, teamId: schedule.teamId };
  if (schedule.isDryRun) {
    // A process request is creating the account right now: rehearse once it is done.
    if (holdsLiveClaim(target.process, Date.now())) return 'deferred';
    const payload = await readStagedData(ctx.db.kysely, schedule.processId);
    const { processId } = schedule;
    const rehearsed = await rehearseStaged(ctx, { ...staged, processId, staged: payload });
    const outcome: Outcome =
      rehearsed.code === 'dry_run_rolled_back'
        ? { status: 'DRY_RUN_SUCCEEDED' }
        : { status: 'DRY_RUN_ERRORED', error: scheduleErrorOf(rehearsed) };
    return end(ctx, schedule, outcome);
  }
  return create(ctx, schedule, staged);
}

/** Why the account may not be created now, checked before the claim (which checks again). */
function refusalOf(schedule: ClaimedSchedule, target: ScheduleTarget): ServiceError | undefined {
  const { supplier, process } = target;
  if (process.state === 'completed') {
    return alreadyImported(process);
  }
  if (schedule.teamId === null) {
    return new ServiceError({
      code: 'operations_team_name_does_not_exist',
      detail: 'The schedule names no operations team.',
    });
  }
  return (
    notOngoing(supplier) ?? (target.skipped ? skipped(process.external_account_number) : undefined)
  );
}

const nothingStaged = (schedule: ClaimedSchedule) =>
  new ServiceError({
    code: 'import_process_does_not_exist',
    detail: `Nothing is staged for account ${schedule.externalAccountNumber}.`,
  });

/** The failed outcome of a refusal: DRY_RUN_ERRORED for a dry run, ERRORED otherwise. */
function failed(schedule: ClaimedSchedule, refusal: ServiceError | ScheduleError): Outcome {
  const error = refusal instanceof ServiceError ? scheduleErrorOf(refusal) : refusal;
  return { status: schedule.isDryRun ? 'DRY_RUN_ERRORED' : 'ERRORED', error };
}

async function end(ctx: AppContext, schedule: ClaimedSchedule, outcome: Outcome): Promise<Run> {
  const now = Date.now();
  await atomicWrite(ctx.db, (executor) => endSchedule(executor, schedule, outcome, now));
  return 'ended';
}

async function create(
  ctx: AppContext,
  schedule: ClaimedSchedule,
  staged: { supplier: ScheduleTarget['supplier']; teamId: number },
): Promise<Run> {
  const { processId, claimId } = schedule;
  // The process is held under the schedule's claim and lease: when the lease runs out, both
  // may be taken over together.
  const claimed = await claimStagedProcess(ctx.db, {
    processId,
    claimId,
    now: Date.now(),
    leaseUntil: schedule.leaseUntil,
    limit: ctx.config.processConcurrencyLimit,
  });
  if (!claimed) return afterRefusedClaim(ctx, schedule);
  const checked = revalidate(ctx, staged.supplier, claimed);
  if ('error' in checked) return fail(ctx, schedule, scheduleErrorOf(checked.error));
  try {
    await createAccount(ctx, {
      ...staged,
      processId,
      payload: checked.payload,
      dryRun: false,
      claimId,
      trace: { requestId: null, via: 'v2' },
      along: (executor, account) =>
        endSchedule(
          executor,
          schedule,
          { status: 'PROCESSED', serviceAccountNumber: account.number },
          account.createdAt,
        ),
    });
    return 'ended';
  } catch (error) {
    if (!(error instanceof ServiceError)) {
      // The database may be back next round: the schedule is given back (the pool releases
      // it) with its process, until a failure that keeps recurring ends it.
      await (
        schedule.attempts >= MAX_ATTEMPTS
          ? fail(ctx, schedule, INTERNAL_ERROR)
          : releaseClaim(ctx.db.kysely, processId, claimId, {
              code: INTERNAL_ERROR.code,
              detail: INTERNAL_ERROR.detail,
              at: Date.now(),
            })
      ).catch(() => undefined);
      throw error;
    }
    // The process's or the schedule's claim was lost (another worker took over, or a request
    // created the account first): the next claim sees what happened.
    if (error.code === 'account_import_in_progress') {
      await releaseClaim(ctx.db.kysely, processId, claimId, {
        code: error.code,
        detail: error.message,
        at: Date.now(),
      });
      return 'deferred';
    }
    return fail(ctx, schedule, scheduleErrorOf(error));
  }
}

/**
 * The claim of the process was refused: the account was imported or refused meanwhile (ERRORED),
 * or is held by a live claim or the concurrency limit is reached (deferred).
 */
async function afterRefusedClaim(ctx: AppContext, schedule: ClaimedSchedule): Promise<Run> {
  const target = await readScheduleTarget(ctx.db.kysely, schedule.processId);
  const refusal = target === undefined ? nothingStaged(schedule) : refusalOf(schedule, target);
  if (refusal) return end(ctx, schedule, failed(schedule, refusal));
  return 'deferred';
}

/** Ends the schedule ERRORED and gives the process back, in one atomic write. */
async function fail(
  ctx: AppContext,
  schedule: ClaimedSchedule,
  error: ScheduleError,
): Promise<Run> {
  const now = Date.now();
  await atomicWrite(ctx.db, async (executor) => {
    await releaseClaim(executor, schedule.processId, schedule.claimId, {
      code: error.code,
      detail: error.detail,
      at: now,
    });
    await endSchedule(executor, schedule, { status: 'ERRORED', error }, now);
  });
  return 'ended';
}
