/**
 * Baseline "parse the body and upsert it by key with the raw driver": Fastify 5 parses the JSON
 * body, and one prepared `INSERT … ON CONFLICT (key) DO UPDATE` stores it, re-serialised, under
 * its external account number. SQLite is configured as the service configures it (WAL,
 * synchronous NORMAL, busy_timeout 5000); PostgreSQL uses a pg Pool of 10, the service's size.
 * This is the floor any implementation of stage pays on the same machine and database.
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { listenUntilStopped } from './listen.js';

type Upsert = (key: string, data: string) => Promise<void>;

const TABLE = 'bench_raw_upsert';
const UPSERT_SQL = (p: (n: number) => string) =>
  `INSERT INTO ${TABLE} (key, data, updated_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}) ` +
  'ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at';

function openSqlite(path: string): { upsert: Upsert; close: () => Promise<void> } {
  const db = new SQLite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, data TEXT NOT NULL, updated_at INTEGER NOT NULL)`,
  );
  const statement = db.prepare(UPSERT_SQL(() => '?'));
  return {
    upsert: async (key, data) => {
      statement.run(key, data, Date.now());
    },
    close: async () => {
      db.close();
    },
  };
}

async function openPostgres(url: string): Promise<{ upsert: Upsert; close: () => Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // The data is compressed as the service compresses staged data: lz4 when the server has it.
  const { rows } = await pool.query<{ lz4: boolean }>(
    `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  const compression = rows[0]?.lz4 === true ? ' COMPRESSION lz4' : '';
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (key text PRIMARY KEY, data text${compression} NOT NULL, updated_at bigint NOT NULL)`,
  );
  const text = UPSERT_SQL((n) => `$${n}`);
  return {
    upsert: async (key, data) => {
      await pool.query({ name: 'bench_upsert', text, values: [key, data, Date.now()] });
    },
    close: () => pool.end(),
  };
}

const url = process.env.BASELINE_DATABASE_URL ?? '';
const store = url.startsWith('sqlite:')
  ? openSqlite(url.slice('sqlite:'.length))
  : await openPostgres(url);

const app = Fastify({ logger: false });
app.post<{ Body: { external_account_number?: unknown } }>('/upsert', async (request, reply) => {
  const key = request.body?.external_account_number;
  if (typeof key !== 'string') return reply.code(400).send({ error: 'no key' });
  await store.upsert(key, JSON.stringify(request.body));
  return { external_account_number: key };
});

await listenUntilStopped(app, store.close);
