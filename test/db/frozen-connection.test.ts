/**
 * A PostgreSQL connection whose peer stops answering (a frozen server, a half-open network
 * path) must not go back into the pool: pg leaves the unanswered query in place when it gives
 * up waiting, so every later query on that connection would wait behind it and fail too. The
 * database sits behind a TCP relay here that can freeze the connections it carries while still
 * accepting new ones. (PostgreSQL only: SQLite has no connection to lose.)
 */
import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { createTestDatabase, dialectEnabled, type TestDatabase } from '../helpers/databases.js';

/** Relays TCP to PostgreSQL; `freeze()` stops the answers on every connection open so far. */
class Relay {
  readonly #pairs: { client: Socket; server: Socket; frozen: boolean }[] = [];
  readonly #server: Server;
  connections = 0;

  private constructor(target: { host: string; port: number }) {
    this.#server = createServer((client) => {
      this.connections += 1;
      const server = connectTcp(target.port, target.host);
      const pair = { client, server, frozen: false };
      this.#pairs.push(pair);
      client.on('data', (bytes) => server.write(bytes));
      // Answers stop once frozen; the client's own writes still go through, as on a path that
      // lost only its way back.
      server.on('data', (bytes) => {
        if (!pair.frozen) client.write(bytes);
      });
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
    });
  }

  static async start(target: { host: string; port: number }): Promise<Relay> {
    const relay = new Relay(target);
    await new Promise<void>((resolve) => relay.#server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  get port(): number {
    return (this.#server.address() as { port: number }).port;
  }

  freeze(): void {
    for (const pair of this.#pairs) pair.frozen = true;
  }

  async close(): Promise<void> {
    for (const { client, server } of this.#pairs) {
      client.destroy();
      server.destroy();
    }
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

describe.skipIf(!(await dialectEnabled('postgres')))('a frozen connection [postgres]', () => {
  let database: TestDatabase;
  let relay: Relay;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const url = new URL(database.url);
    relay = await Relay.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${relay.port}`;
    db = connect(url.toString(), { poolSize: 1, queryTimeoutMs: 500 });
  });
  afterAll(async () => {
    await db.close();
    await relay.close();
    await database.destroy();
  });

  const one = async () => (await sql<{ one: number }>`select 1 as one`.execute(db.kysely)).rows;

  it('is discarded after its query times out, and the next query gets a new connection', async () => {
    expect(await one()).toEqual([{ one: 1 }]);
    expect(relay.connections).toBe(1);
    relay.freeze();
    await expect(one()).rejects.toThrow(/timeout/i);
    // The pool holds one connection: had the frozen one gone back, this would wait behind the
    // unanswered query and time out as well.
    expect(await one()).toEqual([{ one: 1 }]);
    expect(relay.connections).toBe(2);
  });
});
