/** Every statement of the v2 schedules (src/schedules/): write, read and cancel a schedule. */
import type { QueryCreator, Selectable } from 'kysely';
import type { CreationSchedulesTable, Database, Db, Executor, PerDialect } from '../db/database.js';
import { recordEvents } from '../events/events.repository.js';

export type ScheduleRow = Selectable<CreationSchedulesTable>;

/** A schedule to write for an account just staged. */
export interface ScheduleWrite {
  supplierCode: string;
  externalAccountNumber: string;
  isDryRun: boolean;
  windowStart: number;
  windowEnd: number;
  teamId: number;
  now: number;
}

/** What the SCHEDULED event of a schedule written says, and the request that wrote it. */
export interface ScheduledEvent {
  data: Record<string, unknown>;
  requestId: string;
}

/**
 * Makes the account's schedule a new PENDING one with this window and team, whatever the old
 * one was, unless a worker holds it (IN_PROGRESS, its lease not run out), and appends its
 * SCHEDULED event, atomically; false when a worker holds it (nothing written). The process is
 * the one just staged for the account. PostgreSQL: one statement; SQLite, which has no
 * data-modifying CTEs: two, in one write of the group commit.
 */
export function scheduleWithEvent(
  db: Db,
  write: ScheduleWrite,
  event: ScheduledEvent,
): Promise<boolean> {
  return db.storage.pick(SCHEDULE_WITH_EVENT)(db, write, event);
}

const SCHEDULED = 'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED' as const;

const SCHEDULE_WITH_EVENT: PerDialect<
  (db: Db, write: ScheduleWrite, event: ScheduledEvent) => Promise<boolean>
> = {
  async postgres(db, write, { data, requestId }) {
    const row = await db.kysely
      .with('s', (qc) =>
        scheduleUpsert(qc, write).returning(['supplier_id', 'external_account_number']),
      )
      .insertInto('account_events')
      .columns([
        'supplier_id',
        'external_account_number',
        'event',
        'occurred_at',
        'data',
        'request_id',
      ])
      .expression((eb) =>
        eb
          .selectFrom('s')
          .select((s) => [
            's.supplier_id',
            's.external_account_number',
            s.cast<string>(s.val(SCHEDULED), 'text').as('event'),
            s.cast<number>(s.val(write.now), 'bigint').as('occurred_at'),
            s.cast<string>(s.val(JSON.stringify(data)), 'text').as('data'),
            s.cast<string>(s.val(requestId), 'text').as('request_id'),
          ]),
      )
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },
  sqlite: (db, write, { data, requestId }) =>
    db.storage.atomicWrite(db.kysely, async (trx) => {
      const row = await scheduleUpsert(trx, write).returning('supplier_id').executeTakeFirst();
      if (row === undefined) return false;
      const { externalAccountNumber, now: occurredAt } = write;
      const supplierId = Number(row.supplier_id);
      await recordEvents(trx, [
        { supplierId, externalAccountNumber, event: SCHEDULED, occurredAt, data, requestId },
      ]);
      return true;
    }),
};

/** The upsert of scheduleWithEvent: the account's schedule made new, unless a worker holds it. */
function scheduleUpsert(qc: QueryCreator<Database>, write: ScheduleWrite) {
  const { now } = write;
  const fresh = {
    status: 'PENDING' as const,
    is_dry_run: write.isDryRun ? 1 : 0,
    window_start: write.windowStart,
    window_end: write.windowEnd,
    team_id: write.teamId,
    claim_id: null,
    lease_until: null,
    attempts: 0,
    error_code: null,
    error_detail: null,
    error_domain: null,
    service_account_number: null,
    modified_at: now,
  };
  return qc
    .insertInto('creation_schedules')
    .columns([
      'process_id',
      'supplier_id',
      'external_account_number',
      'status',
      'is_dry_run',
      'window_start',
      'window_end',
      'team_id',
      'created_at',
      'modified_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('import_processes as p')
        .innerJoin('import_suppliers as s', 's.id', 'p.supplier_id')
        // PostgreSQL types a bare parameter in a select list as text: each is cast.
        .select((s) => [
          'p.id',
          'p.supplier_id',
          'p.external_account_number',
          s.cast<string>(s.val('PENDING'), 'text').as('status'),
          s.cast<number>(s.val(fresh.is_dry_run), 'integer').as('is_dry_run'),
          s.cast<number>(s.val(write.windowStart), 'bigint').as('window_start'),
          s.cast<number>(s.val(write.windowEnd), 'bigint').as('window_end'),
          s.cast<number>(s.val(write.teamId), 'bigint').as('team_id'),
          s.cast<number>(s.val(now), 'bigint').as('created_at'),
          s.cast<number>(s.val(now), 'bigint').as('modified_at'),
        ])
        .where('s.code', '=', write.supplierCode)
        .where('p.external_account_number', '=', write.externalAccountNumber),
    )
    .onConflict((oc) =>
      oc
        .column('process_id')
        .doUpdateSet(fresh)
        .where((eb) =>
          eb.or([
            eb('creation_schedules.status', '<>', 'IN_PROGRESS'),
            eb('creation_schedules.lease_until', '<', now),
          ]),
        ),
    );
}

/** The account's schedule and whether it bears a skip mark, if it was ever scheduled. */
export async function findSchedule(
  db: Executor,
  processId: number,
): Promise<(ScheduleRow & { skipped: boolean }) | undefined> {
  const row = await db
    .selectFrom('creation_schedules as c')
    .leftJoin('skip_marks as k', (join) =>
      join
        .onRef('k.supplier_id', '=', 'c.supplier_id')
        .onRef('k.external_account_number', '=', 'c.external_account_number'),
    )
    .selectAll('c')
    .select('k.supplier_id as skip_supplier_id')
    .where('c.process_id', '=', processId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { skip_supplier_id: skip, ...schedule } = row;
  return { ...schedule, skipped: skip !== null };
}

/** Cancels the account's schedule if it is PENDING; whether it was. */
export async function cancelPending(
  db: Executor,
  processId: number,
  now: number,
): Promise<boolean> {
  const row = await db
    .updateTable('creation_schedules')
    .set({ status: 'CANCELLED', modified_at: now })
    .where('process_id', '=', processId)
    .where('status', '=', 'PENDING')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
