/**
 * Promise 2 (PostgreSQL): the database stops under load (`pg_ctl stop -m immediate` on a
 * private cluster). Requests then fail fast with 503 service_unavailable in the error format,
 * never a 500 or a hang; /readyz turns 503. When PostgreSQL is back, the same service process
 * recovers by itself, and nothing is half-written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, errorCode, isErrorShape, type Outcome } from './harness/client.js';
import { LoadUnderFaults } from './harness/controller.js';
import { seedDatabase, SUPPLIER } from './harness/fixture.js';
import { internalsIn } from './harness/internals.js';
import { recoverOrphans } from './harness/orphans.js';
import { PrivatePostgres, postgresBinDir } from './harness/private-postgres.js';
import { freePort, probe, waitFor } from './harness/service.js';
import { expectIntact, verifyLedger } from './harness/verify.js';
import { connect } from '../../src/db/connect.js';

const SEED = Number(process.env.FAULTS_SEED ?? 20261122);
const LEASE_SECONDS = 2;
/** pg's connectionTimeoutMillis is 3 s; an answer may take that long, plus scheduling slack. */
const FAIL_FAST_MS = 4_000;

const binaries = postgresBinDir();
if (!binaries && process.env.CI === 'true') throw new Error('PostgreSQL server binaries missing');

describe.skipIf(!binaries)('database outage: PostgreSQL stopped under load', () => {
  let cluster: PrivatePostgres;
  let apiKey: string;
  let load: LoadUnderFaults | undefined;
  beforeAll(async () => {
    cluster = await PrivatePostgres.create();
    apiKey = await seedDatabase(cluster.url);
  });
  afterAll(async () => {
    await load?.close();
    await cluster?.destroy();
  });

  it('answers 503 fast while it is down and recovers by itself when it is back', async () => {
    load = new LoadUnderFaults({
      service: {
        databaseUrl: cluster.url,
        port: await freePort(),
        env: { PROCESS_LEASE_SECONDS: String(LEASE_SECONDS) },
      },
      apiKey,
      workers: 6,
      seed: SEED,
      prefix: 'OUTAGE',
      dryRuns: true,
    });
    await load.start();
    const { ledger, client, service } = load;
    const pid = service.pid;
    await load.progress(150);

    const stoppedAt = Date.now();
    await cluster.stop('immediate');
    // The database is gone from here on; a request sent while the stop was under way may still
    // have been answered by it, so the outage window is counted from here, not from stoppedAt.
    const downAt = Date.now();
    const readyzDownMs = await waitFor(
      '/readyz to answer 503',
      async () => {
        if (!service.running) throw new Error(`the service died:\n${service.log.slice(-2000)}`);
        return (await probe(`${service.url}/readyz`, FAIL_FAST_MS)) === 503;
      },
      10_000,
    );
    // Each kind of request, while the database is down, from a fresh client (new connections).
    const fresh = new Client(service.url, { connections: 2, timeoutMs: 10_000 });
    fresh.token = client.token;
    const probes: [string, Outcome][] = [];
    for (const [what, send] of [
      [
        'status',
        () => fresh.send('GET', `/v1/data-import/account-transfer-status/${SUPPLIER}/X-1/`),
      ],
      [
        'list',
        () => fresh.send('GET', `/v1/data-import/all-account-import-processes/${SUPPLIER}/`),
      ],
      [
        'page',
        () =>
          fresh.send(
            'GET',
            `/v1/data-import/pending-account-import-processes/${SUPPLIER}/?limit=5`,
          ),
      ],
      ['readyz', () => fresh.send('GET', '/readyz')],
    ] as const) {
      probes.push([what, await send()]);
    }
    // The token endpoint answers in GraphQL's format; it must fail fast and disclose nothing.
    const token = await fresh.send('POST', '/v1/graphql/', {
      query: 'mutation ($k: String!) { obtainToken(input: { apiKey: $k }) { token } }',
      variables: { k: apiKey },
    });
    await fresh.close();
    await load.progress(40, 30_000);

    const restartedAt = Date.now();
    await cluster.start();
    const recoveredMs = await waitFor(
      '/readyz to answer 200 again',
      async () => (await probe(`${service.url}/readyz`, FAIL_FAST_MS)) === 200,
      30_000,
    );
    await load.progress(150, 60_000);
    await load.stop();

    // The same process, never restarted, serves again.
    expect(service.running).toBe(true);
    expect(service.pid).toBe(pid);
    const afterwards = ledger.samples.filter((s) => s.at > restartedAt + recoveredMs);
    expect(afterwards.some((s) => s.status === 200 || s.status === 201)).toBe(true);

    // While it was down: 503 service_unavailable in the error format, fast, never anything else.
    const during = ledger.samples.filter((s) => s.at > downAt + readyzDownMs && s.at < restartedAt);
    expect(during.length).toBeGreaterThan(10);
    expect(during.filter((s) => s.status !== 503)).toEqual([]);
    const slowest = Math.max(
      ...ledger.samples.filter((s) => s.at > stoppedAt && s.at < restartedAt).map((s) => s.ms),
    );
    expect(slowest).toBeLessThan(FAIL_FAST_MS);
    for (const [what, outcome] of probes) {
      expect(outcome.kind === 'reply' && outcome.status, what).toBe(503);
      if (outcome.kind !== 'reply') continue;
      expect(errorCode(outcome), what).toBe('service_unavailable');
      expect(isErrorShape(outcome.json), what).toBe(true);
      expect(internalsIn(outcome.text), what).toBeUndefined();
      expect(outcome.ms, what).toBeLessThan(FAIL_FAST_MS);
    }
    expect(token.kind === 'reply' && token.json).toMatchObject({ data: { obtainToken: null } });
    if (token.kind === 'reply') {
      expect(internalsIn(token.text)).toBeUndefined();
      expect(token.ms).toBeLessThan(FAIL_FAST_MS);
    }

    // Nothing half-written, nothing acknowledged lost, no claim wedged.
    const db = connect(cluster.url);
    try {
      const orphaned = (await verifyLedger(db, ledger)).claimed;
      const recovery = await recoverOrphans(client, ledger, orphaned, LEASE_SECONDS);
      expect(recovery.statuses).toEqual(orphaned.map(() => 201));
      const verdict = await verifyLedger(db, ledger);
      console.log(
        `[outage postgres] requests=${ledger.requests} during outage=${during.length} ` +
          `slowest during outage=${Math.round(slowest)} ms, readyz 503 after ${readyzDownMs} ms, ` +
          `ready again ${recoveredMs} ms after PostgreSQL started; acknowledged stages=` +
          `${ledger.acknowledgedStages} accounts=${ledger.accounts.size} orphaned claims=` +
          `${orphaned.length} db=${JSON.stringify(verdict.figures)} ` +
          `outcomes=${JSON.stringify(ledger.summary())}`,
      );
      expect(ledger.problems).toEqual([]);
      expect([...ledger.outcomes.keys()].filter((key) => key.startsWith('failure'))).toEqual([]);
      expectIntact(verdict);
    } finally {
      await db.close();
    }
  });
});
