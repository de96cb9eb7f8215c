/**
 * The statements of the schedule queue (docs/interface.md, "Scheduled creation: the queue"):
 * claim a fair batch of due schedules, close the windows that ended unstarted, and end or give
 * back a schedule only while the claim that took it still holds it.
 */
import { sql, type RawBuilder } from 'kysely';
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { Db, Executor, ScheduleStatus } from '../../db/database.js';
import { recordEvents, type NewAccountEvent } from '../../events/events.repository.js';
import type { EventName } from '../../events/event-names.js';
import { WINDOW_CLOSED, type ScheduleError } from './schedule-errors.js';

/** A schedule a worker holds: what its creation needs. */
export interface ClaimedSchedule {
  processId: number;
  supplierId: number;
  externalAccountNumber: string;
  isDryRun: boolean;
  teamId: number | null;
  claimId: string;
  leaseUntil: number;
  attempts: number;
}

export interface ClaimRound {
  claimId: string;
  now: number;
  leaseUntil: number;
  /** At most this many schedules in all. */
  batch: number;
}

/**
 * The events appended as workers start and end schedules say where they came from, as the
 * COMPLETED event of their creation does (schedule-creation.ts).
 */
const VIA = 'v2';

interface ClaimedRow {
  process_id: number | string;
  supplier_id: number | string;
  external_account_number: string;
  is_dry_run: number;
  team_id: number | string | null;
  attempts: number;
}

const RETURNED = sql`process_id, supplier_id, external_account_number, is_dry_run, team_id, attempts`;

const claimedSet = ({ claimId, now, leaseUntil }: ClaimRound) =>
  sql`status = 'IN_PROGRESS', claim_id = ${claimId}, lease_until = ${leaseUntil},
      attempts = attempts + 1, modified_at = ${now}`;

/**
 * Schedules whose holder's lease ran out while their window is still open: taken over first,
 * since they waited longest. (Rare: one per worker killed mid-creation.)
 */
function takeOverStatement(round: ClaimRound, lock: RawBuilder<unknown>) {
  const { now, batch } = round;
  return sql<ClaimedRow>`update creation_schedules set ${claimedSet(round)}
    where process_id in (
      select process_id from creation_schedules
      where status = 'IN_PROGRESS' and lease_until < ${now} and window_end > ${now}
      order by window_start, process_id limit ${batch} ${lock}
    )
    returning ${RETURNED}`;
}

/**
 * The fair claim: every supplier's due schedules, oldest window first, are ranked 1, 2, 3…
 * and the batch takes all rank 1s before any rank 2, so a supplier with thousands of due
 * schedules takes one turn per round like a supplier with one. A supplier contributes at most
 * `batch` candidates, read in the order of the index (status, supplier_id, window_start): on
 * SQLite the index ends with the row id (the process id), which breaks ties; on PostgreSQL a
 * tie-break by id would sort every due row of the supplier, so equal windows go in any order.
 *
 * SQLite has one writer, so the statement needs no lock; the candidates come from a correlated
 * subquery per supplier. PostgreSQL reads them in a lateral subquery with FOR UPDATE SKIP
 * LOCKED, so that concurrent claims (other workers, other instances) take disjoint rows
 * without waiting for each other.
 */
function fairClaimStatement(db: Db, round: ClaimRound) {
  const { now, batch } = round;
  const due = sql`status = 'PENDING' and window_start <= ${now} and window_end > ${now}`;
  const ranked = db.storage.pick({
    sqlite: sql`select c.process_id, c.window_start,
          row_number() over (partition by c.supplier_id order by c.window_start, c.process_id) as rn
        from import_suppliers s
        join creation_schedules c on c.process_id in (
          select d.process_id from creation_schedules d
          where d.supplier_id = s.id and ${due}
          order by d.window_start, d.process_id limit ${batch}
        )`,
    postgres: sql`select c.process_id, c.window_start, c.rn
        from import_suppliers s
        cross join lateral (
          select d.process_id, d.window_start, row_number() over (order by d.window_start) as rn
          from (
            select process_id, window_start from creation_schedules
            where supplier_id = s.id and ${due}
            order by window_start limit ${batch}
            for update skip locked
          ) d
        ) c`,
  });
  return sql<ClaimedRow>`update creation_schedules set ${claimedSet(round)}
    where process_id in (
      select process_id from (${ranked}) r order by rn, window_start limit ${batch}
    )
    returning ${RETURNED}`;
}

/**
 * Claims up to `round.batch` due schedules for `round.claimId` in one atomic write, and appends
 * their STARTED events with it. Due: PENDING with its window open (`window_start <= now <
 * window_end`), or IN_PROGRESS under a lease that ran out, window still open.
 */
export async function claimDue(db: Db, round: ClaimRound): Promise<ClaimedSchedule[]> {
  const lock = db.storage.pick({ sqlite: sql``, postgres: sql`for update skip locked` });
  return db.storage.atomicWrite(db.kysely, async (executor) => {
    const taken = (await takeOverStatement(round, lock).execute(executor)).rows;
    const left = round.batch - taken.length;
    const fresh =
      left > 0
        ? (await fairClaimStatement(db, { ...round, batch: left }).execute(executor)).rows
        : [];
    const claimed = [...taken, ...fresh].map((row) => claimedOf(row, round));
    await recordEvents(
      executor,
      claimed.map((schedule) =>
        eventOf(schedule, 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED', round.now, {
          attempt: schedule.attempts,
        }),
      ),
    );
    return claimed;
  });
}

function claimedOf(row: ClaimedRow, { claimId, leaseUntil }: ClaimRound): ClaimedSchedule {
  return {
    processId: Number(row.process_id),
    supplierId: Number(row.supplier_id),
    externalAccountNumber: row.external_account_number,
    isDryRun: Number(row.is_dry_run) === 1,
    teamId: row.team_id === null ? null : Number(row.team_id),
    claimId,
    leaseUntil,
    attempts: Number(row.attempts),
  };
}

function eventOf(
  schedule: Pick<ClaimedSchedule, 'supplierId' | 'externalAccountNumber'>,
  event: EventName,
  at: number,
  data: Record<string, unknown> = {},
): NewAccountEvent {
  return {
    supplierId: schedule.supplierId,
    externalAccountNumber: schedule.externalAccountNumber,
    event,
    occurredAt: at,
    data: { ...data, via: VIA },
  };
}

/** At most this many closed windows are marked per sweep, to keep its transaction short. */
const SWEEP_LIMIT = 1000;

/**
 * Marks ERRORED (schedule_window_closed) the schedules whose window ended before a worker
 * started them: PENDING ones, and IN_PROGRESS ones whose holder's lease ran out (their account
 * was never written, since it commits with PROCESSED). Appends their ERRORED events. Returns
 * how many it closed.
 */
export async function closeEndedWindows(db: Db, now: number): Promise<number> {
  const lock = db.storage.pick({ sqlite: sql``, postgres: sql`for update skip locked` });
  const { code, detail, domain, codes } = WINDOW_CLOSED;
  return db.storage.atomicWrite(db.kysely, async (executor) => {
    const { rows } = await sql<{
      supplier_id: number | string;
      external_account_number: string;
    }>`update creation_schedules set status = 'ERRORED', claim_id = null, lease_until = null,
        error_code = ${code}, error_detail = ${detail}, error_domain = ${domain},
        modified_at = ${now}
      where process_id in (
        select process_id from creation_schedules
        where (status = 'PENDING' or (status = 'IN_PROGRESS' and lease_until < ${now}))
          and window_end <= ${now}
        limit ${SWEEP_LIMIT} ${lock}
      )
      returning supplier_id, external_account_number`.execute(executor);
    await recordEvents(
      executor,
      rows.map((row) =>
        eventOf(
          {
            supplierId: Number(row.supplier_id),
            externalAccountNumber: row.external_account_number,
          },
          'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
          now,
          { ...codes, detail },
        ),
      ),
    );
    return rows.length;
  });
}

/** How a schedule ended. */
export type Outcome =
  | { status: 'PROCESSED'; serviceAccountNumber: string }
  | { status: 'DRY_RUN_SUCCEEDED' }
  | { status: 'ERRORED' | 'DRY_RUN_ERRORED'; error: ScheduleError };

const EVENT_OF: Record<Exclude<Outcome['status'], 'PROCESSED'>, EventName> = {
  DRY_RUN_SUCCEEDED: 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_SUCCEEDED',
  ERRORED: 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
  DRY_RUN_ERRORED: 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED',
};

/**
 * Ends a schedule with its outcome and appends the outcome's event (PROCESSED's, COMPLETED, is
 * the account's own write's), on `executor` (the account's transaction for PROCESSED), only
 * while `schedule.claimId` still holds it: false when another worker took it over, and nothing
 * is written then.
 */
export async function endSchedule(
  executor: Executor,
  schedule: ClaimedSchedule,
  outcome: Outcome,
  now: number,
): Promise<boolean> {
  const error = 'error' in outcome ? outcome.error : undefined;
  const result = await endStatement(executor, {
    processId: schedule.processId,
    claimId: schedule.claimId,
    status: outcome.status,
    errorCode: error?.code ?? null,
    errorDetail: error?.detail ?? null,
    errorDomain: error?.domain ?? null,
    number: 'serviceAccountNumber' in outcome ? outcome.serviceAccountNumber : null,
    now,
  });
  if (result.numAffectedRows !== 1n) return false;
  // A creation's COMPLETED event is the account's own write's (src/accounts/account-writer.ts).
  if (outcome.status === 'PROCESSED') return true;
  const data = error ? { ...error.codes, detail: error.detail } : {};
  await recordEvents(executor, [eventOf(schedule, EVENT_OF[outcome.status], now, data)]);
  return true;
}

interface Ending {
  processId: number;
  claimId: string;
  status: ScheduleStatus;
  errorCode: string | null;
  errorDetail: string | null;
  errorDomain: string | null;
  number: string | null;
  now: number;
}

/** Compiled once: it runs once per schedule, in the account's transaction. */
const endStatement = compiledQuery((db, p: Params<Ending>) =>
  db
    .updateTable('creation_schedules')
    .set({
      status: p.status,
      claim_id: null,
      lease_until: null,
      error_code: p.errorCode,
      error_detail: p.errorDetail,
      error_domain: p.errorDomain,
      service_account_number: p.number,
      modified_at: p.now,
    })
    .where('process_id', '=', p.processId)
    .where('claim_id', '=', p.claimId)
    .where('status', '=', sql.lit('IN_PROGRESS')),
);

/**
 * Gives schedules back to the queue (PENDING, no claim) while `claimId` still holds them: a
 * creation deferred (the concurrency limit, a request creating the same account) or a worker
 * stopping. Their STARTED event stays; the next claim appends another.
 */
export async function releaseSchedules(
  db: Db,
  processIds: readonly number[],
  claimId: string,
  now: number,
): Promise<void> {
  if (processIds.length === 0) return;
  await db.storage.statementWrite(db.kysely, (executor) =>
    executor
      .updateTable('creation_schedules')
      .set({ status: 'PENDING', claim_id: null, lease_until: null, modified_at: now })
      .where('process_id', 'in', processIds)
      .where('claim_id', '=', claimId)
      .where('status', '=', 'IN_PROGRESS')
      .execute(),
  );
}
