/**
 * Schedules for the worker tests, made without the scheduling API: the account is staged through
 * the v1 stage route, then its `creation_schedules` row is inserted as the API would write it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/db/database.js';
import { SchedulePool, type PoolOptions } from '../../src/schedules/worker/schedule-pool.js';
import { buildAccount } from '../account/factory.js';
import { stageDemoAccount, type TestService } from '../helpers/app.js';

export interface ScheduleOptions {
  /** Epoch ms; by default a minute ago. */
  windowStart?: number;
  /** Epoch ms; by default in an hour. */
  windowEnd?: number;
  dryRun?: boolean;
  /** The supplier's code (granted to the organisation); DEMO by default. */
  supplier?: string;
  /** The staged payload's overrides. */
  payload?: Record<string, unknown>;
}

/** Stages the account and schedules its creation; returns the schedule's key, its process id. */
export async function scheduleAccount(
  service: TestService,
  external: string,
  options: ScheduleOptions = {},
): Promise<number> {
  const supplierCode = options.supplier ?? 'DEMO';
  await stageDemoAccount(
    service,
    buildAccount({
      external_account_number: external,
      import_supplier: supplierCode,
      ...options.payload,
    }),
  );
  return insertSchedule(service.db, supplierCode, external, options);
}

/** Inserts the schedule of an account already staged. */
export async function insertSchedule(
  db: Db,
  supplierCode: string,
  external: string,
  options: ScheduleOptions = {},
): Promise<number> {
  const process = await db.kysely
    .selectFrom('import_processes as p')
    .innerJoin('import_suppliers as s', 's.id', 'p.supplier_id')
    .select(['p.id', 'p.supplier_id'])
    .where('s.code', '=', supplierCode)
    .where('p.external_account_number', '=', external)
    .executeTakeFirstOrThrow();
  const team = await db.kysely
    .selectFrom('operations_teams')
    .select('id')
    .where('name', '=', 'Migrations')
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const row = await db.kysely
    .insertInto('creation_schedules')
    .values({
      process_id: process.id,
      supplier_id: process.supplier_id,
      external_account_number: external,
      status: 'PENDING',
      is_dry_run: options.dryRun ? 1 : 0,
      window_start: options.windowStart ?? now - 60_000,
      window_end: options.windowEnd ?? now + 3_600_000,
      team_id: team.id,
      created_at: now,
      modified_at: now,
    })
    .returning('process_id')
    .executeTakeFirstOrThrow();
  return Number(row.process_id);
}

export const TEST_POOL: PoolOptions = { concurrency: 4, pollMs: 50, leaseMs: 60_000 };

/** A pool on the service's database (never started: tests drive its rounds). */
export const poolOf = (service: TestService, options: Partial<PoolOptions> = {}) =>
  new SchedulePool(service.ctx, { ...TEST_POOL, ...options });

/** Runs rounds until one claims nothing; returns how many schedules were claimed in all. */
export async function drain(pool: SchedulePool): Promise<number> {
  let total = 0;
  for (;;) {
    const { claimed } = await pool.round();
    if (claimed === 0) return total;
    total += claimed;
  }
}

export interface ScheduleRow {
  status: string;
  attempts: number;
  error_code: string | null;
  error_detail: string | null;
  error_domain: string | null;
  service_account_number: string | null;
  claim_id: string | null;
}

export async function scheduleRow(db: Db, processId: number): Promise<ScheduleRow> {
  const row = await db.kysely
    .selectFrom('creation_schedules')
    .select([
      'status',
      'attempts',
      'error_code',
      'error_detail',
      'error_domain',
      'service_account_number',
      'claim_id',
    ])
    .where('process_id', '=', processId)
    .executeTakeFirstOrThrow();
  return { ...row, attempts: Number(row.attempts) };
}

/** The names of the events workers append to one account's timeline, oldest first (stages left out). */
export async function eventNames(db: Db, supplierCode: string, external: string) {
  const rows = await db.kysely
    .selectFrom('account_events as e')
    .innerJoin('import_suppliers as s', 's.id', 'e.supplier_id')
    .select('e.event')
    .where('s.code', '=', supplierCode)
    .where('e.external_account_number', '=', external)
    .where('e.event', '!=', 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED')
    .orderBy('e.id')
    .execute();
  return rows.map((row) => row.event.replace('EVENT_ACCOUNT_IMPORT_PROCESS_', ''));
}

export async function accountCount(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const newClaimId = () => randomUUID();
