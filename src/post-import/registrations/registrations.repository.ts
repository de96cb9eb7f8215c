/** Every SQL statement of the meter point registrations: statuses, the outbox, recorded moves. */
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import {
  REQUESTED,
  SENDABLE,
  type MeterPointStatus,
} from '../../accounts/registration-lifecycle.js';

export interface Registration {
  mpxn: string;
  supplyType: string;
  status: MeterPointStatus;
  detail: string | null;
}

/** The registrations of an account's meter points, in the account's order. */
export async function listRegistrations(db: Executor, accountId: number): Promise<Registration[]> {
  const rows = await db
    .selectFrom('meter_point_registrations')
    .select(['mpxn', 'supply_type', 'status', 'detail'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    mpxn: row.mpxn,
    supplyType: row.supply_type,
    status: row.status as MeterPointStatus,
    detail: row.detail,
  }));
}

/** The flow the adapter sends for a meter point of this supply type. */
const flowOf = (supplyType: string) => `${supplyType.toLowerCase()}_registration`;

/**
 * Moves the meter point to REGISTRATION_REQUESTED if it is still in a SENDABLE status, and then
 * only, queues its flow; run inside the atomic write of a send. False when it was not sendable
 * (any more): then nothing is written. A concurrent send of the same meter point waits for this
 * one's row lock (PostgreSQL) or the write lock (SQLite), and finds it sendable no more.
 */
export async function requestRegistration(
  db: Kysely<Database>,
  accountId: number,
  registration: Pick<Registration, 'mpxn' | 'supplyType'>,
  now: number,
): Promise<boolean> {
  const moved = await db
    .updateTable('meter_point_registrations')
    .set({ status: REQUESTED, detail: null, updated_at: now })
    .where('account_id', '=', accountId)
    .where('mpxn', '=', registration.mpxn)
    .where('status', 'in', SENDABLE)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await db
    .insertInto('registration_outbox')
    .values({
      account_id: accountId,
      mpxn: registration.mpxn,
      flow: flowOf(registration.supplyType),
      created_at: now,
      sent_at: null,
    })
    .execute();
  return true;
}

/** A meter point's registration with its account, as `registration record` finds it. */
export interface RecordedRegistration {
  id: number;
  accountId: number;
  accountNumber: string;
  accountCreatedAt: number;
  supplierId: number;
  supplierCode: string;
  externalAccountNumber: string;
  mpxn: string;
  status: MeterPointStatus;
  detail: string | null;
}

/** Every registration of the MPXN, of whichever account, newest account first. */
export async function registrationsOfMpxn(
  db: Executor,
  mpxn: string,
): Promise<RecordedRegistration[]> {
  const rows = await db
    .selectFrom('meter_point_registrations as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .innerJoin('import_suppliers as s', 's.id', 'a.supplier_id')
    .select([
      'r.id',
      'r.account_id',
      'a.number',
      'a.created_at',
      'a.supplier_id',
      's.code',
      'a.external_account_number',
      'r.mpxn',
      'r.status',
      'r.detail',
    ])
    .where('r.mpxn', '=', mpxn)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    accountId: Number(row.account_id),
    accountNumber: row.number,
    accountCreatedAt: Number(row.created_at),
    supplierId: Number(row.supplier_id),
    supplierCode: row.code,
    externalAccountNumber: row.external_account_number,
    mpxn: row.mpxn,
    status: row.status as MeterPointStatus,
    detail: row.detail,
  }));
}

/**
 * Moves the registration from `from` to `to`, if it is still in `from`: false when another
 * report moved it in the meantime, and nothing changed.
 */
export async function moveRegistration(
  db: Kysely<Database>,
  id: number,
  from: MeterPointStatus,
  to: MeterPointStatus,
  detail: string | null,
  now: number,
): Promise<boolean> {
  const moved = await db
    .updateTable('meter_point_registrations')
    .set({ status: to, detail, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}
