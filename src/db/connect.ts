/** Opens the database named by DATABASE_URL: SQLite (better-sqlite3) or PostgreSQL (pg). */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import type { SqliteSynchronous } from '../config.js';
import type { Database, Db } from './database.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

export interface ConnectOptions {
  sqliteSynchronous?: SqliteSynchronous;
  /** PostgreSQL pool size per instance. */
  poolSize?: number;
  /** Called when an idle PostgreSQL connection fails (the pool replaces it by itself). */
  onPoolError?: (error: Error) => void;
}

// bigint columns hold epoch milliseconds and ids, all far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Returns the SQLite file path of a `sqlite:` URL, or undefined for a PostgreSQL URL. */
export function sqlitePath(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const path = databaseUrl.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  return path === ':memory:' ? path : resolve(path);
}

export function connect(databaseUrl: string, options: ConnectOptions = {}): Db {
  const path = sqlitePath(databaseUrl);
  if (path !== undefined) return connectSqlite(path, options.sqliteSynchronous ?? 'NORMAL');
  return connectPostgres(databaseUrl, options);
}

function connectSqlite(path: string, synchronous: SqliteSynchronous): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${synchronous}`);
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const checkpointer = path === ':memory:' ? undefined : startCheckpointer(path);
  if (checkpointer) {
    // The worker checkpoints; the connection's own checkpoint only backs it up if it falls behind.
    database.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
  });
  return {
    kysely,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer?.stop();
      await kysely.destroy();
    },
  };
}

const FALLBACK_CHECKPOINT_PAGES = 20_000;
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const STATEMENT_CACHE_SIZE = 512;

/**
 * Kysely prepares every query anew, and preparing costs more than running most of ours; the
 * service issues a small, fixed set of SQL texts, so their prepared statements are kept
 * (least recently used dropped past the bound). Safe because queries never stream: a cached
 * statement is never left mid-iteration.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) {
          cache.delete(cache.keys().next().value as string);
        }
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

function connectPostgres(databaseUrl: string, options: ConnectOptions): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A statement that cannot finish in this time is failed rather than left to hang a request.
    statement_timeout: 15_000,
    // The server enforces statement_timeout only while it runs; a frozen server needs the
    // client to give up too (the connection is then discarded).
    query_timeout: 20_000,
  });
  pool.on('error', (error) => options.onPoolError?.(error));
  // A client checked out of the pool (in a transaction, between two statements) emits 'error'
  // when its connection dies, and an unheard 'error' event would kill the process. The
  // statement that next uses the client fails instead (and is reported with its request), and
  // the pool discards the client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    close: () => kysely.destroy(),
  };
}
