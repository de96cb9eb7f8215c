/**
 * Hostile X-Request-Id values and a doubled Authorization header, over a real socket to the
 * app with its logger on: an id is echoed and logged only when it matches the documented
 * pattern; any other is replaced by a generated one and reaches neither the response nor a log
 * line. Two Authorization headers are refused (400 malformed_request) whichever comes first.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { createOrganisation, obtainToken } from '../helpers/auth.js';
import { RawConnection, parseResponses } from './harness/raw-http.js';
import { livePlatformOf } from '../helpers/platform.js';

const GENERATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const HOSTILE_IDS: [string, string][] = [
  ['15,000 characters', 'a'.repeat(15_000)],
  ['a forged log field', 'a","level":60,"msg":"forged'],
  ['two ids joined', 'one, two'],
  ['129 characters', 'b'.repeat(129)],
  ['a space', 'trace one'],
];

await describeEachDialect('request ids and Authorization headers', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let app: FastifyInstance;
  let port = 0;
  let token = '';
  let log = '';

  beforeAll(async () => {
    database = await openTestDb(dialect);
    db = database.db;
    const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'info' });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString('utf8');
        done();
      },
    });
    app = await buildApp(
      { config, db, tokenSecret: new Uint8Array(32), platform: await livePlatformOf(db) },
      { logger: { level: 'info', stream } },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
    const { apiKey } = await createOrganisation(db, 'acme', ['DEMO']);
    token = (await obtainToken(app, apiKey)).token;
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  /** One GET over a fresh socket with these raw header lines; the response. */
  async function get(path: string, headerLines: string[]) {
    const connection = await RawConnection.open(port);
    try {
      const head = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headerLines];
      connection.write(`${head.join('\r\n')}\r\n\r\n`);
      await connection.untilClosed(5_000);
      const [response] = parseResponses(connection.received);
      if (!response) throw new Error(`no response: ${connection.received.slice(0, 200)}`);
      return response;
    } finally {
      connection.destroy();
    }
  }

  it.each(HOSTILE_IDS)(
    'replaces %s with a generated id, in the response and the log',
    async (_name, id) => {
      const response = await get('/healthz', [`X-Request-Id: ${id}`]);
      expect(response.status).toBe(200);
      const echoed = response.headers['x-request-id'] ?? '';
      expect(echoed).toMatch(GENERATED);
      expect(log).toContain(`"reqId":"${echoed}"`);
      expect(log).not.toContain(id);
    },
  );

  it('keeps an id that matches the pattern, even one another request used', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await get('/healthz', ['X-Request-Id: trace-abc.123_X']);
      expect(response.headers['x-request-id']).toBe('trace-abc.123_X');
    }
    expect(log).toContain('"reqId":"trace-abc.123_X"');
  });

  it('replaces an id given in two headers', async () => {
    const response = await get('/healthz', ['X-Request-Id: one', 'X-Request-Id: two']);
    expect(response.headers['x-request-id']).toMatch(GENERATED);
  });

  it('refuses two Authorization headers, even two copies of one valid token', async () => {
    const path = '/v1/data-import/all-account-import-processes/DEMO/?limit=1';
    const one = await get(path, [`Authorization: Token ${token}`]);
    expect(one.status).toBe(200);
    for (const lines of [
      [`Authorization: Token ${token}`, `Authorization: Token ${token}`],
      [`Authorization: Token ${token}`, 'authorization: Token forged'],
      ['Authorization: Token forged', `Authorization: Token ${token}`],
    ]) {
      const response = await get(path, lines);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({
        code: 'malformed_request',
        detail: 'The request has more than one Authorization header; send exactly one.',
      });
    }
  });
});
