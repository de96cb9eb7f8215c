/** HTTP the parser refuses is still answered in the error format. */
import { connect as connectSocket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { FIXED_TEST_PLATFORM } from '../helpers/platform.js';

let app: FastifyInstance;
let db: Db;
let port = 0;

beforeAll(async () => {
  db = connect('sqlite::memory:');
  app = await buildApp({
    config: loadConfig({ DATABASE_URL: 'sqlite::memory:' }),
    db,
    tokenSecret: new Uint8Array(32),
    platform: FIXED_TEST_PLATFORM,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  await app.close();
  await db.close();
});

/** Sends raw bytes and returns everything the server writes until it closes the socket. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function body(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

it('answers a malformed request line with 400 malformed_request', async () => {
  const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(body(answer)).toMatchObject({ code: 'malformed_request', errors: [{ attr: null }] });
});

it('answers oversized headers with 431 request_header_fields_too_large', async () => {
  const answer = await raw(
    `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
  );
  expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  expect(body(answer)).toMatchObject({ code: 'request_header_fields_too_large' });
});
