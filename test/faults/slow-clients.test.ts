/**
 * Promise 4, slow clients: a client that sends its headers or its body a byte at a time, or
 * nothing at all, is cut off once REQUEST_TIMEOUT_MS has passed (plus Node's check interval),
 * on a real port; it never gets a 5xx, and a client hanging up mid-body is not logged as a
 * service error.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, createTestService, type TestService } from '../helpers/app.js';
import { RawConnection, parseResponses, postHead } from './harness/raw-http.js';
import { waitFor } from './harness/service.js';

const TIMEOUT_MS = 500;
/** The timeout, plus Node's connection check interval (the app sets it to the timeout), plus slack. */
const CUT_OFF_WITHIN_MS = TIMEOUT_MS * 2 + 1_500;

/** Writes `chunk` every 100 ms until the connection is closed. */
function trickle(connection: RawConnection, chunk: () => string): () => void {
  const timer = setInterval(() => {
    if (!connection.write(chunk())) clearInterval(timer);
  }, 100);
  return () => clearInterval(timer);
}

function portOf(app: FastifyInstance): number {
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return address.port;
}

/** Asserts the server cut the connection in time, answering at most a 408. */
async function expectCutOff(connection: RawConnection): Promise<void> {
  await connection.untilClosed(CUT_OFF_WITHIN_MS + 1_000);
  expect(connection.closedAfterMs).toBeLessThan(CUT_OFF_WITHIN_MS);
  for (const response of parseResponses(connection.received)) {
    expect(response.status).toBe(408);
  }
}

await describeEachDialect('slow clients', (dialect) => {
  let service: TestService;
  let port: number;
  beforeAll(async () => {
    service = await createTestService(dialect, { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
    await service.app.listen({ host: '127.0.0.1', port: 0 });
    port = portOf(service.app);
  });
  afterAll(() => service.destroy());

  it('configures the server with the request timeout and a header timeout no longer', () => {
    expect(service.app.server.requestTimeout).toBe(TIMEOUT_MS);
    expect(service.app.server.headersTimeout).toBeLessThanOrEqual(TIMEOUT_MS);
  });

  it('cuts off a client sending its headers a byte at a time', async () => {
    const connection = await RawConnection.open(port);
    connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let n = 0;
    const stop = trickle(connection, () => (n++ % 12 === 11 ? '\r\n' : 'X-Slow: a'.charAt(n % 9)));
    try {
      await expectCutOff(connection);
    } finally {
      stop();
      connection.destroy();
    }
  });

  it('cuts off an authenticated client sending its body a byte at a time', async () => {
    const connection = await RawConnection.open(port);
    connection.write(
      postHead(PATHS.validate, 100_000, { Authorization: `Token ${service.token}` }),
    );
    const stop = trickle(connection, () => ' ');
    try {
      await expectCutOff(connection);
    } finally {
      stop();
      connection.destroy();
    }
  });

  it('cuts off a client that connects and sends nothing', async () => {
    const connection = await RawConnection.open(port);
    try {
      await expectCutOff(connection);
    } finally {
      connection.destroy();
    }
  });

  it('logs a client hanging up mid-body as a refused request, not a service error', async () => {
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        callback();
      },
    });
    const app = await buildApp(service.ctx, { logger: { level: 'info', stream } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const connection = await RawConnection.open(portOf(app));
      connection.write(
        postHead(PATHS.validate, 10_000, { Authorization: `Token ${service.token}` }),
      );
      connection.write('{"customers": [');
      await waitFor(
        'the request to be logged',
        () => lines.some((l) => /incoming/.test(l.msg)),
        2_000,
      );
      connection.destroy();
      await waitFor(
        'the hang-up to be logged',
        () => lines.some((l) => l.msg === 'request refused' || l.level >= 50),
        2_000,
      );
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
