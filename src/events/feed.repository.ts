/**
 * The supplier feed's reads and the log's pruning. The feed serves events in an order in which
 * a consumer following its cursor sees each committed event once (README.md, "The feed's
 * order"): on PostgreSQL by (writing transaction, id), only for transactions older than every
 * one still running; on SQLite, whose writers take turns, by id.
 */
import { sql, type Kysely, type QueryResult } from 'kysely';
import { compiledQuery, type Params } from '../db/compiled.js';
import type { Database, Db, Executor, PerDialect } from '../db/database.js';
import { accountEventOf, type AccountEvent } from './events.repository.js';

/** A position in a supplier's feed: after the event `id` of transaction `transactionId`. */
export interface FeedPosition {
  /** PostgreSQL: the writing transaction's id; SQLite: 0 (ids alone give the order there). */
  readonly transactionId: number;
  readonly id: number;
}

/** The feed's start: before every event. */
export const FEED_START: FeedPosition = { transactionId: 0, id: 0 };

/** An event of the feed, with its account and its position. */
export interface FeedEvent extends AccountEvent {
  readonly externalAccountNumber: string;
  readonly position: FeedPosition;
}

interface FeedPage {
  supplierId: number;
  transactionId: number;
  id: number;
  limit: number;
}

const FEED_COLUMNS = sql`id, transaction_id, external_account_number, event, occurred_at, data,
  request_id`;

interface FeedRow {
  id: number;
  transaction_id: number | string | null;
  external_account_number: string;
  event: string;
  occurred_at: number;
  data: string | null;
  request_id: string | null;
}

/**
 * PostgreSQL: only events whose transaction ended before every transaction still running began
 * (its id below the snapshot's xmin). Any event committed later belongs to a transaction whose
 * id is at least that xmin, so it sorts after every event served now.
 */
const postgresPage = compiledQuery((db, p: Params<FeedPage>) => ({
  compile: () =>
    sql<FeedRow>`select ${FEED_COLUMNS} from account_events
      where supplier_id = ${p.supplierId}
        and transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        and (transaction_id, id) > (${p.transactionId}::bigint, ${p.id}::bigint)
      order by transaction_id, id
      limit ${p.limit}`.compile(db),
}));

/** SQLite: one writer at a time, so ids are given in commit order. */
const sqlitePage = compiledQuery((db, p: Params<Omit<FeedPage, 'transactionId'>>) => ({
  compile: () =>
    sql<FeedRow>`select ${FEED_COLUMNS} from account_events
      where supplier_id = ${p.supplierId} and id > ${p.id}
      order by id
      limit ${p.limit}`.compile(db),
}));

const PAGE: PerDialect<(db: Kysely<Database>, page: FeedPage) => Promise<QueryResult<FeedRow>>> = {
  postgres: postgresPage,
  sqlite: sqlitePage,
};

/** Up to `limit` events of the supplier after `after`, in the feed's order. */
export async function feedPage(
  db: Db,
  supplierId: number,
  after: FeedPosition,
  limit: number,
): Promise<FeedEvent[]> {
  const page = { supplierId, transactionId: after.transactionId, id: after.id, limit };
  const { rows } = await db.storage.pick(PAGE)(db.kysely, page);
  return rows.map((row) => ({
    ...accountEventOf(row),
    externalAccountNumber: row.external_account_number,
    position: { transactionId: Number(row.transaction_id ?? 0), id: Number(row.id) },
  }));
}

const postgresPositionHeld = compiledQuery((db, p: Params<FeedPosition>) => ({
  compile: () =>
    sql<{ held: boolean }>`select ${p.transactionId}::bigint
        < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
      and ${p.id}::bigint <= (select coalesce(max(id), 0) from account_events) as held`.compile(db),
}));

const sqlitePositionHeld = compiledQuery((db, p: Params<FeedPosition>) => ({
  compile: () =>
    sql<{ held: number }>`select ${p.transactionId} = 0
      and ${p.id} <= (select coalesce(max(id), 0) from account_events) as held`.compile(db),
}));

const POSITION_HELD: PerDialect<
  (db: Kysely<Database>, position: FeedPosition) => Promise<QueryResult<{ held: unknown }>>
> = {
  postgres: postgresPositionHeld,
  sqlite: sqlitePositionHeld,
};

/**
 * Whether the feed could have served `position`: its event at or before the newest of the log
 * (which pruning never deletes) and, on PostgreSQL, its transaction ended (below the oldest one
 * running); on SQLite, with no transaction part. Asked of a cursor whose page is empty, the one
 * case where a position the service never issued would go unnoticed, waiting for ever.
 */
export async function positionHeld(db: Db, position: FeedPosition): Promise<boolean> {
  const { rows } = await db.storage.pick(POSITION_HELD)(db.kysely, position);
  return Boolean(rows[0]?.held);
}

/**
 * Deletes the events that occurred before `before` (epoch ms), `batch` rows per statement so
 * that no statement holds the log long, and returns how many went. The newest event of the
 * log is always kept: SQLite gives a new row the highest id plus one, and a log emptied would
 * hand out ids a feed consumer's cursor has already passed.
 */
export async function pruneEvents(db: Executor, before: number, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db
      .deleteFrom('account_events')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('account_events')
          .select('id')
          .where('occurred_at', '<', before)
          .where('id', '<', (inner) =>
            inner.selectFrom('account_events').select((m) => m.fn.max('id').as('newest')),
          )
          .orderBy('occurred_at')
          .limit(batch),
      )
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < batch) return deleted;
  }
}
