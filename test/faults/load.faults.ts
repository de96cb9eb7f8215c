/**
 * Promise 8: load held. With PROCESS_CONCURRENCY_LIMIT=2, four clients (twice the limit) send
 * process requests without pause for FAULTS_LOAD_SECONDS (60 by default), each creating
 * accounts staged beforehand and honouring Retry-After as a client should. Asserted: p99 within
 * 3x its unloaded value (one client alone, before and after the load), memory flat (the live
 * heap after a forced GC and the service's RSS in the last third against the first), latency
 * steady over the run, every 429 with Retry-After, nothing but 201 and 429 back, nothing
 * acknowledged lost.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { percentile } from './harness/client.js';
import { LoadUnderFaults } from './harness/controller.js';
import { useFaultsDatabase } from './harness/fixture.js';
import type { Sample } from './harness/ledger.js';
import { GC_PROBE_OPTIONS, freePort } from './harness/service.js';
import { expectIntact, verifyLedger } from './harness/verify.js';
import { processEach, queueOf, stageEach } from './harness/workload.js';

const LOAD_SECONDS = Number(process.env.FAULTS_LOAD_SECONDS ?? 60);
/**
 * The limit an operator would set on this two-core machine: as many creations at once as it has
 * cores. (At 4, PostgreSQL's p99 with four creations at once is already ~5x one client's: the
 * cores are saturated from about two; see RELIABILITY.md.)
 */
const LIMIT = 2;
const CLIENTS = 2 * LIMIT;
/** Accounts created by the clients at the limit, whose rate sizes the load's staged accounts. */
const AT_LIMIT_ACCOUNTS = 3_000;
/**
 * The live heap after a forced full GC (gc-probe.cjs, every 5 s) may grow this much from the
 * first third of the run to the last: the objects of the requests in flight at the probe. A
 * leak of 1 KB per request, over the ~40 s between the thirds and the hundreds of requests a
 * second, would add far more (SQLite: ~40 MB; PostgreSQL: ~10 MB).
 */
const HEAP_TOLERANCE = { ratio: 1.1, bytes: 4 * 1024 * 1024 };
/**
 * Resident memory, a looser check: V8 keeps pages it has grown into, and the allocator its
 * arenas, so RSS may drift upward a little even when the live heap is flat.
 */
const RSS_TOLERANCE = { ratio: 1.25, bytes: 32 * 1024 * 1024 };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const p = (samples: Sample[], n: number) =>
  percentile(
    samples.map((s) => s.ms),
    n,
  );

await describeEachDialect('load held at twice the concurrency limit', (dialect) => {
  const { database, track } = useFaultsDatabase(dialect);

  it(`holds p99 within 3x unloaded, memory flat, 429s with Retry-After for ${LOAD_SECONDS} s`, async () => {
    const load = track(
      new LoadUnderFaults({
        service: {
          databaseUrl: database.url,
          port: await freePort(),
          env: { PROCESS_CONCURRENCY_LIMIT: String(LIMIT), NODE_OPTIONS: GC_PROBE_OPTIONS },
        },
        apiKey: database.apiKey,
        workers: 0,
        seed: 1,
        prefix: `LOAD-${dialect}`,
      }),
    );
    await load.start();
    const { client, service, ledger } = load;
    const options = (stopping: () => boolean) => ({
      client,
      ledger,
      stopping,
      afterFailure: async () => false,
    });

    let staged = 0;
    /** Stages `count` new accounts (not measured) and returns them as a queue to process. */
    const stageAccounts = async (count: number) => {
      const externals = Array.from({ length: count }, () => `LOAD-${dialect}-${++staged}`);
      await stageEach(
        options(() => false),
        queueOf(externals),
        CLIENTS,
      );
      // Write back what staging left in the log now, not while the next phase is measured.
      const db = database.open();
      await sql
        .raw(dialect === 'sqlite' ? 'pragma wal_checkpoint(truncate)' : 'checkpoint')
        .execute(db.kysely)
        .finally(() => db.close());
      return queueOf(externals);
    };
    /** `clients` process clients until `until` holds or the queue is empty; the phase's figures. */
    const run = async (
      clients: number,
      queue: () => string | undefined,
      until: (answered: number) => boolean,
    ) => {
      const from = ledger.samples.length;
      const started = Date.now();
      const dry = await Promise.all(
        Array.from({ length: clients }, () =>
          processEach(
            options(() => until(ledger.samples.length - from)),
            queue,
          ),
        ),
      );
      const samples = ledger.samples.slice(from);
      const seconds = (Date.now() - started) / 1000;
      const created = samples.filter((x) => x.status === 201).length;
      return { samples, seconds, created, ranDry: dry.some(Boolean) };
    };

    // Warm-up, then the unloaded reference (one client alone), then clients at the limit, whose
    // rate sizes the accounts staged for the load.
    await run(1, await stageAccounts(600), (n) => n >= 500);
    const alone = await run(1, await stageAccounts(1_000), (n) => n >= 800);
    const atLimit = await run(LIMIT, await stageAccounts(AT_LIMIT_ACCOUNTS), () => false);
    // Twice what the clients at the limit would create, as a short measurement can come out low.
    const poolSize = Math.ceil((atLimit.created / atLimit.seconds) * LOAD_SECONDS * 2);
    const loadQueue = await stageAccounts(poolSize);

    // Twice the limit, for the whole duration, RSS sampled every second.
    const rss: number[] = [];
    const sampler = setInterval(() => {
      const bytes = service.rssBytes();
      if (bytes !== undefined) rss.push(bytes);
    }, 1_000);
    const loadStarted = Date.now();
    const loaded = await run(
      CLIENTS,
      loadQueue,
      () => Date.now() - loadStarted >= LOAD_SECONDS * 1000,
    ).finally(() => clearInterval(sampler));
    const loadEnded = Date.now();

    // The minute grows the database (tens of thousands of accounts on SQLite), which slows one
    // client too; the unloaded value is therefore one client's p99 before and after the load.
    const aloneAfter = await run(1, await stageAccounts(1_000), (n) => n >= 800);
    const aloneP99 = (p(alone.samples, 99) + p(aloneAfter.samples, 99)) / 2;
    const loadedP99 = p(loaded.samples, 99);
    const servedP99 = p(
      loaded.samples.filter((x) => x.status === 201),
      99,
    );
    const heap = service
      .gcProbes()
      .filter((probe) => probe.at >= loadStarted && probe.at <= loadEnded)
      .map((probe) => probe.heapUsed);
    const heapThird = Math.floor(heap.length / 3);
    const heapFirst = mean(heap.slice(0, heapThird));
    const heapLast = mean(heap.slice(heap.length - heapThird));
    const third = Math.floor(rss.length / 3);
    const firstThird = mean(rss.slice(0, third));
    const lastThird = mean(rss.slice(rss.length - third));
    const throttled = loaded.samples.filter((x) => x.status === 429).length;
    const db = database.open();
    const verdict = await verifyLedger(db, ledger).finally(() => db.close());
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const span = loaded.samples.length / 3;
    const byThird = [0, 1, 2].map((t) =>
      Number(
        p(loaded.samples.slice(Math.floor(t * span), Math.floor((t + 1) * span)), 99).toFixed(1),
      ),
    );
    const rate = (phase: { created: number; seconds: number }) =>
      `${(phase.created / phase.seconds).toFixed(0)} accounts/s`;
    console.log(
      [
        `[load ${dialect}] ${LOAD_SECONDS} s, ${CLIENTS} process clients, limit ${LIMIT}:`,
        `${loaded.samples.length} requests (${(loaded.samples.length / loaded.seconds).toFixed(0)}/s),`,
        `${throttled} answered 429, ${loaded.created} accounts created (${rate(loaded)}) of ${poolSize} staged;`,
        `p99 one client ${ms(aloneP99)} (before ${ms(p(alone.samples, 99))}, after ${ms(p(aloneAfter.samples, 99))};`,
        `p50 ${ms(p(alone.samples, 50))}, ${rate(alone)}),`,
        `at the limit ${ms(p(atLimit.samples, 99))} (p50 ${ms(p(atLimit.samples, 50))}, ${rate(atLimit)}),`,
        `at twice the limit ${ms(loadedP99)} (p50 ${ms(p(loaded.samples, 50))}; 201s only ${ms(servedP99)}):`,
        `${(loadedP99 / aloneP99).toFixed(2)}x one client's (201s only ${(servedP99 / aloneP99).toFixed(2)}x);`,
        `live heap after GC first third ${mib(heapFirst)}, last third ${mib(heapLast)} (${heap.length} probes);`,
        `RSS first third ${mib(firstThird)}, last third ${mib(lastThird)}, max ${mib(Math.max(...rss))};`,
        `RSS MiB per second ${JSON.stringify(rss.map((b) => Math.round(b / 1024 / 1024)))};`,
        `p99 by third of the run ${JSON.stringify(byThird)};`,
        `outcomes ${JSON.stringify(ledger.summary())}`,
      ].join(' '),
    );

    expect(ledger.problems).toEqual([]);
    expect([...ledger.outcomes.keys()].filter((k) => k.startsWith('failure'))).toEqual([]);
    // The load lasted its whole duration (enough accounts were staged) and the limit did shed.
    expect(loaded.ranDry).toBe(false);
    expect(throttled).toBeGreaterThan(0);
    expect(loaded.samples.every((x) => x.status === 201 || x.status === 429)).toBe(true);
    // The promise: p99 at twice the limit within 3x its unloaded value, and steady over time.
    expect(loadedP99).toBeLessThanOrEqual(3 * aloneP99);
    expect(byThird[2]).toBeLessThanOrEqual(3 * (byThird[0] ?? 0));
    expect(heap.length).toBeGreaterThanOrEqual(6);
    expect(heapLast).toBeLessThanOrEqual(heapFirst * HEAP_TOLERANCE.ratio + HEAP_TOLERANCE.bytes);
    expect(lastThird).toBeLessThanOrEqual(firstThird * RSS_TOLERANCE.ratio + RSS_TOLERANCE.bytes);
    expectIntact(verdict);
    // Beyond the suite's 240 s: the phases end by their counts and the minute of load, but on a
    // slow machine staging the load's accounts (twice what the clients at the limit created in
    // a minute: 33,000 on PostgreSQL) takes minutes of its own.
  }, 600_000);
});
