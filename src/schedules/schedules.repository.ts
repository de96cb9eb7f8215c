/** Every statement of the v2 schedules (src/schedules/): write, read and cancel a schedule. */
import type { QueryCreator, Selectable } from 'kysely';
import type { CreationSchedulesTable, Database, Db, Executor, PerDialect } from '../db/database.js';
import { compiledQuery, type Params } from '../db/compiled.js';
import { EVENT_COLUMNS_WRITTEN, recordEvents } from '../events/events.repository.js';

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

/** The parameters of the schedule upsert (compiled once: see ../db/compiled.ts). */
interface UpsertParams {
  supplierCode: string;
  external: string;
  isDryRun: number;
  windowStart: number;
  windowEnd: number;
  teamId: number;
  now: number;
}

const upsertParams = (write: ScheduleWrite): UpsertParams => ({
  supplierCode: write.supplierCode,
  external: write.externalAccountNumber,
  isDryRun: write.isDryRun ? 1 : 0,
  windowStart: write.windowStart,
  windowEnd: write.windowEnd,
  teamId: write.teamId,
  now: write.now,
});

const SCHEDULE_WITH_EVENT: PerDialect<
  (db: Db, write: ScheduleWrite, event: ScheduledEvent) => Promise<boolean>
> = {
  async postgres(db, write, { data, requestId }) {
    const params = { ...upsertParams(write), data: JSON.stringify(data), requestId };
    return (await upsertWithEvent(db.kysely, params)).rows.length > 0;
  },
  sqlite: (db, write, { data, requestId }) =>
    db.storage.atomicWrite(db.kysely, async (trx) => {
      const row = (await upsertSchedule(trx, upsertParams(write))).rows[0];
      if (row === undefined) return false;
      const { externalAccountNumber, now: occurredAt } = write;
      const supplierId = Number(row.supplier_id);
      await recordEvents(trx, [
        { supplierId, externalAccountNumber, event: SCHEDULED, occurredAt, data, requestId },
      ]);
      return true;
    }),
};

const upsertSchedule = compiledQuery((db, p: Params<UpsertParams>) =>
  scheduleUpsert(db, p).returning('supplier_id'),
);

/** PostgreSQL: the upsert and, when it wrote, the event, in one statement. */
const upsertWithEvent = compiledQuery(
  (db, p: Params<UpsertParams & { data: string; requestId: string }>) =>
    db
      .with('s', (qc) =>
        scheduleUpsert(qc, p).returning(['supplier_id', 'external_account_number']),
      )
      .insertInto('account_events')
      .columns(EVENT_COLUMNS_WRITTEN)
      .expression((eb) =>
        eb
          .selectFrom('s')
          .select((s) => [
            's.supplier_id',
            's.external_account_number',
            s.cast<string>(s.val(SCHEDULED), 'text').as('event'),
            s.cast<number>(s.val(p.now), 'bigint').as('occurred_at'),
            s.cast<string>(s.val(p.data), 'text').as('data'),
            s.cast<string>(s.val(p.requestId), 'text').as('request_id'),
          ]),
      )
      .returning('id'),
);

/** The upsert of scheduleWithEvent: the account's schedule made new, unless a worker holds it. */
function scheduleUpsert(qc: QueryCreator<Database>, p: Params<UpsertParams>) {
  const fresh = {
    status: 'PENDING' as const,
    is_dry_run: p.isDryRun,
    window_start: p.windowStart,
    window_end: p.windowEnd,
    team_id: p.teamId,
    claim_id: null,
    lease_until: null,
    attempts: 0,
    error_code: null,
    error_detail: null,
    error_domain: null,
    service_account_number: null,
    modified_at: p.now,
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
          s.cast<number>(s.val(p.isDryRun), 'integer').as('is_dry_run'),
          s.cast<number>(s.val(p.windowStart), 'bigint').as('window_start'),
          s.cast<number>(s.val(p.windowEnd), 'bigint').as('window_end'),
          s.cast<number>(s.val(p.teamId), 'bigint').as('team_id'),
          s.cast<number>(s.val(p.now), 'bigint').as('created_at'),
          s.cast<number>(s.val(p.now), 'bigint').as('modified_at'),
        ])
        .where('s.code', '=', p.supplierCode)
        .where('p.external_account_number', '=', p.external),
    )
    .onConflict((oc) =>
      oc
        .column('process_id')
        .doUpdateSet(fresh)
        .where((eb) =>
          eb.or([
            eb('creation_schedules.status', '<>', 'IN_PROGRESS'),
            eb('creation_schedules.lease_until', '<', p.now),
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
