/**
 * The v2 status of one account and the cancelling of its schedule (docs/interface.md, v2):
 * the status is its schedule's, the latest event the account event log's.
 */
import { confirmWith, type Caller } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportSupplier, ScheduleStatus } from '../db/database.js';
import { isoTime } from '../datetime.js';
import { ServiceError } from '../errors.js';
import { latestEventOf, recordEvents } from '../events/events.repository.js';
import { findCallerProcess } from '../imports/creation/process-lookup.repository.js';
import { inProgress, supplierNotFound } from '../imports/imports.errors.js';
import { cancelPending, findSchedule, type ScheduleRow } from './schedules.repository.js';
import type { ErrorDomain } from './worker/schedule-errors.js';

/** The published `ImportStatusResponse`. */
export interface ImportStatus {
  status: ScheduleStatus;
  service_identifier: string | null;
  created_at: string;
  modified_at: string;
  latest_event: { event: string; occurred_at: string; data: Record<string, unknown> | null };
  latest_error: { code: string | null; detail: string | null; domain: string | null } | null;
}

/** An account of the caller's, found with its schedule. */
interface ScheduledTarget {
  supplier: ImportSupplier;
  schedule: ScheduleRow & { skipped: boolean };
  /** The created account's number, whoever created it (a worker, or a v1 process). */
  serviceAccountNumber: string | null;
}

/**
 * The caller confirmed in the statement that finds the supplier and the account's process,
 * then the schedule: 404 when the supplier is not the caller's, nothing was staged, or the
 * account was never scheduled.
 */
async function findScheduled(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  external: string,
): Promise<ScheduledTarget> {
  const { found } = await confirmWith(caller, (unconfirmed) =>
    findCallerProcess(ctx.db.kysely, unconfirmed, supplierCode, external),
  );
  const { supplier, process } = found;
  if (!supplier) throw supplierNotFound(supplierCode);
  if (!process) {
    throw new ServiceError({
      code: 'import_process_does_not_exist',
      endpoint: 'schedule',
      detail: `Nothing was staged for account ${external} of ${supplier.code}.`,
    });
  }
  const schedule = await findSchedule(ctx.db.kysely, Number(process.id));
  if (!schedule) {
    throw new ServiceError({
      code: 'import_schedule_does_not_exist',
      detail: `Account ${external} of ${supplier.code} was staged but never scheduled.`,
    });
  }
  const serviceAccountNumber = schedule.service_account_number ?? process.service_account_number;
  return { supplier, schedule, serviceAccountNumber };
}

/** The status of an account's schedule. */
async function statusOf(
  ctx: AppContext,
  { schedule, serviceAccountNumber }: ScheduledTarget,
): Promise<ImportStatus> {
  const event = await latestEventOf(
    ctx.db.kysely,
    Number(schedule.supplier_id),
    schedule.external_account_number,
  );
  return {
    status: schedule.status,
    service_identifier: serviceAccountNumber,
    created_at: isoTime(Number(schedule.created_at)),
    modified_at: isoTime(Number(schedule.modified_at)),
    // Every schedule writes its event with it; should the log have lost it, the schedule's.
    latest_event: event
      ? { event: event.event, occurred_at: isoTime(event.occurredAt), data: event.data }
      : {
          event: 'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED',
          occurred_at: isoTime(Number(schedule.modified_at)),
          data: null,
        },
    latest_error: latestError(schedule),
  };
}

/**
 * The schedule's error; for a PENDING schedule of an account marked to be skipped, the skip
 * mark, which keeps any worker from creating it.
 */
function latestError(schedule: ScheduleRow & { skipped: boolean }): ImportStatus['latest_error'] {
  if (schedule.status === 'PENDING' && schedule.skipped) {
    return {
      code: 'account_import_process_skipped',
      detail: `Account ${schedule.external_account_number} is marked to be skipped: it will not be created while the mark stays.`,
      domain: 'SCHEDULING' satisfies ErrorDomain,
    };
  }
  if (schedule.error_code === null) return null;
  return {
    code: schedule.error_code,
    detail: schedule.error_detail,
    domain: schedule.error_domain,
  };
}

/** GET: the v2 status of one account. */
export async function getImportStatus(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  external: string,
): Promise<ImportStatus> {
  return statusOf(ctx, await findScheduled(ctx, caller, supplierCode, external));
}

/**
 * Cancels a PENDING schedule, with its CANCELLED event, atomically; its status after. A schedule
 * a worker holds is 409; one already over is 400. The account stays staged.
 */
export async function cancelSchedule(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  external: string,
  requestId: string,
): Promise<ImportStatus> {
  const target = await findScheduled(ctx, caller, supplierCode, external);
  const { schedule } = target;
  const now = Date.now();
  const cancelled = await ctx.db.storage.atomicWrite(ctx.db.kysely, async (trx) => {
    const by = { ...caller, supplierCode: target.supplier.code };
    if (!(await cancelPending(trx, Number(schedule.process_id), now, by))) return false;
    await recordEvents(trx, [
      {
        supplierId: Number(schedule.supplier_id),
        externalAccountNumber: schedule.external_account_number,
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED',
        occurredAt: now,
        requestId,
      },
    ]);
    return true;
  });
  const current = await findScheduled(ctx, caller, supplierCode, external);
  if (cancelled) return statusOf(ctx, current);
  if (current.schedule.status === 'IN_PROGRESS') throw inProgress(external);
  throw new ServiceError({
    code: 'import_schedule_not_cancellable',
    detail: `The schedule of account ${external} is ${current.schedule.status}; only a PENDING one can be cancelled.`,
  });
}
