/** The statements of a process's claim: read its payload, claim it, release it, record a refusal. */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { Database, Db, Executor, ImportProcess } from '../../db/database.js';

/** Whether a request holds the process right now: claimed, and its lease not yet run out. */
export function holdsLiveClaim(
  process: Pick<ImportProcess, 'state' | 'lease_until'>,
  now: number,
): boolean {
  return process.state === 'in_progress' && (process.lease_until ?? 0) >= now;
}

/** A process's current staged version: its normalised payload, and what it was validated with. */
export interface StagedPayload {
  /** The payload as JSON. */
  data: string;
  /** Its validation's stamp (src/account/validation-stamp.ts); null when not known. */
  checkedWith: string | null;
}

/** A column of the current version of the `import_processes` row in scope, as a subquery. */
function currentVersion<C extends 'data' | 'checked_with'>(
  eb: ExpressionBuilder<Database, 'import_processes'>,
  column: C,
) {
  return eb
    .selectFrom('import_process_versions as v')
    .select(`v.${column}`)
    .whereRef('v.process_id', '=', 'import_processes.id')
    .whereRef('v.version', '=', 'import_processes.version')
    .$asScalar();
}

/** The current version's payload and stamp, as the columns `data` and `checked_with`. */
const currentPayload = (eb: ExpressionBuilder<Database, 'import_processes'>) => [
  currentVersion(eb, 'data').as('data'),
  currentVersion(eb, 'checked_with').as('checked_with'),
];

/** The payload of the process's current version. */
export async function readStagedData(db: Executor, processId: number): Promise<StagedPayload> {
  const row = await db
    .selectFrom('import_processes')
    .select(currentPayload)
    .where('id', '=', processId)
    .executeTakeFirstOrThrow();
  return stagedPayload(processId, row);
}

function stagedPayload(
  processId: number,
  { data, checked_with }: { data: string | null; checked_with: string | null },
): StagedPayload {
  if (data === null) throw new Error(`import process ${processId} has no current version row`);
  return { data, checkedWith: checked_with };
}

export interface ClaimRequest {
  /** The requesting organisation, on the key version of its token. */
  caller: { organisationId: number; keyVersion: number };
  processId: number;
  claimId: string;
  now: number;
  leaseUntil: number;
  /** 0 disables the concurrency limit. */
  limit: number;
}

/**
 * Claims a pending process (or one whose holder's lease ran out) in one statement, so two
 * claims can never both succeed, and returns the payload of its current version. The statement
 * checks again what the request checked before it (claimable): an operator's pause, revoke,
 * disable, key rotation or skip mark committed before the statement began refuses the claim.
 * With a limit, the statement also counts the live claims; on PostgreSQL an advisory lock serialises
 * the counting claims, because under READ COMMITTED two concurrent statements could otherwise
 * both see a count below the limit.
 */
export async function claimProcess(
  db: Db,
  claim: ClaimRequest,
): Promise<StagedPayload | undefined> {
  const { caller, processId, claimId, now, leaseUntil, limit } = claim;
  const values: ClaimArguments = { ...caller, processId, claimId, now, leaseUntil };
  const run = async (executor: Executor) => {
    const claimed =
      limit === 0
        ? (await claimFree(executor, values)).rows[0]
        : (await claimLimited(executor, { ...values, limit })).rows[0];
    if (claimed === undefined) return undefined;
    // PostgreSQL (READ COMMITTED): when a re-stage commits while the claim waits for the row,
    // the claim goes ahead on the new version, but its payload subquery reads the snapshot from
    // before, which lacks that version's row. The claim now holds the process, so its version
    // cannot change again; a statement of its own sees the row.
    if (claimed.data === null) return readStagedData(executor, processId);
    return stagedPayload(processId, claimed);
  };
  // Without a limit the claim is one statement; with one, the counting claims take turns.
  if (limit === 0) return db.storage.statementWrite(db.kysely, run);
  return db.storage.exclusiveWrite(db.kysely, CLAIM_LOCK_KEY, run);
}

/** The process holds no live claim: pending, or claimed by a holder whose lease ran out. */
const unclaimed = (eb: ExpressionBuilder<Database, 'import_processes'>, now: number) =>
  eb.or([
    eb('state', '=', sql.lit('pending')),
    eb.and([eb('state', '=', sql.lit('in_progress')), eb('lease_until', '<', now)]),
  ]);

/**
 * What a process request checks before it claims, for the `import_processes` row in scope: the
 * organisation is enabled, on this key version and granted the supplier, and the supplier takes
 * accounts (supplierAccepts).
 */
const claimable = (
  eb: ExpressionBuilder<Database, 'import_processes'>,
  organisationId: number,
  keyVersion: number,
) =>
  eb.and([
    eb.exists(
      eb
        .selectFrom('organisations as o')
        .innerJoin('organisation_suppliers as g', 'g.organisation_id', 'o.id')
        .select('o.id')
        .where('o.id', '=', organisationId)
        .where('o.enabled', '=', 1)
        .where('o.key_version', '=', keyVersion)
        .whereRef('g.supplier_id', '=', 'import_processes.supplier_id'),
    ),
    supplierAccepts(eb),
  ]);

/**
 * What every claim checks, a request's or a worker's: the supplier's migration is Ongoing, and
 * the account bears no skip mark.
 */
const supplierAccepts = (eb: ExpressionBuilder<Database, 'import_processes'>) =>
  eb.and([
    eb.exists(
      eb
        .selectFrom('import_suppliers as s')
        .select('s.id')
        .whereRef('s.id', '=', 'import_processes.supplier_id')
        .where('s.status', '=', sql.lit('Ongoing')),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('skip_marks as k')
          .select('k.supplier_id')
          .whereRef('k.supplier_id', '=', 'import_processes.supplier_id')
          .whereRef('k.external_account_number', '=', 'import_processes.external_account_number'),
      ),
    ),
  ]);

/** A claim's values, the caller's spread out: what claimQuery binds. */
type ClaimArguments = Omit<ClaimRequest, 'caller' | 'limit'> & ClaimRequest['caller'];

/** The values of a worker's claim, which has no caller (ClaimRequest without it). */
type WorkerClaimArguments = Omit<ClaimArguments, 'organisationId' | 'keyVersion'>;

/** The claim's UPDATE, without the caller's checks (a worker's claim). */
function unconfirmedClaimQuery(
  db: Kysely<Database>,
  { processId, claimId, now, leaseUntil }: WorkerClaimArguments,
) {
  return db
    .updateTable('import_processes')
    .set({ state: 'in_progress', claim_id: claimId, lease_until: leaseUntil })
    .where('id', '=', processId)
    .where((eb) => unclaimed(eb, now))
    .returning(currentPayload);
}

function claimQuery(db: Kysely<Database>, p: ClaimArguments) {
  return unconfirmedClaimQuery(db, p).where((eb) => claimable(eb, p.organisationId, p.keyVersion));
}

/** The live claims' count: a limited claim goes ahead only while it is under the limit. */
const liveClaims = (now: number) => (eb: ExpressionBuilder<Database, 'import_processes'>) =>
  eb
    .selectFrom('import_processes as live')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .where('live.state', '=', sql.lit('in_progress'))
    .where('live.lease_until', '>=', now);

const claimFree = compiledQuery((db, p: Params<ClaimArguments>) => claimQuery(db, p));

const claimLimited = compiledQuery((db, p: Params<ClaimArguments & { limit: number }>) =>
  claimQuery(db, p).where(liveClaims(p.now), '<', p.limit),
);

const workerClaim = (db: Kysely<Database>, p: WorkerClaimArguments) =>
  unconfirmedClaimQuery(db, p).where(supplierAccepts);

const workerClaimFree = compiledQuery((db, p: Params<WorkerClaimArguments>) => workerClaim(db, p));

const workerClaimLimited = compiledQuery(
  (db, p: Params<WorkerClaimArguments & { limit: number }>) =>
    workerClaim(db, p).where(liveClaims(p.now), '<', p.limit),
);

/**
 * A worker's claim of the process of a schedule it holds (src/schedules/worker/): the claim of
 * claimProcess without the caller's checks, since the schedule was authorised when it was made;
 * the supplier's status, skip marks and the concurrency limit are checked as for a request.
 */
export async function claimStagedProcess(
  db: Db,
  claim: Omit<ClaimRequest, 'caller'>,
): Promise<StagedPayload | undefined> {
  const { processId, claimId, now, leaseUntil, limit } = claim;
  const values: WorkerClaimArguments = { processId, claimId, now, leaseUntil };
  const run = async (executor: Executor) => {
    const claimed =
      limit === 0
        ? (await workerClaimFree(executor, values)).rows[0]
        : (await workerClaimLimited(executor, { ...values, limit })).rows[0];
    if (claimed === undefined) return undefined;
    if (claimed.data === null) return readStagedData(executor, processId);
    return stagedPayload(processId, claimed);
  };
  if (limit === 0) return db.storage.statementWrite(db.kysely, run);
  return db.storage.exclusiveWrite(db.kysely, CLAIM_LOCK_KEY, run);
}

/** An arbitrary constant naming the "process claims" advisory lock. */
const CLAIM_LOCK_KEY = 7_201_311;

/** Why a processing attempt failed, and when. */
export interface AttemptFailure {
  code: string;
  detail: string;
  at: number;
}

/** The columns of a process that record its last failed attempt. */
const lastFailure = ({ code, detail, at }: AttemptFailure) => ({
  last_failure_code: code,
  last_failure_detail: detail,
  last_failure_at: at,
});

/** Gives a claim back and records why the attempt failed; a no-op if the claim was lost. */
export async function releaseClaim(
  db: Executor,
  processId: number,
  claimId: string,
  failure: AttemptFailure,
): Promise<void> {
  await db
    .updateTable('import_processes')
    .set({ state: 'pending', claim_id: null, lease_until: null, ...lastFailure(failure) })
    .where('id', '=', processId)
    .where('claim_id', '=', claimId)
    .where('state', '=', 'in_progress')
    .execute();
}

/**
 * Records a refused process request (unknown team, supplier not Ongoing, skip mark) as the
 * process's last failure, unless the process is completed or a live claim holds it: that
 * claim's own outcome is what its status will show.
 */
export async function recordRefusal(
  db: Executor,
  processId: number,
  failure: AttemptFailure,
): Promise<void> {
  await db
    .updateTable('import_processes')
    .set(lastFailure(failure))
    .where('id', '=', processId)
    .where((eb) => unclaimed(eb, failure.at))
    .execute();
}
