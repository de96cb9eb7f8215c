/**
 * The supplier feed, GET /v2/data-import/events/{supplier}/: paging by cursor, its refusals,
 * and its promise that a consumer following the cursor sees every committed event exactly once,
 * here with many writers committing (and rolling back) while it reads.
 */
import { randomInt } from 'node:crypto';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { Executor } from '../../src/db/database.js';
import { recordEvents } from '../../src/events/events.repository.js';
import { PATHS, useTestService, type TestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { buildAccount } from '../account/factory.js';

const feedPath = (supplier: string, query = '') => `/v2/data-import/events/${supplier}/${query}`;

interface FeedItem {
  id: number;
  external_account_number: string;
  event: string;
  data: Record<string, unknown> | null;
}
interface FeedAnswer {
  events: FeedItem[];
  next: string | null;
}

async function readFeed(service: TestService, after: string | null, limit: number) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (after !== null) query.set('after', after);
  const response = await service.request({ method: 'GET', url: feedPath('DEMO', `?${query}`) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<FeedAnswer>();
}

/** The demo supplier's id. */
async function demoId(service: TestService): Promise<number> {
  const row = await service.db.kysely
    .selectFrom('import_suppliers')
    .select('id')
    .where('code', '=', 'DEMO')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

await describeEachDialect('supplier event feed', (dialect) => {
  const service = useTestService(dialect);

  it('pages through the events in order, and an empty page keeps the cursor', async () => {
    for (let i = 0; i < 5; i++) {
      const payload = buildAccount({ external_account_number: `F-${i}` });
      const response = await service.request({ method: 'POST', url: PATHS.stage, payload });
      expect(response.statusCode).toBe(201);
    }
    const seen: FeedItem[] = [];
    let after: string | null = null;
    for (let page = 0; page < 3; page++) {
      const answer = await readFeed(service, after, 2);
      expect(answer.events.length).toBe(page < 2 ? 2 : 1);
      seen.push(...answer.events);
      after = answer.next;
    }
    expect(seen.map((item) => item.external_account_number)).toEqual([
      'F-0',
      'F-1',
      'F-2',
      'F-3',
      'F-4',
    ]);
    expect(seen[0]).toMatchObject({
      event: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED',
      data: { version: 1, created: true },
    });
    const empty = await readFeed(service, after, 2);
    expect(empty).toEqual({ events: [], next: after });
    // A default page holds them all.
    const whole = await service.request({ method: 'GET', url: feedPath('DEMO').slice(0, -1) });
    expect(whole.json<FeedAnswer>().events).toHaveLength(5);
  });

  it('refuses a bad cursor or limit with 400, naming each', async () => {
    for (const query of ['?after=abc', '?after=WzEsMl0x', '?limit=0', '?limit=1001', '?limit=x']) {
      const response = await service.request({ method: 'GET', url: feedPath('DEMO', query) });
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'malformed_request' });
    }
    const both = await service.request({
      method: 'GET',
      url: feedPath('DEMO', `?after=${Buffer.from('[-1,2]').toString('base64url')}&limit=-3`),
    });
    expect(both.json<{ errors: { code: string; attr: string }[] }>().errors).toEqual([
      expect.objectContaining({ code: 'min_value', attr: 'limit' }),
      expect.objectContaining({ code: 'invalid_cursor', attr: 'after' }),
    ]);
  });

  it('refuses a cursor it could not have issued, past the log or of the other database', async () => {
    const payload = buildAccount({ external_account_number: 'F-LAST' });
    expect((await service.request({ method: 'POST', url: PATHS.stage, payload })).statusCode).toBe(
      201,
    );
    const cursor = (position: [number, number]) =>
      Buffer.from(JSON.stringify(position)).toString('base64url');
    // The end of the log, however long it is.
    let next: string | null = null;
    for (let page = await readFeed(service, null, 1000); page.events.length > 0;) {
      next = page.next;
      page = await readFeed(service, next, 1000);
    }
    const [transactionId, id] = JSON.parse(Buffer.from(next as string, 'base64url').toString()) as [
      number,
      number,
    ];
    const forged = [
      cursor([transactionId, id + 1_000_000]),
      // SQLite's cursors have no transaction part; PostgreSQL's never name a running one.
      cursor(dialect === 'sqlite' ? [1, id] : [transactionId + 1_000_000, id]),
    ];
    for (const after of forged) {
      const response = await service.request({
        method: 'GET',
        url: feedPath('DEMO', `?after=${after}`),
      });
      expect(response.statusCode, after).toBe(400);
      expect(response.json().errors).toEqual([
        expect.objectContaining({ code: 'invalid_cursor', attr: 'after' }),
      ]);
    }
    // The last cursor issued still reads an empty page.
    expect(await readFeed(service, next, 10)).toEqual({ events: [], next });
  });

  it('is refused without a token, and for a supplier not granted to the caller', async () => {
    expect((await service.app.inject({ method: 'GET', url: feedPath('DEMO') })).statusCode).toBe(
      401,
    );
    for (const supplier of ['OTHER', 'NOPE']) {
      const response = await service.request({ method: 'GET', url: feedPath(supplier) });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'import_supplier_not_found' });
    }
  });

  it('serves every committed event once to a consumer reading while many writers commit', async () => {
    const supplierId = await demoId(service);
    const WRITERS = 8;
    const TRANSACTIONS = 12;
    const { db } = service;
    let start = await readFeed(service, null, 1000);
    while (start.events.length > 0) start = await readFeed(service, start.next, 1000);

    /** One writer: transactions of 1-5 events, with turns given away inside, a quarter rolled back. */
    async function writer(w: number): Promise<void> {
      for (let t = 0; t < TRANSACTIONS; t++) {
        const rollBack = randomInt(4) === 0;
        const work = async (trx: Executor) => {
          const count = 1 + randomInt(5);
          for (let e = 0; e < count; e++) {
            await recordEvents(trx, [
              {
                supplierId,
                externalAccountNumber: `W-${w}-${t}-${e}`,
                event: 'EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_REMOVED',
                occurredAt: Date.now(),
              },
            ]);
            for (let turn = randomInt(4); turn > 0; turn--) await yieldTurn();
          }
          if (rollBack) throw new RolledBack();
        };
        await db.storage.atomicWrite(db.kysely, work).catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
      }
    }

    const consumed: FeedItem[] = [];
    let cursor = start.next;
    let writing = true;
    const consumer = (async () => {
      // Reads on while the writers write, then once more after they are done.
      for (let last = false; ;) {
        const answer = await readFeed(service, cursor, 1 + randomInt(7));
        consumed.push(...answer.events);
        cursor = answer.next;
        if (answer.events.length === 0) {
          if (last) return;
          if (!writing) last = true;
          await yieldTurn();
        }
      }
    })();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    await consumer;

    const committed = await db.kysely
      .selectFrom('account_events')
      .select(['id', 'external_account_number'])
      .where('supplier_id', '=', supplierId)
      .where('external_account_number', 'like', 'W-%')
      .execute();
    const ids = consumed.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(
      committed.map((row) => Number(row.id)).sort((a, b) => a - b),
    );
    expect(committed.length).toBeGreaterThan(WRITERS * 2);
    // Within one transaction the events keep their order.
    const byTransaction = new Map<string, number[]>();
    for (const item of consumed) {
      const key = item.external_account_number.split('-').slice(0, 3).join('-');
      byTransaction.set(key, [...(byTransaction.get(key) ?? []), item.id]);
    }
    for (const group of byTransaction.values()) {
      expect(group).toEqual([...group].sort((a, b) => a - b));
    }
  });
});

class RolledBack extends Error {}
