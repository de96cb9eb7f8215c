/** Every statement of the v2 schedules (src/schedules/): write, read and cancel a schedule. */
import { sql, type QueryCreator, type RawBuilder, type Selectable } from 'kysely';
import type { CreationSchedulesTable, Database, Executor } from '../db/database.js';
import { grantedSupplierQuery } from '../auth/auth.repository.js';
import { compiledQuery, type Params } from '../db/compiled.js';
import type { StageCompanion, StageValues } from '../imports/staging/staging.repository.js';

export type ScheduleRow = Selectable<CreationSchedulesTable>;

const SCHEDULED = 'EVENT_ACCOUNT_IMPORT_PROCESS_SCHEDULED' as const;

/** A schedule written with the stage of its account (StageCompanion): its own values. */
export interface ScheduleValues {
  /** 1 for a dry run, 0 otherwise. */
  scheduleIsDryRun: number;
  windowStart: number;
  windowEnd: number;
  teamId: number;
  /** The SCHEDULED event's data, as JSON. */
  scheduledData: string;
}

/**
 * The account's schedule, written as its stage's companion (StageCompanion): made a new
 * PENDING one with this window and team, whatever the old one was, unless a worker holds it
 * (IN_PROGRESS, its lease not run out), with its SCHEDULED event. It commits only with the
 * stage's new version: in the stage's one statement on PostgreSQL, in its savepoint on SQLite.
 * It writes nothing, and says so, when a worker claimed the schedule after the stage's guard
 * let the stage through (that guard refuses a stage while a worker holds the schedule).
 */
export const SCHEDULE_WITH_STAGE: StageCompanion<ScheduleValues> = {
  postgres: (db, p) => ({
    ctes: sql`scheduled as (
      ${scheduleUpsert(db, stagedProcess(p), p).returning(['supplier_id', 'external_account_number'])}
    )`,
    // Typed: a union's columns take their types from its branches, not from the insert.
    events: sql`select supplier_id, external_account_number, ${sql.lit(SCHEDULED)},
      cast(${p.now} as bigint), cast(${p.scheduledData} as text), cast(${p.requestId} as text)
      from scheduled`,
    wrote: sql<boolean>`exists (select 1 from scheduled)`,
  }),
  sqlite: async (trx, staged, values) => {
    if ((await upsertSchedule(trx, { ...values, processId: staged.id })).rows.length === 0) {
      return undefined;
    }
    const { supplierId, external: externalAccountNumber, now: occurredAt, requestId } = values;
    const data = JSON.parse(values.scheduledData) as Record<string, unknown>;
    return [{ supplierId, externalAccountNumber, event: SCHEDULED, occurredAt, data, requestId }];
  },
};

/** What the upsert writes besides the account's process. */
type UpsertParams = Params<Omit<ScheduleValues, 'scheduledData'> & Pick<StageValues, 'now'>>;

/** The account's process a schedule is written for. */
interface ProcessRow {
  id: number;
  supplier_id: number;
  external_account_number: string;
}

/** SQLite: the upsert for the process just staged (by its id), compiled once. */
const upsertSchedule = compiledQuery((db, p: Params<UpsertParams & { processId: number }>) => {
  const process = sql<ProcessRow>`(select id, supplier_id, external_account_number
    from import_processes where id = ${p.processId})`;
  return scheduleUpsert(db, process, p).returning('process_id');
});

/**
 * PostgreSQL: the process is the stage's `staged` CTE (a statement does not see the rows its
 * own CTEs write), with the account the stage was for.
 */
const stagedProcess = (p: Params<StageValues>) =>
  sql<ProcessRow>`(select id, cast(${p.supplierId} as bigint) as supplier_id,
    cast(${p.external} as text) as external_account_number from staged)`;

/** The columns a schedule is written with (the rest keep their defaults). */
const SCHEDULE_COLUMNS = [
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
] as const;

/**
 * The schedule's upsert: the account's process (id, supplier, external number) as `process`
 * selects it, then a new PENDING schedule's values, replacing an existing schedule unless a
 * worker holds it.
 */
function scheduleUpsert(
  qc: QueryCreator<Database>,
  process: RawBuilder<ProcessRow>,
  p: UpsertParams,
) {
  const fresh = {
    status: 'PENDING' as const,
    is_dry_run: p.scheduleIsDryRun,
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
    .columns(SCHEDULE_COLUMNS)
    .expression((eb) =>
      eb
        .selectFrom(process.as('process'))
        .select([
          'process.id',
          'process.supplier_id',
          'process.external_account_number',
          // PostgreSQL types a bare parameter in a select list as text: each is cast.
          sql<string>`cast(${'PENDING'} as text)`.as('status'),
          sql<number>`cast(${p.scheduleIsDryRun} as integer)`.as('is_dry_run'),
          sql<number>`cast(${p.windowStart} as bigint)`.as('window_start'),
          sql<number>`cast(${p.windowEnd} as bigint)`.as('window_end'),
          sql<number>`cast(${p.teamId} as bigint)`.as('team_id'),
          sql<number>`cast(${p.now} as bigint)`.as('created_at'),
          sql<number>`cast(${p.now} as bigint)`.as('modified_at'),
        ])
        // SQLite needs a WHERE clause before ON CONFLICT to parse an INSERT … SELECT upsert.
        .where(sql<boolean>`true`),
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

/**
 * Cancels the account's schedule if it is PENDING and the caller may still do so (its
 * organisation enabled, on the token's key version, granted the supplier: checked in the same
 * statement, as a stage checks its caller in its write); whether it cancelled.
 */
export async function cancelPending(
  db: Executor,
  processId: number,
  now: number,
  caller: { organisationId: number; keyVersion: number; supplierCode: string },
): Promise<boolean> {
  const { organisationId, keyVersion, supplierCode } = caller;
  const row = await db
    .updateTable('creation_schedules')
    .set({ status: 'CANCELLED', modified_at: now })
    .where('process_id', '=', processId)
    .where('status', '=', 'PENDING')
    .where((eb) =>
      eb.exists(grantedSupplierQuery(db, organisationId, keyVersion, supplierCode).select('o.id')),
    )
    .returning('process_id')
    .executeTakeFirst();
  return row !== undefined;
}
