/**
 * The account event log: append (in the caller's transaction, so an event exists exactly when
 * its effect does) and read one account's timeline. The feed and pruning read the same table.
 */
import type { Kysely, Selectable } from 'kysely';
import { compiledInsert, compiledQuery, type Params } from '../db/compiled.js';
import { callerSupplierQuery, grantedSupplierOf } from '../auth/auth.repository.js';
import type { AccountEventsTable, Database, Executor, ImportSupplier } from '../db/database.js';
import type { EventName } from './event-names.js';

/** An event to append. */
export interface NewAccountEvent {
  readonly supplierId: number;
  readonly externalAccountNumber: string;
  readonly event: EventName;
  /** Epoch milliseconds. */
  readonly occurredAt: number;
  readonly data?: Record<string, unknown> | null;
  /** The request that caused it; absent for workers and the CLI. */
  readonly requestId?: string | null;
}

/** An event as the log keeps it. */
export interface AccountEvent {
  readonly id: number;
  readonly event: EventName;
  readonly occurredAt: number;
  readonly data: Record<string, unknown> | null;
  readonly requestId: string | null;
}

/** The columns an appended event writes (the rest the database fills in). */
export const EVENT_COLUMNS_WRITTEN = [
  'supplier_id',
  'external_account_number',
  'event',
  'occurred_at',
  'data',
  'request_id',
] as const;

const insertEvents = compiledInsert('account_events', EVENT_COLUMNS_WRITTEN);

/** An event as the row that keeps it. */
export function eventRow(event: NewAccountEvent) {
  return {
    supplier_id: event.supplierId,
    external_account_number: event.externalAccountNumber,
    event: event.event,
    occurred_at: event.occurredAt,
    data: event.data == null ? null : JSON.stringify(event.data),
    request_id: event.requestId ?? null,
  };
}

/** Appends `events` with one statement, on `db` (a transaction when they belong to an effect). */
export async function recordEvents(
  db: Executor,
  events: readonly NewAccountEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await insertEvents(db, events.map(eventRow));
}

/** A row of the log as an event. */
export function accountEventOf(
  row: Pick<Selectable<AccountEventsTable>, 'id' | 'event' | 'occurred_at' | 'data' | 'request_id'>,
): AccountEvent {
  return {
    id: Number(row.id),
    event: row.event as EventName,
    occurredAt: Number(row.occurred_at),
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
    requestId: row.request_id,
  };
}

const EVENT_COLUMNS = ['id', 'event', 'occurred_at', 'data', 'request_id'] as const;

const timeline = compiledQuery(
  (db: Kysely<Database>, p: Params<{ supplierId: number; external: string }>) =>
    db
      .selectFrom('account_events')
      .select(EVENT_COLUMNS)
      .where('supplier_id', '=', p.supplierId)
      .where('external_account_number', '=', p.external)
      .orderBy('id'),
);

/** Every event of one account, oldest first. */
export async function timelineOf(
  db: Executor,
  supplierId: number,
  externalAccountNumber: string,
): Promise<AccountEvent[]> {
  const { rows } = await timeline(db, { supplierId, external: externalAccountNumber });
  return rows.map(accountEventOf);
}

interface CallerTimeline {
  organisationId: number;
  keyVersion: number;
  code: string;
  external: string;
}

const callerTimeline = compiledQuery((db, p: Params<CallerTimeline>) =>
  callerSupplierQuery(db, p.organisationId, p.keyVersion, p.code)
    .leftJoin('account_events as e', (join) =>
      join
        .onRef('e.supplier_id', '=', 'g.supplier_id')
        .on('e.external_account_number', '=', p.external),
    )
    .select(EVENT_COLUMNS.map((column) => `e.${column}` as const))
    .orderBy('e.id'),
);

/**
 * One account's timeline for a caller, in the statement that confirms the caller's
 * organisation (callerSupplierQuery): the supplier `code` if it is granted to the organisation,
 * and the account's events, oldest first (none when the supplier is not granted). Undefined
 * when the organisation is not active.
 */
export async function findCallerTimeline(
  db: Executor,
  caller: { organisationId: number; keyVersion: number },
  code: string,
  externalAccountNumber: string,
): Promise<{ supplier: ImportSupplier | undefined; events: AccountEvent[] } | undefined> {
  const { organisationId, keyVersion } = caller;
  const lookup = { organisationId, keyVersion, code, external: externalAccountNumber };
  const { rows } = await callerTimeline(db, lookup);
  const [first] = rows;
  if (first === undefined) return undefined;
  const events = first.id === null ? [] : rows.map((row) => accountEventOf(row as EventRow));
  return { supplier: grantedSupplierOf(first), events };
}

type EventRow = Parameters<typeof accountEventOf>[0];

/** The newest event of one account, if it has any. */
export async function latestEventOf(
  db: Executor,
  supplierId: number,
  externalAccountNumber: string,
): Promise<AccountEvent | undefined> {
  const row = await db
    .selectFrom('account_events')
    .select(EVENT_COLUMNS)
    .where('supplier_id', '=', supplierId)
    .where('external_account_number', '=', externalAccountNumber)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && accountEventOf(row);
}
