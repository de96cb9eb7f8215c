/** The three supplier lists (docs/interface.md, Endpoints). */
import { Readable } from 'node:stream';
import {
  confirmSupplierAccess,
  confirmWith,
  refuseConfirmed,
  type Caller,
  type ConfirmedCaller,
} from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import type { ImportSupplier } from '../../db/database.js';
import type { FieldError } from '../../errors.js';
import {
  decodedCursor,
  encodedCursor,
  invalidCursor,
  isProblem,
  pageSize,
  problemsRefused,
} from '../../http/query-params.js';
import type { FairPace } from '../../http/fair-pace.js';
import { holderOf, type OrganisationShares } from '../../http/organisation-shares.js';
import { supplierNotFound } from '../imports.errors.js';
import { ITEM_START, itemJson } from './list-item.js';
import {
  listCallerPage,
  listProcesses,
  type ListCursor,
  type ListKind,
  type ListRow,
  type PageText,
} from './lists.repository.js';

export const MAX_PAGE_SIZE = 1000;
/** Rows per batch of an unpaged list: each holds the event loop while it is read and written. */
const STREAM_BATCH = 250;

export function encodeCursor(firstStagedAt: number, externalAccountNumber: string): string {
  return encodedCursor([firstStagedAt, externalAccountNumber]);
}

/** The cursor `raw` names, or why it names none. */
function decodeCursor(raw: unknown): ListCursor | FieldError {
  const decoded = decodedCursor(raw);
  if (isProblem(decoded)) return decoded;
  const { value } = decoded;
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    Number.isSafeInteger(value[0]) &&
    typeof value[1] === 'string' &&
    !value[1].includes('\u0000')
  ) {
    return { firstStagedAt: value[0] as number, externalAccountNumber: value[1] };
  }
  return invalidCursor();
}

export interface ListQuery {
  limit?: unknown;
  after?: unknown;
}

/** The page's size and cursor; every problem of both is reported at once (400). */
function pageQuery(query: ListQuery): { limit: number; after: ListCursor | undefined } {
  const limit = query.limit === undefined ? MAX_PAGE_SIZE : pageSize(query.limit, MAX_PAGE_SIZE);
  const after = query.after === undefined ? undefined : decodeCursor(query.after);
  if (!isProblem(limit) && !isProblem(after)) return { limit, after };
  throw problemsRefused([limit, after]);
}

export type ListResult =
  { kind: 'page'; body: string; next: string | undefined } | { kind: 'stream'; body: Readable };

/**
 * A list request's caller, confirmed with the list's first query: the supplier, for the whole
 * list; the page itself for a page request (a page with rows proves the caller and the grant;
 * an empty one checks them on its own).
 */
export type ListAccess =
  | { readonly caller: ConfirmedCaller; readonly supplier: ImportSupplier | undefined }
  | { readonly caller: ConfirmedCaller; readonly granted: boolean; readonly page: PageText };

/**
 * The first step of a list request: its paging parameters are read (a refusal is thrown once
 * the caller is confirmed on its own) and the caller confirmed with the list's first query.
 */
export async function confirmList(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  kind: ListKind,
  query: ListQuery,
): Promise<ListAccess> {
  if (query.limit === undefined && query.after === undefined) {
    return confirmSupplierAccess(ctx.db, caller, supplierCode);
  }
  let paging: { limit: number; after: ListCursor | undefined };
  try {
    paging = pageQuery(query);
  } catch (refusal) {
    return refuseConfirmed(ctx.db, caller, refusal);
  }
  const request = { caller, code: supplierCode, kind, ...paging };
  const page = await listCallerPage(ctx.db.kysely, request);
  if (page.count > 0) {
    return { caller: (await confirmWith(caller, async () => page)).caller, granted: true, page };
  }
  const access = await confirmSupplierAccess(ctx.db, caller, supplierCode);
  return { caller: access.caller, granted: access.supplier !== undefined, page };
}

/** What an unpaged list takes its share from, and how it gives way to other organisations. */
export interface StreamShares {
  streams: OrganisationShares;
  pace: FairPace;
}

/**
 * A page when `limit` or `after` is given; otherwise the whole list, streamed in batches, as one
 * of the caller's organisation's `streams` (429 when it has none left) until the stream closes.
 */
export function listImportProcesses(
  ctx: AppContext,
  access: ListAccess,
  supplierCode: string,
  kind: ListKind,
  { streams, pace }: StreamShares,
): ListResult {
  if (!('page' in access)) {
    if (!access.supplier) throw supplierNotFound(supplierCode);
    const giveBack = streams.take(access.caller.organisationId);
    const holder = holderOf(access.caller);
    const giveWay = (busyMs: number) => pace.giveWay(holder, busyMs);
    const body = Readable.from(streamAll(ctx, access.supplier.id, kind, giveWay));
    body.once('close', giveBack);
    return { kind: 'stream', body };
  }
  const { page, granted } = access;
  if (!granted) throw supplierNotFound(supplierCode);
  return {
    kind: 'page',
    body: `[${page.items}]`,
    next:
      page.more && page.lastStagedAt !== null
        ? encodeCursor(page.lastStagedAt, lastExternalNumber(page.items))
        : undefined,
  };
}

/** The external number of the last of a page's items (see ITEM_START). */
function lastExternalNumber(items: string): string {
  const item = JSON.parse(items.slice(items.lastIndexOf(ITEM_START))) as {
    external_account_number: string;
  };
  return item.external_account_number;
}

/**
 * Walks the list in keyset batches rather than one long cursor, so memory stays flat and no
 * connection (SQLite has one) is held while a slow client reads. Between batches the stream
 * gives way (`giveWay`, with the time the batch took): a fast reader would otherwise pull batch
 * after batch (a SQLite read runs on the loop) while every other request waited.
 */
async function* streamAll(
  ctx: AppContext,
  supplierId: number,
  kind: ListKind,
  giveWay: (busyMs: number) => Promise<void>,
): AsyncGenerator<string> {
  let after: ListCursor | undefined;
  let first = true;
  yield '[';
  for (;;) {
    const started = performance.now();
    const rows = await listProcesses(ctx.db.kysely, supplierId, kind, STREAM_BATCH, after);
    if (rows.length === 0) break;
    let chunk = '';
    for (const row of rows) {
      chunk += (first ? '' : ',') + itemJson(row);
      first = false;
    }
    const busyMs = performance.now() - started;
    yield chunk;
    const [externalAccountNumber, , , firstStagedAt] = rows[rows.length - 1] as ListRow;
    if (rows.length < STREAM_BATCH) break;
    after = { firstStagedAt, externalAccountNumber };
    await giveWay(busyMs);
  }
  yield ']';
}
