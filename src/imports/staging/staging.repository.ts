/** The staging statement: store a staged version atomically, as its caller checked it. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { grantedSupplierQuery } from '../../auth/auth.repository.js';
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { Database, Db, Executor, ImportSupplier } from '../../db/database.js';
import type { PerDialect } from '../../db/storage.js';
import type { EventName } from '../../events/event-names.js';
import { recordEvents, type NewAccountEvent } from '../../events/events.repository.js';

const STAGED: EventName = 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED';

/** What a stage stores: the normalised payload of one account, sent by one organisation. */
export interface StageRequest {
  /** The supplier as the payload was validated against. */
  supplier: Pick<ImportSupplier, 'id' | 'code' | 'phone_region' | 'rule_settings'>;
  externalAccountNumber: string;
  /** The normalised payload as JSON. */
  data: string;
  /** What it was validated with (src/account/validation-stamp.ts); null when not known. */
  checkedWith: string | null;
  /** The caller, as its token states it. */
  organisationId: number;
  keyVersion: number;
  now: number;
  /** The request that stages, for the STAGED event; absent outside HTTP. */
  requestId?: string | null;
  /** A write that commits with the stage (StageCompanion), with its values. */
  companion?: CompanionWrite;
}

/**
 * A write that commits with a stage, and only when the stage stores its version: v2's schedule
 * (src/schedules/), so that scheduling costs one statement on PostgreSQL, as a stage does. Its
 * PostgreSQL part is added to the stage's statement (CompanionSql). Its SQLite part runs in the
 * stage's savepoint and answers the events to record after the stage's, in the same insert, or
 * undefined when it wrote nothing. Both read their own values and the stage's (StageValues);
 * the names of their own must differ from the stage's parameters.
 */
export interface StageCompanion<V extends object> {
  readonly postgres: (db: Kysely<Database>, p: Params<V & StageValues>) => CompanionSql;
  readonly sqlite: (
    trx: Executor,
    staged: StagedProcess,
    values: V & StageValues,
  ) => Promise<NewAccountEvent[] | undefined>;
}

/**
 * A companion's part of PostgreSQL's stage statement: `ctes` (`name as (…)`, one or more) may
 * read the stage's `staged` CTE (`id`, `version`); `events` selects the companion's events
 * (account_events' columns as EVENT_COLUMNS_WRITTEN lists them), inserted after the stage's
 * own so that the log's order is the stage's, then the companion's; `wrote` is a condition
 * true when the companion wrote.
 */
export interface CompanionSql {
  readonly ctes: RawBuilder<unknown>;
  readonly events: RawBuilder<unknown>;
  readonly wrote: RawBuilder<boolean>;
}

/** What a companion reads of its stage: the account, the stage's time and its request. */
export interface StageValues {
  supplierId: number;
  external: string;
  now: number;
  requestId: string | null;
}

/** A companion and the values of one stage's write. */
export interface CompanionWrite {
  // The values are checked against the companion where the pair is made (companionWrite).
  readonly companion: StageCompanion<object>;
  readonly values: object;
}

/** Pairs a companion with its values. */
export const companionWrite = <V extends object>(
  companion: StageCompanion<V>,
  values: V,
): CompanionWrite => ({ companion: companion as StageCompanion<object>, values });

/**
 * What a stage did: `stale` when the caller or the supplier no longer is what the payload was
 * validated for (organisation disabled or key rotated, grant revoked, supplier not Ongoing or
 * its phone region or rule settings changed), and nothing was written; otherwise the process and its new
 * version (1 when this stage created it), or undefined when the account is skipped, completed
 * or in progress (by a process request or a v2 worker) and nothing was written.
 */
export type StageOutcome = 'stale' | StagedProcess | undefined;

/** A stored staging: the process and its new version. */
export interface StagedProcess {
  id: number;
  version: number;
  /** Whether the stage's companion wrote (absent without one). */
  companionWrote?: boolean;
}

/**
 * Creates or re-stages a process and keeps the new version, with its STAGED event
 * (src/events/), in one atomic step that checks the caller and the supplier (see
 * StageOutcome). On PostgreSQL it is one statement. SQLite has no data-modifying CTEs, so
 * there it is the guarded upsert (stagePending, or restageExpired for a lapsed claim), the
 * version insert and the event's in one savepoint of a group commit (group-commit.ts).
 */
export function stageProcess(db: Db, stage: StageRequest): Promise<StageOutcome> {
  const { supplier, externalAccountNumber: external, data, organisationId, now } = stage;
  const guarded: GuardedStage = {
    organisationId,
    keyVersion: stage.keyVersion,
    supplierId: supplier.id,
    code: supplier.code,
    phoneRegion: supplier.phone_region,
    ruleSettings: supplier.rule_settings,
    external,
    now,
  };
  const kept: Kept = { data, checkedWith: stage.checkedWith, requestId: stage.requestId ?? null };
  return db.storage.pick(STAGE)(db, guarded, kept, stage.companion);
}

/**
 * What a stage keeps besides the process: its version's payload and validation stamp, and its
 * event's request.
 */
interface Kept {
  data: string;
  checkedWith: string | null;
  requestId: string | null;
}

/** How each dialect stores a stage: the guarded stage, its new version and its event. */
const STAGE: PerDialect<
  (db: Db, stage: GuardedStage, kept: Kept, companion?: CompanionWrite) => Promise<StageOutcome>
> = {
  async postgres(db, stage, kept, companion) {
    const values = { ...companion?.values, ...stage, ...kept };
    const statement = companion ? stageWithCompanion(companion.companion) : stageWithVersion;
    const row = (await statement(db.kysely, values)).rows[0];
    if (!row?.allowed) return 'stale';
    if (row.id === null) return undefined;
    const staged = { id: row.id, version: row.version as number };
    return companion ? { ...staged, companionWrote: row.companion_wrote === true } : staged;
  },
  sqlite: (db, stage, { data, checkedWith, requestId }, companion) =>
    db.storage.atomicWrite(db.kysely, async (trx) => {
      const staged =
        (await stagePending(trx, stage)).rows[0] ?? (await restageExpired(trx, stage)).rows[0];
      if (staged) {
        const { organisationId, now, supplierId, external } = stage;
        const { version } = staged;
        const processId = staged.id;
        await insertVersion(trx, { processId, version, data, checkedWith, organisationId, now });
        const stagedEvent: NewAccountEvent = {
          supplierId,
          externalAccountNumber: external,
          event: STAGED,
          occurredAt: now,
          data: { version, created: version === 1 },
          requestId,
        };
        if (companion === undefined) {
          await recordEvents(trx, [stagedEvent]);
          return staged;
        }
        const values = { ...companion.values, supplierId, external, now, requestId };
        const events = await companion.companion.sqlite(trx, staged, values);
        // One insert for the stage's event and the companion's, in that order.
        await recordEvents(trx, [stagedEvent, ...(events ?? [])]);
        return { ...staged, companionWrote: events !== undefined };
      }
      // Nothing written: refused by the guard, or by the process's own state.
      return (await stageAllowed(trx, stage)).rows.length === 0 ? 'stale' : undefined;
    }),
};

/**
 * The caller's organisation is enabled and on the token's key version, and the supplier still
 * has this code, is granted to it, accepts accounts and has the phone region and rule settings
 * the payload was validated with.
 */
function stageAllowedQuery(db: Kysely<Database>, guard: Params<StageGuard>) {
  return grantedSupplierQuery(db, guard.organisationId, guard.keyVersion, guard.code)
    .select('o.id')
    .where('s.id', '=', guard.supplierId)
    .where('s.status', '=', 'Ongoing')
    .where('s.phone_region', '=', guard.phoneRegion)
    .where('s.rule_settings', '=', guard.ruleSettings);
}

/** The caller and the supplier as the payload was validated for them. */
interface StageGuard {
  organisationId: number;
  keyVersion: number;
  supplierId: number;
  code: string;
  phoneRegion: string;
  ruleSettings: string;
}

const stageAllowed = compiledQuery((db, p: Params<StageGuard>) => stageAllowedQuery(db, p));

/**
 * A new process, version 1, unless the guard refuses it or the account is skipped. `allowed` is
 * the caller and supplier check (see stageAllowedQuery), as an SQL condition. The SELECT keeps
 * its WHERE clause: SQLite needs one before ON CONFLICT to parse an INSERT ... SELECT upsert
 * unambiguously. The WHERE clause holds for a re-stage too (the conflict's update); the update
 * adds its own conditions (unclaimedBySchedule among them).
 */
function insertProcess(
  supplierId: number,
  external: string,
  now: number,
  allowed: RawBuilder<unknown>,
) {
  return sql`insert into import_processes
      (supplier_id, external_account_number, state, version, first_staged_at, last_staged_at)
    select ${supplierId}, ${external}, 'pending', 1, ${now}, ${now}
    where ${allowed} and ${notSkipped(supplierId, external)}`;
}

/** The account bears no skip mark. */
const notSkipped = (supplierId: number, external: string) => sql`not exists (
      select 1 from skip_marks
      where skip_marks.supplier_id = ${supplierId}
        and skip_marks.external_account_number = ${external}
    )`;

/**
 * No v2 worker is creating the account: its process (`import_processes`, the row being
 * updated) has no schedule under a live claim (src/schedules/; docs/interface.md, v2 and v1
 * together). Only an existing process can have a schedule, so only a re-stage asks, and it
 * finds the schedule by its key, the process id.
 */
const unclaimedBySchedule = (now: number) => sql`not exists (
      select 1 from creation_schedules
      where creation_schedules.process_id = import_processes.id
        and creation_schedules.status = 'IN_PROGRESS'
        and coalesce(creation_schedules.lease_until, ${now}) >= ${now}
    )`;

/** A re-stage: the next version, and the process pending again (it may hold a lapsed claim). */
const restaged = (now: number) => sql`version = import_processes.version + 1,
        last_staged_at = ${now},
        state = 'pending',
        claim_id = null,
        lease_until = null`;

/** The process is claimed, and its claim's lease ran out. */
const leaseLapsed = (now: number) =>
  sql`import_processes.state = 'in_progress' and import_processes.lease_until < ${now}`;

/**
 * The process still accepts a stage: pending, or its claim's lease ran out; and no worker is
 * creating it from its schedule.
 */
const restageable = (now: number) =>
  sql`(import_processes.state = 'pending' or (${leaseLapsed(now)})) and ${unclaimedBySchedule(now)}`;

/**
 * The upsert of PostgreSQL's stage statement. A re-stage always increments the version, so
 * version 1 means created. A claim whose lease ran out counts as pending (docs/interface.md, States):
 * re-staging releases it, and its holder, should it still be running, can no longer complete
 * (the claim is fenced).
 */
function upsertProcess(
  supplierId: number,
  external: string,
  now: number,
  allowed: RawBuilder<unknown>,
) {
  return sql`${insertProcess(supplierId, external, now, allowed)}
    on conflict (supplier_id, external_account_number) do update
      set ${restaged(now)}
      where ${restageable(now)}`;
}

/** Lets compiledQuery compile a raw statement. */
function compilable<Row>(db: Kysely<Database>, query: RawBuilder<Row>) {
  return { compile: () => query.compile(db) };
}

/** The parameters of both dialects' guarded stage statements: the guard's, then the upsert's. */
interface GuardedStage extends StageGuard {
  external: string;
  now: number;
}

/** What both dialects' stage statements are made of: the guard, and the upsert it conditions. */
function guardedStage(db: Kysely<Database>, p: Params<GuardedStage>) {
  return {
    allowed: stageAllowedQuery(db, p),
    upsert: (condition: RawBuilder<unknown>) =>
      upsertProcess(p.supplierId, p.external, p.now, condition),
    organisationId: p.organisationId,
    supplierId: p.supplierId,
    external: p.external,
    now: p.now,
  };
}

/** What PostgreSQL's stage statement answers: always one row. */
interface StageRow {
  allowed: boolean;
  id: number | null;
  version: number | null;
  /** With a companion: whether it wrote. */
  companion_wrote?: boolean;
}

// The payload goes into the version row only; the process row points at it by its version. The
// stage's event is inserted by the same statement, from the row staged (none when refused), and
// so is a companion's write. The final select always returns one row: whether the stage was
// allowed, and what it staged.
function stageStatement(
  db: Kysely<Database>,
  p: Params<GuardedStage & Kept>,
  companion?: CompanionSql,
) {
  const { allowed, upsert, organisationId, supplierId, external, now } = guardedStage(db, p);
  const { data, checkedWith, requestId } = p;
  const companionCtes = companion === undefined ? sql`` : sql`${companion.ctes}, `;
  // UNION ALL appends its branches in order, and the insert numbers the rows as they come.
  const companionEvents = companion === undefined ? sql`` : sql` union all ${companion.events}`;
  const companionWrote =
    companion === undefined ? sql`` : sql`, ${companion.wrote} as companion_wrote`;
  return compilable(
    db,
    sql<StageRow>`with allowed as (
      ${allowed}
    ), staged as (
      ${upsert(sql`exists (select 1 from allowed)`)}
      returning id, version
    ), kept as (
      insert into import_process_versions
        (process_id, version, data, checked_with, organisation_id, staged_at)
      select id, version, ${data}, ${checkedWith}, ${organisationId}, ${now} from staged
    ), ${companionCtes}recorded as (
      insert into account_events
        (supplier_id, external_account_number, event, occurred_at, data, request_id)
      select ${supplierId}, ${external}, ${sql.lit(STAGED)}, ${now},
        json_build_object('version', version, 'created', version = 1)::text, ${requestId}
      from staged${companionEvents}
    )
    select exists (select 1 from allowed) as allowed, staged.id, staged.version${companionWrote}
    from (select 1) as one left join staged on true`,
  );
}

const stageWithVersion = compiledQuery((db, p: Params<GuardedStage & Kept>) =>
  stageStatement(db, p),
);

/** The stage statement with each companion's CTE, compiled once per companion. */
const withCompanions = new WeakMap<StageCompanion<object>, typeof stageWithVersion>();

function stageWithCompanion(companion: StageCompanion<object>): typeof stageWithVersion {
  let statement = withCompanions.get(companion);
  if (statement === undefined) {
    statement = compiledQuery((db, p: Params<GuardedStage & Kept>) =>
      stageStatement(db, p, companion.postgres(db, p)),
    );
    withCompanions.set(companion, statement);
  }
  return statement;
}

/**
 * SQLite's stage of a new or a pending process: the common case, which changes no indexed
 * column of a pending process. SQLite rewrites every index that holds a column named in SET
 * (or in a partial index's WHERE clause) whether its value changed or not, so setting `state`
 * to the 'pending' it already is would rewrite the list and claim indexes. A pending process
 * holds no claim (every write that makes one pending clears it), so only its version and
 * staging time change. A process whose lapsed claim the stage releases takes restageExpired.
 */
const stagePending = compiledQuery((db, p: Params<GuardedStage>) => {
  const { allowed, supplierId, external, now } = guardedStage(db, p);
  return compilable(
    db,
    sql<StagedProcess>`${insertProcess(supplierId, external, now, sql`exists ${allowed}`)}
    on conflict (supplier_id, external_account_number) do update
      set version = import_processes.version + 1, last_staged_at = ${now}
      where import_processes.state = 'pending' and ${unclaimedBySchedule(now)}
    returning id, version`,
  );
});

/** SQLite's re-stage of a process whose claim's lease ran out: it is released, as upsertProcess does. */
const restageExpired = compiledQuery((db, p: Params<GuardedStage>) => {
  const { allowed, supplierId, external, now } = guardedStage(db, p);
  return compilable(
    db,
    sql<StagedProcess>`update import_processes set ${restaged(now)}
    where supplier_id = ${supplierId} and external_account_number = ${external}
      and ${leaseLapsed(now)} and exists ${allowed} and ${notSkipped(supplierId, external)}
      and ${unclaimedBySchedule(now)}
    returning id, version`,
  );
});

interface NewVersion {
  processId: number;
  version: number;
  data: string;
  checkedWith: string | null;
  organisationId: number;
  now: number;
}

const insertVersion = compiledQuery((db, p: Params<NewVersion>) =>
  db.insertInto('import_process_versions').values({
    process_id: p.processId,
    version: p.version,
    data: p.data,
    checked_with: p.checkedWith,
    organisation_id: p.organisationId,
    staged_at: p.now,
  }),
);
