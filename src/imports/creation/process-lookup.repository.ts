/**
 * The lookups of one process for its caller: each confirms the caller's organisation in the
 * statement that finds the supplier and its process (the status; a process request's checks).
 */
import type { Kysely } from 'kysely';
import { callerSupplierQuery, grantedSupplierOf } from '../../auth/auth.repository.js';
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { Database, Executor, ImportProcess, ImportSupplier } from '../../db/database.js';

const PROCESS_COLUMNS = [
  'id',
  'supplier_id',
  'external_account_number',
  'state',
  'version',
  'first_staged_at',
  'last_staged_at',
  'claim_id',
  'lease_until',
  'account_id',
  'service_account_number',
  'account_created_at',
  'last_failure_code',
  'last_failure_detail',
  'last_failure_at',
] as const;

export interface ProcessTarget {
  /** Undefined when no supplier has the code or it is not granted to the organisation. */
  supplier: ImportSupplier | undefined;
  teamId: number | undefined;
  skipped: boolean;
  process: ImportProcess | undefined;
  /** A v2 schedule is waiting for its window or being run (PENDING or IN_PROGRESS). */
  scheduled: boolean;
}

/**
 * The caller check with its supplier (callerSupplierQuery), joined to that supplier's process
 * for the external account number if there is one.
 */
function callerProcessQuery(
  db: Kysely<Database>,
  organisationId: number,
  keyVersion: number,
  supplierCode: string,
  external: string,
) {
  return callerSupplierQuery(db, organisationId, keyVersion, supplierCode)
    .leftJoin('import_processes as p', (join) =>
      join
        .onRef('p.supplier_id', '=', 'g.supplier_id')
        .on('p.external_account_number', '=', external),
    )
    .select(PROCESS_COLUMNS.map((column) => `p.${column} as process_${column}` as const));
}

/** The caller, the supplier's code and the external account number a lookup binds. */
interface ProcessLookup {
  organisationId: number;
  keyVersion: number;
  supplierCode: string;
  external: string;
}

const callerProcess = compiledQuery((db, p: Params<ProcessLookup>) =>
  callerProcessQuery(db, p.organisationId, p.keyVersion, p.supplierCode, p.external),
);

const processTarget = compiledQuery((db, p: Params<ProcessLookup & { teamName: string }>) =>
  callerProcessQuery(db, p.organisationId, p.keyVersion, p.supplierCode, p.external)
    .leftJoin('skip_marks as k', (join) =>
      join
        .onRef('k.supplier_id', '=', 'g.supplier_id')
        .on('k.external_account_number', '=', p.external),
    )
    .select((eb) => [
      eb
        .selectFrom('operations_teams as t')
        .select('t.id')
        .where('t.name', '=', p.teamName)
        .as('team_id'),
      'k.supplier_id as skip_supplier_id',
      eb
        .selectFrom('creation_schedules as c')
        .select('c.status')
        .whereRef('c.process_id', '=', 'p.id')
        .as('schedule_status'),
    ]),
);

/** A row of callerProcessQuery, split into the supplier and the process it found. */
function callerAndProcess(row: { granted_supplier_id: unknown; process_id: unknown }): {
  supplier: ImportSupplier | undefined;
  process: ImportProcess | undefined;
} {
  const columns = row as Record<string, unknown>;
  return {
    supplier: grantedSupplierOf(row),
    process:
      row.process_id === null
        ? undefined
        : (Object.fromEntries(
            PROCESS_COLUMNS.map((column) => [column, columns[`process_${column}`]]),
          ) as unknown as ImportProcess),
  };
}

const callerProcessMarked = compiledQuery((db, p: Params<ProcessLookup>) =>
  callerProcessQuery(db, p.organisationId, p.keyVersion, p.supplierCode, p.external)
    .leftJoin('skip_marks as k', (join) =>
      join
        .onRef('k.supplier_id', '=', 'g.supplier_id')
        .on('k.external_account_number', '=', p.external),
    )
    .select(['k.reason as skip_reason', 'k.created_at as skip_marked_at']),
);

/** A skip mark on an account: why, and when (epoch ms). */
export interface SkipMark {
  reason: string | null;
  markedAt: number;
}

/**
 * findCallerProcess, with the account's skip mark if it has one: what the status of an account
 * reads, in one round trip.
 */
export async function findCallerProcessAndMark(
  db: Executor,
  caller: { organisationId: number; keyVersion: number },
  supplierCode: string,
  externalAccountNumber: string,
): Promise<
  (Pick<ProcessTarget, 'supplier' | 'process'> & { skipMark: SkipMark | undefined }) | undefined
> {
  const lookup = { ...caller, supplierCode, external: externalAccountNumber };
  const row = (await callerProcessMarked(db, lookup)).rows[0];
  if (!row) return undefined;
  const markedAt = row.skip_marked_at;
  const skipMark =
    markedAt === null ? undefined : { reason: row.skip_reason, markedAt: Number(markedAt) };
  return { ...callerAndProcess(row), skipMark };
}

/**
 * The supplier (if granted to the caller's organisation) and its process for the external
 * account number, in the statement that confirms the organisation, in one round trip.
 * Undefined when the organisation is not active.
 */
export async function findCallerProcess(
  db: Executor,
  caller: { organisationId: number; keyVersion: number },
  supplierCode: string,
  externalAccountNumber: string,
): Promise<Pick<ProcessTarget, 'supplier' | 'process'> | undefined> {
  const lookup = { ...caller, supplierCode, external: externalAccountNumber };
  const row = (await callerProcess(db, lookup)).rows[0];
  return row && callerAndProcess(row);
}

/**
 * Everything a process request checks before claiming, in one statement: the caller's
 * organisation (still enabled, on the token's key version), the supplier (if granted to it),
 * the team, the skip mark and the process. One round trip instead of five matters most on
 * PostgreSQL, where each is a network exchange. Undefined when the organisation is not active.
 */
export async function findProcessTarget(
  db: Executor,
  caller: { organisationId: number; keyVersion: number },
  supplierCode: string,
  teamName: string,
  externalAccountNumber: string,
): Promise<ProcessTarget | undefined> {
  const lookup = { ...caller, supplierCode, external: externalAccountNumber, teamName };
  const row = (await processTarget(db, lookup)).rows[0];
  if (!row) return undefined;
  return {
    ...callerAndProcess(row),
    teamId: row.team_id ?? undefined,
    skipped: row.skip_supplier_id !== null,
    scheduled: row.schedule_status === 'PENDING' || row.schedule_status === 'IN_PROGRESS',
  };
}

const teamByName = compiledQuery((db, p: Params<{ name: string }>) =>
  db.selectFrom('operations_teams').select('id').where('name', '=', p.name),
);

/** The id of the operations team of this name, or undefined. */
export async function findTeamId(db: Executor, name: string): Promise<number | undefined> {
  return (await teamByName(db, { name })).rows[0]?.id;
}
