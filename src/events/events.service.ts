/** One account's timeline and a supplier's feed (docs/interface.md, Account events). */
import {
  confirmSupplierAccess,
  confirmWith,
  refuseConfirmed,
  type Caller,
} from '../auth/access.js';
import type { AppContext } from '../context.js';
import { isoTime } from '../datetime.js';
import type { ImportSupplier } from '../db/database.js';
import { ServiceError, supplierNotFound, type FieldError } from '../errors.js';
import {
  decodedCursor,
  encodedCursor,
  invalidCursor,
  isProblem,
  pageSize,
  problemsRefused,
} from '../http/query-params.js';
import type { AccountEvent } from './events.repository.js';
import { findCallerTimeline } from './events.repository.js';
import { FEED_START, feedPage, positionHeld, type FeedPosition } from './feed.repository.js';

/** An event as the timeline answers it. */
export interface TimelineEvent {
  event: string;
  occurred_at: string;
  data: Record<string, unknown> | null;
  request_id: string | null;
}

const timelineEvent = (event: AccountEvent): TimelineEvent => ({
  event: event.event,
  occurred_at: isoTime(event.occurredAt),
  data: event.data,
  request_id: event.requestId,
});

/** The supplier `code`, granted to the caller (confirmed first); 404 otherwise. */
async function grantedSupplier(
  ctx: AppContext,
  caller: Caller,
  code: string,
): Promise<ImportSupplier> {
  const { supplier } = await confirmSupplierAccess(ctx.db, caller, code);
  if (!supplier) throw supplierNotFound(code);
  return supplier;
}

/**
 * Every event of one account, oldest first, read in the statement that confirms the caller;
 * 404 when the supplier is not granted to the caller, or when nothing was ever recorded.
 */
export async function accountTimeline(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  externalAccountNumber: string,
): Promise<TimelineEvent[]> {
  const { found } = await confirmWith(caller, (unconfirmed) =>
    findCallerTimeline(ctx.db.kysely, unconfirmed, supplierCode, externalAccountNumber),
  );
  const { supplier, events } = found;
  if (!supplier) throw supplierNotFound(supplierCode);
  if (events.length === 0) {
    throw new ServiceError({
      code: 'account_events_not_found',
      detail: `Nothing was ever recorded for account ${externalAccountNumber} of ${supplier.code}.`,
    });
  }
  return events.map(timelineEvent);
}

/** The feed's page size when none is asked for, and the largest one may ask for. */
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 1000;

export interface FeedQuery {
  after?: unknown;
  limit?: unknown;
}

/** An event as the feed answers it: the timeline's, with its id and its account. */
export interface FeedItem extends TimelineEvent {
  id: number;
  external_account_number: string;
}

export interface FeedAnswer {
  events: FeedItem[];
  /** Where to read on from: after the last event served, or the position asked for. */
  next: string | null;
}

const encodePosition = ({ transactionId, id }: FeedPosition) => encodedCursor([transactionId, id]);

/** The feed position a cursor names, or why it names none. */
function decodePosition(raw: unknown): FeedPosition | FieldError {
  const decoded = decodedCursor(raw);
  if (isProblem(decoded)) return decoded;
  const { value } = decoded;
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((part) => Number.isSafeInteger(part) && (part as number) >= 0)
  ) {
    return { transactionId: value[0] as number, id: value[1] as number };
  }
  return invalidCursor();
}

/**
 * Up to `limit` events of the supplier after the cursor `after`, in the feed's order (README.md,
 * "The feed's order"). A bad cursor or limit is refused (400) once the caller is confirmed.
 */
export async function supplierFeed(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  query: FeedQuery,
): Promise<FeedAnswer> {
  const limit =
    query.limit === undefined ? FEED_DEFAULT_LIMIT : pageSize(query.limit, FEED_MAX_LIMIT);
  const after = query.after === undefined ? FEED_START : decodePosition(query.after);
  if (isProblem(limit) || isProblem(after)) {
    return refuseConfirmed(ctx.db, caller, problemsRefused([limit, after]));
  }
  const supplier = await grantedSupplier(ctx, caller, supplierCode);
  const page = await feedPage(ctx.db, supplier.id, after, limit);
  if (page.length === 0 && !(await positionHeld(ctx.db, after))) {
    throw problemsRefused([invalidCursor()]);
  }
  const last = page[page.length - 1];
  const events = page.map((event) => ({
    id: event.id,
    external_account_number: event.externalAccountNumber,
    ...timelineEvent(event),
  }));
  const next = last ? encodePosition(last.position) : ((query.after as string | undefined) ?? null);
  return { events, next };
}
