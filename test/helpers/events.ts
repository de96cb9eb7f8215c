/** An account's timeline (GET /v2/data-import/accounts/{supplier}/{external}/events/), as tests read it. */
import { expect } from 'vitest';
import type { TestService } from './app.js';

export const timelinePath = (supplier: string, external: string) =>
  `/v2/data-import/accounts/${supplier}/${encodeURIComponent(external)}/events/`;

export interface TimelineItem {
  event: string;
  occurred_at: string;
  data: Record<string, unknown> | null;
  request_id: string | null;
}

/** The account's events, oldest first (DEMO's by default). */
export async function timeline(
  service: TestService,
  external: string,
  supplier = 'DEMO',
): Promise<TimelineItem[]> {
  const response = await service.request({ method: 'GET', url: timelinePath(supplier, external) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TimelineItem[]>();
}

/** The request id a response was answered with (X-Request-Id), which its events carry. */
export const requestIdOf = (response: { headers: Record<string, unknown> }) =>
  response.headers['x-request-id'] as string;

/**
 * Expects the DEMO account's newest event to be `event` with `data`, caused by `response` (a
 * request id of null when there is none: the CLI's).
 */
export async function expectLastEvent(
  service: TestService,
  external: string,
  event: string,
  data: Record<string, unknown>,
  response?: { headers: Record<string, unknown> },
): Promise<void> {
  const last = (await timeline(service, external)).at(-1);
  const requestId = response === undefined ? null : requestIdOf(response);
  expect(last).toEqual({ event, occurred_at: expect.any(String), data, request_id: requestId });
  expect(requestId === null || requestId.length > 0).toBe(true);
}

/** How many events the log holds, of every account (to prove a refusal recorded none). */
export async function eventCount(service: TestService): Promise<number> {
  const row = await service.db.kysely
    .selectFrom('account_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
