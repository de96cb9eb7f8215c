/**
 * Promise 3: graceful shutdown under load. SIGTERM while clients are sending: a request in
 * flight completes, later ones get 503 service_unavailable (our error format) or a closed
 * connection, never another 5xx; the process exits 0 soon after. A second signal exits at
 * once (130); a client that never finishes cannot hold the exit past the 10 s grace (exit 1).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { buildAccount } from '../account/factory.js';
import { isErrorShape } from './harness/client.js';
import { LoadUnderFaults } from './harness/controller.js';
import { createFaultsDatabase, type FaultsDatabase } from './harness/fixture.js';
import { RawConnection, parseResponses, postHead } from './harness/raw-http.js';
import { ServiceProcess, freePort, waitFor } from './harness/service.js';
import { verifyLedger } from './harness/verify.js';
import { Client, obtainTokenOver } from './harness/client.js';

const SEED = Number(process.env.FAULTS_SEED ?? 20261122);
const VALIDATE_PATH = '/v1/data-import/validate-account/';
/** server.ts gives in-flight requests 10 s after the first signal. */
const GRACE_MS = 10_000;

/** A validate request whose headers are sent and acknowledged (100 Continue), body pending. */
async function requestInFlight(port: number, token: string) {
  const body = JSON.stringify(buildAccount({ external_account_number: 'SLOW-1' }));
  const connection = await RawConnection.open(port);
  connection.write(
    postHead(VALIDATE_PATH, Buffer.byteLength(body), {
      Authorization: `Token ${token}`,
      Expect: '100-continue',
    }),
  );
  // The server answers 100 Continue once it has taken the request on: it is now in flight.
  await connection.until(
    '100 Continue',
    () => connection.received.startsWith('HTTP/1.1 100'),
    5_000,
  );
  const half = Math.floor(body.length / 2);
  connection.write(body.slice(0, half));
  return { connection, rest: body.slice(half) };
}

/** Resolves once nothing accepts connections on the port any more. */
function listenerClosed(port: number): Promise<number> {
  return waitFor(
    'the listener to close',
    () =>
      RawConnection.open(port).then(
        (connection) => {
          connection.destroy();
          return false;
        },
        () => true,
      ),
    5_000,
    20,
  );
}

await describeEachDialect('graceful shutdown under load', (dialect) => {
  let database: FaultsDatabase;
  let load: LoadUnderFaults | undefined;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    database = await createFaultsDatabase(dialect);
  });
  afterAll(async () => {
    await load?.close();
    if (service?.running) await service.stop('SIGKILL');
    await database.destroy();
  });

  it('finishes in-flight requests, refuses new ones with 503 or a closed connection, exits 0', async () => {
    load = new LoadUnderFaults({
      service: { databaseUrl: database.url, port: await freePort() },
      apiKey: database.apiKey,
      workers: 8,
      seed: SEED,
      prefix: `SHUTDOWN-${dialect}`,
      // After the signal the service is gone for good: a worker stops at its first cut connection.
      retryAfterFailure: () => false,
    });
    await load.start();
    const { ledger, client } = load;
    const running = load.service;
    await load.progress(200);

    const slow = await requestInFlight(running.port, client.token ?? '');
    const signalledAt = Date.now();
    running.signal('SIGTERM');
    await listenerClosed(running.port);
    // The request in flight completes; one pipelined behind it arrives after the signal.
    slow.connection.write(slow.rest);
    slow.connection.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const exit = await running.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    await slow.connection.untilClosed(5_000);
    await load.stop();

    const [first, second, ...more] = parseResponses(slow.connection.received);
    expect(first?.status, slow.connection.received.slice(0, 300)).toBe(200);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({ external_account_number: 'SLOW-1' });
    // The pipelined request: 503 in our format with Connection: close, or no answer at all.
    if (second) {
      expect(second.status).toBe(503);
      expect(second.headers.connection).toBe('close');
      expect(JSON.parse(second.body)).toMatchObject({ code: 'service_unavailable' });
      expect(isErrorShape(JSON.parse(second.body))).toBe(true);
    }
    expect(more).toEqual([]);

    expect(exit.code).toBe(0);
    expect(exitedAfterMs).toBeLessThan(GRACE_MS);
    // Every answer, before and after the signal: 2xx, or a 503 service_unavailable.
    expect(ledger.problems).toEqual([]);
    const statuses = new Set(ledger.samples.map((s) => s.status));
    for (const status of statuses) expect([0, 200, 201, 503]).toContain(status);
    // Refusals (cut or refused connections, 503) only for requests the service had not yet had
    // time to read when the signal came (250 ms is more than twice the p99 of eight clients).
    const early = ledger.samples.filter(
      (s) => (s.status === 0 || s.status === 503) && s.at < signalledAt - 250,
    );
    expect(early).toEqual([]);

    // What was acknowledged before the exit is all there.
    const db = database.open();
    try {
      const verdict = await verifyLedger(db, ledger);
      expect(verdict.lostStages).toEqual([]);
      expect(verdict.lostAccounts).toEqual([]);
      expect(verdict.halfWritten).toEqual([]);
      console.log(
        `[shutdown ${dialect}] requests=${ledger.requests} exit=${exit.code} ` +
          `${exitedAfterMs} ms after SIGTERM; pipelined request: ${second ? second.status : 'connection closed'}; ` +
          `outcomes=${JSON.stringify(ledger.summary())}`,
      );
    } finally {
      await db.close();
    }
  });

  it('exits at once (130) on a second signal, with a request still in flight', async () => {
    service = await ServiceProcess.start({ databaseUrl: database.url, port: await freePort() });
    const client = new Client(service.url, { connections: 1 });
    const token = await obtainTokenOver(client, database.apiKey);
    await client.close();
    const slow = await requestInFlight(service.port, token);
    service.signal('SIGTERM');
    await listenerClosed(service.port);
    expect(service.running).toBe(true);
    const secondAt = Date.now();
    service.signal('SIGINT');
    const exit = await service.exited;
    const exitedAfterMs = Date.now() - secondAt;
    slow.connection.destroy();
    expect(exit.code).toBe(130);
    expect(exitedAfterMs).toBeLessThan(1_000);
    console.log(`[shutdown ${dialect}] second signal: exit ${exit.code} after ${exitedAfterMs} ms`);
  });

  it(`exits 1 after the ${GRACE_MS / 1000} s grace when an in-flight request never finishes`, async () => {
    service = await ServiceProcess.start({
      databaseUrl: database.url,
      port: await freePort(),
      // Longer than the grace, so that the grace, not the request timeout, ends the wait.
      env: { REQUEST_TIMEOUT_MS: '60000' },
    });
    const client = new Client(service.url, { connections: 1 });
    const token = await obtainTokenOver(client, database.apiKey);
    await client.close();
    const slow = await requestInFlight(service.port, token);
    const signalledAt = Date.now();
    service.signal('SIGTERM');
    const exit = await service.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    slow.connection.destroy();
    expect(exit.code).toBe(1);
    expect(exitedAfterMs).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(exitedAfterMs).toBeLessThan(GRACE_MS + 2_000);
  });
});
