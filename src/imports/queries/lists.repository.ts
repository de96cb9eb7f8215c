/** The list statements: keyset pages of a supplier's processes, served by partial indexes. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { grantedSupplierQuery } from '../../auth/auth.repository.js';
import { compiledArrayQuery } from '../../db/compiled.js';
import type { Database, Executor } from '../../db/database.js';
import { storageOf } from '../../db/dialects.js';
import type { PerDialect } from '../../db/storage.js';
import { ITEM_COLUMNS, ITEM_SQL, ITEM_START, type ItemValues } from './list-item.js';

export type ListKind = 'all' | 'pending' | 'imported';

/**
 * A listed process: its item's values, then its first staging time (the list's order), in
 * LIST_COLUMNS order (arrays: the lists return many rows).
 */
export type ListRow = [...ItemValues, firstStagedAt: number];

const LIST_COLUMNS = [...ITEM_COLUMNS, 'first_staged_at'] as const;

/** The caller's granted supplier with this code, as a subquery (see grantedSupplierQuery). */
const grantedSupplierId = (
  db: Kysely<Database>,
  organisationId: number,
  keyVersion: number,
  code: string,
) => grantedSupplierQuery(db, organisationId, keyVersion, code).select('s.id');

/** Which supplier's processes: its id, or the caller's granted supplier by code. */
type SupplierOf = number | ReturnType<typeof grantedSupplierId>;

/**
 * The columns of a pending item: a process with no account yet has neither a number nor a
 * creation time, so they are written as literals rather than read from each row. The page
 * then reads only columns of the pending index (on SQLite, migration 20261124_0005 puts the
 * columns of every list's page in its index).
 */
const PENDING_COLUMNS = [
  'external_account_number',
  sql<string | null>`null`.as('service_account_number'),
  sql<number | null>`null`.as('account_created_at'),
  'first_staged_at',
] as const;

function listQuery(db: Kysely<Database>, supplier: SupplierOf, kind: ListKind) {
  const processes = db.selectFrom('import_processes').where('supplier_id', '=', supplier);
  // Literal states (not bound parameters) let the planners match the partial list indexes.
  if (kind === 'pending') {
    return processes.select(PENDING_COLUMNS).where('state', '<>', sql.lit('completed'));
  }
  const query = processes.select(LIST_COLUMNS);
  return kind === 'imported' ? query.where('state', '=', sql.lit('completed')) : query;
}

/** The page of `limit` rows in (first staging time, external number) order after `after`. */
function keysetPage(
  query: ReturnType<typeof listQuery>,
  limit: number | RawBuilder<number>,
  after?: { time: number; number: string },
) {
  const rest = after
    ? query.where((eb) =>
        eb(
          eb.refTuple('first_staged_at', 'external_account_number'),
          '>',
          eb.tuple(after.time, after.number),
        ),
      )
    : query;
  return rest.orderBy('first_staged_at').orderBy('external_account_number').limit(limit);
}

/** A page of `rows` rows of one list for the caller, after the cursor if there is one. */
type CallerPage = (rows: number | RawBuilder<number>) => ReturnType<typeof keysetPage>;

/**
 * The page's items joined by commas, in page order. SQLite's group_concat joins the rows in the
 * order the page's subquery gives them; an ORDER BY of its own would sort them again, which made
 * the statement half as costly again (a test checks the order). PostgreSQL documents that order
 * only as what "will usually work", so its string_agg sorts the page's rows once more, for about
 * 15 µs of its CPU a page (PostgreSQL 16 skips a sort its input already satisfies).
 */
const SQLITE_ITEMS = sql<string | null>`group_concat(${ITEM_SQL.sqlite}, ',')`;
const POSTGRES_ITEMS = sql<
  string | null
>`string_agg(${ITEM_SQL.postgres}, ',' order by first_staged_at, external_account_number)`;

/**
 * One row describing the page of `limit` rows: its items' JSON joined by commas, how many, the
 * staging time of the last (the largest, in page order), and how many rows the page would have
 * with one more allowed (more than `limit`: a next page exists). SQLite's statement: that last
 * count reads the page again, for about 14 µs of its 80 µs a page.
 */
function lookAheadPageQuery(db: Kysely<Database>, page: CallerPage, limit: number) {
  return db.selectFrom(page(limit).as('page')).select((eb) => [
    SQLITE_ITEMS.as('items'),
    sql<number>`count(*)`.as('count'),
    sql<number | null>`max(first_staged_at)`.as('last_staged_at'),
    eb
      .selectFrom(page(sql<number>`${limit} + 1`).as('ahead'))
      .select(sql<number>`count(*)`.as('rows'))
      .as('ahead'),
  ]);
}

type LookAheadPageRow = [
  items: string | null,
  count: number,
  lastStagedAt: number | null,
  ahead: number,
];

/**
 * PostgreSQL's statement: one row describing `limit + 1` rows, the page and the row after it,
 * if any. The row after it tells that a next page exists, and its item is dropped from the text
 * (pageText). The staging time of the page's last item is the `limit`-th, which a sorted
 * `array_agg` finds. Counting a second page of one more row, as SQLite does, read those rows
 * again, heap visits included (PostgreSQL's list indexes do not cover the page's columns), for
 * 30–60 µs of PostgreSQL's 210–270 µs a page; the sort of the staging times costs about 15 µs.
 */
function extraRowPageQuery(db: Kysely<Database>, page: CallerPage, limit: number) {
  return db
    .selectFrom(page(sql<number>`${limit} + 1`).as('page'))
    .select([
      POSTGRES_ITEMS.as('items'),
      sql<number>`count(*)`.as('count'),
      sql<
        number | null
      >`(array_agg(first_staged_at order by first_staged_at, external_account_number))[${limit}]`.as(
        'limit_staged_at',
      ),
      sql<number | null>`max(first_staged_at)`.as('last_staged_at'),
    ]);
}

type ExtraRowPageRow = [
  items: string | null,
  count: number,
  limitStagedAt: number | null,
  lastStagedAt: number | null,
];

type PageTextRow = LookAheadPageRow | ExtraRowPageRow;

/** How a dialect writes a page as text: its statement, and how its row reads. */
interface PageTextStrategy {
  query(db: Kysely<Database>, page: CallerPage, limit: number): Compilable;
  read(row: PageTextRow, limit: number): PageText;
}

type Compilable = ReturnType<typeof lookAheadPageQuery> | ReturnType<typeof extraRowPageQuery>;

const PAGE_TEXT: PerDialect<PageTextStrategy> = {
  sqlite: { query: lookAheadPageQuery, read: lookAheadText },
  postgres: { query: extraRowPageQuery, read: extraRowText },
};

/** The keyset position a page starts after (see keysetPage). */
interface After {
  time: number;
  number: string;
}

/** A page of the caller's list: the caller, the supplier's code and the page's size. */
interface CallerList {
  organisationId: number;
  keyVersion: number;
  code: string;
  limit: number;
}

/** A list's first page for a caller and its page after a cursor, as one row of text each. */
function callerPages(kind: ListKind) {
  const ofCaller = (db: Kysely<Database>, p: CallerList) =>
    listQuery(db, grantedSupplierId(db, p.organisationId, p.keyVersion, p.code), kind);
  const pageText = (db: Kysely<Database>, p: CallerList, after?: After) =>
    storageOf(db)
      .pick(PAGE_TEXT)
      .query(db, (rows) => keysetPage(ofCaller(db, p), rows, after), p.limit);
  return {
    first: compiledArrayQuery<CallerList, PageTextRow>((db, p) => pageText(db, p)),
    after: compiledArrayQuery<CallerList & After, PageTextRow>((db, p) => pageText(db, p, p)),
  };
}

/** A page of a supplier's list, of `limit` rows. */
interface SupplierList {
  supplierId: number;
  limit: number;
}

function listQueries(kind: ListKind) {
  return {
    first: compiledArrayQuery<SupplierList, ListRow>((db, p) =>
      keysetPage(listQuery(db, p.supplierId, kind), p.limit),
    ),
    after: compiledArrayQuery<SupplierList & After, ListRow>((db, p) =>
      keysetPage(listQuery(db, p.supplierId, kind), p.limit, p),
    ),
    caller: callerPages(kind),
  };
}

const LISTS = {
  all: listQueries('all'),
  pending: listQueries('pending'),
  imported: listQueries('imported'),
};

export interface ListCursor {
  firstStagedAt: number;
  externalAccountNumber: string;
}

/** The cursor as the page statements bind it. */
const keyOf = (cursor: ListCursor): After => ({
  time: cursor.firstStagedAt,
  number: cursor.externalAccountNumber,
});

/** One keyset page of a supplier's processes, in (first staging time, external number) order. */
export async function listProcesses(
  db: Executor,
  supplierId: number,
  kind: ListKind,
  limit: number,
  after: ListCursor | undefined,
): Promise<ListRow[]> {
  const queries = LISTS[kind];
  const result = after
    ? await queries.after(db, { supplierId, limit, ...keyOf(after) })
    : await queries.first(db, { supplierId, limit });
  return result.rows;
}

/** A page a caller asks for: of the list of the supplier with this code, after the cursor. */
export interface CallerPageRequest {
  caller: { organisationId: number; keyVersion: number };
  code: string;
  kind: ListKind;
  limit: number;
  after: ListCursor | undefined;
}

/** A page as the database writes it (listCallerPage). */
export interface PageText {
  /** The items' JSON, joined by commas: empty for an empty page. */
  items: string;
  count: number;
  /** The staging time of the page's last item; null for an empty page. */
  lastStagedAt: number | null;
  /** Whether rows follow the page. */
  more: boolean;
}

/**
 * Like listProcesses, for the supplier with this code, in the statement that checks that the
 * caller's organisation is active and granted it: one round trip for a page instead of two.
 * Empty when it is not, as when the list is: the caller tells them apart. The items come
 * written as JSON by the database itself: reading a hundred rows into JavaScript arrays and
 * formatting them cost the service more than the database's writing the text
 * (docs/decisions.md).
 */
export async function listCallerPage(
  db: Executor,
  { caller: { organisationId, keyVersion }, code, kind, limit, after }: CallerPageRequest,
): Promise<PageText> {
  const pages = LISTS[kind].caller;
  const list = { organisationId, keyVersion, code, limit };
  const result = after
    ? await pages.after(db, { ...list, ...keyOf(after) })
    : await pages.first(db, list);
  return storageOf(db)
    .pick(PAGE_TEXT)
    .read(result.rows[0] as PageTextRow, limit);
}

function lookAheadText(row: PageTextRow, limit: number): PageText {
  const [items, count, lastStagedAt, ahead] = row as LookAheadPageRow;
  return { items: items ?? '', count, lastStagedAt, more: ahead > limit };
}

function extraRowText(row: PageTextRow, limit: number): PageText {
  const [items, count, limitStagedAt, lastStagedAt] = row as ExtraRowPageRow;
  if (count <= limit) return { items: items ?? '', count, lastStagedAt, more: false };
  // The row after the page is the last item; the comma before it goes too.
  const text = items as string;
  return {
    items: text.slice(0, text.lastIndexOf(ITEM_START) - 1),
    count: limit,
    lastStagedAt: limitStagedAt,
    more: true,
  };
}
