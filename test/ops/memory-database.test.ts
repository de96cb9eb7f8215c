/**
 * `serve` on `sqlite::memory:` (a database that lives only in the service's one connection):
 * the schema must be migrated on that connection, not on another one, which would be another
 * in-memory database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';

let server: RunningServer;
beforeAll(async () => {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', HOST: '127.0.0.1' });
  server = await startServer(config, { log: false, handleSignals: false });
});
afterAll(() => server.close());

it('migrates and seeds the in-memory database it serves', async () => {
  const ready = await fetch(`${server.url}/readyz`);
  expect(ready.status).toBe(200);
  // The token endpoint reads the organisations table the migration created.
  const answer = await fetch(`${server.url}/v1/graphql/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation { obtainToken(input: { apiKey: "aik_nope" }) { token } }',
    }),
  });
  const body = (await answer.json()) as { errors?: { extensions?: { code?: string } }[] };
  expect(body.errors?.[0]?.extensions?.code).toBe('invalid_api_key');
});
