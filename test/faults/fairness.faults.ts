/**
 * Promise 9: one organisation does not slow the others. Organisation B reads the unpaged list
 * of a 20,000-account supplier on 16 connections at once, honouring Retry-After, while
 * organisation A makes its ordinary status and list-page calls; then B sends the error
 * amplification bodies (852 KB, 90,000 unknown keys, at the top and inside meter_points[0]) to
 * validate-account, and the first to stage, in a loop while A is measured again. Asserted:
 * every answer to A a 200; B's lists streamed within its share and the rest refused with 429
 * and Retry-After; B's bodies refused with at most 1,000 error items; A's p99 during each phase
 * within 3x its unloaded p99 (A alone, before and after). The bodies are read and validated on
 * the large bodies' thread, at the lowest CPU priority, one at a time per organisation; the
 * stream and the bodies pause while A is being served (http/fair-pace.ts). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { createOrganisation } from '../helpers/auth.js';
import { buildAccount, buildSupplyAddress } from '../account/factory.js';
import { stageMany } from '../helpers/staging.js';
import { Client, obtainTokenOver, percentile, type Outcome } from './harness/client.js';
import { SUPPLIER, createFaultsDatabase, type FaultsDatabase } from './harness/fixture.js';
import { ServiceProcess, freePort } from './harness/service.js';

const BULK_SUPPLIER = 'BULK';
const BULK_ACCOUNTS = 20_000;
const A_ACCOUNTS = 200;
const LIST_STREAMS = 16;
/** A's requests per phase (two clients), and the longest the loaded phase may last. */
const A_REQUESTS = 1_000;
const LOADED_WITHIN_MS = 30_000;
const BASE = '/v1/data-import';

const unknownKeys = (count: number) =>
  `{${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')}}`;

/** The two error amplification bodies of the report: 90,000 unknown keys, top and nested. */
function amplificationBodies(): [topLevel: string, nested: string] {
  const keys = unknownKeys(90_000);
  const account = buildAccount({
    import_supplier: BULK_SUPPLIER,
    supply_addresses: [buildSupplyAddress({ meter_points: ['@@'] })],
  });
  // A meter point is told apart by its supply type: with one, every unknown key is an error.
  const point = `{"supply_type":"ELECTRICITY",${keys.slice(1)}`;
  return [keys, JSON.stringify(account).replace('"@@"', point)];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seconds of a 429's Retry-After, or undefined when it has none. */
function retryAfter(outcome: Outcome): number | undefined {
  if (outcome.kind !== 'reply' || outcome.status !== 429) return undefined;
  const value = Number(outcome.headers['retry-after']);
  return Number.isFinite(value) ? value : undefined;
}

/** How far past its unloaded p99 A may go while B floods (RELIABILITY.md, promise 9). */
const PROMISE = 3;

await describeEachDialect('one organisation does not slow another', (dialect) => {
  let database: FaultsDatabase;
  let service: ServiceProcess | undefined;
  let tokenB = '';
  beforeAll(async () => {
    database = await createFaultsDatabase(dialect);
    const db = database.open();
    try {
      const acme = await db.kysely
        .selectFrom('organisations')
        .select('id')
        .where('name', '=', 'acme')
        .executeTakeFirstOrThrow();
      await stageMany(db, Number(acme.id), SUPPLIER, 'A', A_ACCOUNTS);
      const bulk = await createOrganisation(db, 'bulk', [BULK_SUPPLIER]);
      tokenB = bulk.apiKey;
      await stageMany(db, bulk.id, BULK_SUPPLIER, 'B', BULK_ACCOUNTS);
    } finally {
      await db.close();
    }
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database.destroy();
  });

  it('holds A within 3x its unloaded p99 while B floods unpaged lists, then amplification bodies', async () => {
    service = await ServiceProcess.start({ databaseUrl: database.url, port: await freePort() });
    const a = new Client(service.url, { connections: 2 });
    a.token = await obtainTokenOver(a, database.apiKey);
    const b = new Client(service.url, { connections: LIST_STREAMS + 4, timeoutMs: 30_000 });
    b.token = await obtainTokenOver(b, tokenB);

    const aOutcomes: Outcome[] = [];
    let aCalls = 0;
    /** A's ordinary calls: the status of one of its accounts, then a page of its list. */
    const aClient = async (count: number, until: () => boolean, record: boolean) => {
      for (let i = 0; i < count && !until(); i++) {
        const n = aCalls++;
        const path =
          n % 2 === 0
            ? `${BASE}/account-transfer-status/${SUPPLIER}/A-${n % A_ACCOUNTS}/`
            : `${BASE}/pending-account-import-processes/${SUPPLIER}/?limit=20`;
        const outcome = await a.send('GET', path);
        if (record) aOutcomes.push(outcome);
      }
    };
    const aPhase = async (until: () => boolean = () => false) => {
      const from = aOutcomes.length;
      await Promise.all([
        aClient(A_REQUESTS / 2, until, true),
        aClient(A_REQUESTS / 2, until, true),
      ]);
      return aOutcomes.slice(from);
    };
    const p99 = (outcomes: Outcome[]) =>
      percentile(
        outcomes.map((o) => o.ms),
        99,
      );
    const p50 = (outcomes: Outcome[]) =>
      percentile(
        outcomes.map((o) => o.ms),
        50,
      );

    await aClient(200, () => false, false); // warm-up
    const before = await aPhase();

    /** A measured while B sends with each of `senders` in a loop, honouring Retry-After. */
    const underFlood = async (senders: (() => Promise<Outcome>)[]) => {
      let stopping = false;
      const answers: Outcome[] = [];
      const loop = async (send: () => Promise<Outcome>) => {
        while (!stopping) {
          const outcome = await send();
          answers.push(outcome);
          const wait = retryAfter(outcome);
          if (wait !== undefined) await pause(wait * 1000);
          else if (outcome.kind === 'failure') await pause(50);
        }
      };
      const flood = senders.map(loop);
      // Let the flood reach full strength before A measures.
      while (answers.length < senders.length) await pause(50);
      const started = Date.now();
      const measured = await aPhase(() => Date.now() - started > LOADED_WITHIN_MS);
      stopping = true;
      await Promise.all(flood);
      return { measured, answers };
    };

    const listPath = `${BASE}/all-account-import-processes/${BULK_SUPPLIER}/`;
    const lists = await underFlood(
      Array.from({ length: LIST_STREAMS }, () => () => b.drain(listPath)),
    );
    const [topLevel, nestedKeys] = amplificationBodies();
    const post = (path: string, body: string) => () =>
      b.send('POST', `${BASE}/${path}/`, undefined, {
        raw: body,
        headers: { 'content-type': 'application/json' },
      });
    const amplified = await underFlood([
      post('validate-account', topLevel),
      post('validate-account', nestedKeys),
      post('account-import-process/create-or-update', topLevel),
    ]);
    const after = await aPhase();
    await Promise.all([a.close(), b.close()]);

    const unloadedP99 = (p99(before) + p99(after)) / 2;
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const tally = (outcomes: Outcome[]) => {
      const byStatus: Record<string, number> = {};
      for (const o of outcomes) {
        const key = o.kind === 'reply' ? String(o.status) : o.code;
        byStatus[key] = (byStatus[key] ?? 0) + 1;
      }
      return byStatus;
    };
    const phase = (name: string, { measured, answers }: Awaited<ReturnType<typeof underFlood>>) =>
      [
        `A during ${name}: ${measured.length} requests, p50 ${ms(p50(measured))},`,
        `p99 ${ms(p99(measured))} (${(p99(measured) / unloadedP99).toFixed(2)}x), max`,
        `${ms(Math.max(...measured.map((o) => o.ms)))}; B ${JSON.stringify(tally(answers))};`,
      ].join(' ');
    console.log(
      [
        `[fairness ${dialect}] A alone p99 ${ms(unloadedP99)} (before ${ms(p99(before))},`,
        `after ${ms(p99(after))}; p50 ${ms(p50(before))});`,
        phase(`${LIST_STREAMS} unpaged lists`, lists),
        phase('the amplification bodies', amplified),
      ].join(' '),
    );

    // A is always served.
    const aStatuses = new Set(aOutcomes.map((o) => (o.kind === 'reply' ? o.status : o.code)));
    expect([...aStatuses]).toEqual([200]);
    // B's lists: streamed within its share, the rest refused with 429 and Retry-After.
    const listTally = tally(lists.answers);
    expect(Object.keys(listTally).sort()).toEqual(['200', '429']);
    for (const o of lists.answers) {
      if (o.kind === 'reply' && o.status === 429) expect(retryAfter(o)).toBeGreaterThan(0);
    }
    // B's bodies: refused with at most 1,000 error items, the last saying more were found.
    const refusals = amplified.answers.filter((o) => o.kind === 'reply' && o.status === 400);
    expect(refusals.length).toBeGreaterThan(0);
    for (const o of refusals) {
      const { errors } = (o as { json: { errors: { code: string }[] } }).json;
      expect(errors).toHaveLength(1000);
      expect(errors.at(-1)?.code).toBe('too_many_errors');
    }
    // On enough of A's requests for a p99 (a phase stops after LOADED_WITHIN_MS).
    for (const { measured } of [lists, amplified]) {
      expect(measured.length).toBeGreaterThanOrEqual(A_REQUESTS / 2);
      expect(p99(measured)).toBeLessThanOrEqual(PROMISE * unloadedP99);
    }
  });
});
