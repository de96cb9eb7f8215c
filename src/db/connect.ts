/** Opens the database named by DATABASE_URL: SQLite (better-sqlite3) or PostgreSQL (pg). */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type DialectAdapter,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import type { SqliteSynchronous } from '../config.js';
import type { Database, Db } from './database.js';
import { executeDirectly } from './direct-execution.js';
import { postgresStorage } from './postgres-storage.js';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-limits.js';
import { sqliteStorage } from './sqlite-storage.js';
import { returnsArrayRows, statementName } from './statements.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { parametersUnplanned } from './sqlite-plans.js';

export interface ConnectOptions {
  sqliteSynchronous?: SqliteSynchronous;
  /** PostgreSQL pool size per instance. */
  poolSize?: number;
  /** Called when an idle PostgreSQL connection fails (the pool replaces it by itself). */
  onPoolError?: (error: Error) => void;
  /** How long pg waits for PostgreSQL's answer before giving up on the connection. */
  queryTimeoutMs?: number;
  /**
   * False for a connection that migrates: a migration may rewrite a large table or rebuild its
   * indexes in one statement, which must not be cancelled half way by the time limits that
   * keep a request from hanging.
   */
  timeLimits?: boolean;
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
  database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  database.pragma('foreign_keys = ON');
  const checkpointer = path === ':memory:' ? undefined : startCheckpointer(path);
  if (checkpointer) {
    // The worker checkpoints; the connection's own checkpoint only backs it up if it falls behind.
    database.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  }
  const statements = withStatementCache(database);
  const kysely = new Kysely<Database>({
    dialect: new TransactionalDdlSqliteDialect({ database: statements }),
  });
  // A statement may run at once unless another request holds the connection
  // (direct-execution.ts knows when one of its own helpers lent it; an open transaction tells of any other): it
  // then waits for Kysely's lock like any other query. Statements never stream, so nothing
  // else holds the connection between two ticks.
  executeDirectly(kysely, (sql, parameters, holdsConnection) =>
    !holdsConnection && database.inTransaction
      ? undefined
      : runStatement(statements.prepare(sql), parameters),
  );
  return {
    kysely,
    dialect: 'sqlite',
    storage: sqliteStorage,
    close: async () => {
      await checkpointer?.stop();
      await kysely.destroy();
    },
  };
}

/**
 * SQLite's schema changes are transactional, but Kysely's SQLite adapter says they are not, so
 * its migrator ran each migration outside a transaction and recorded it after: a migration that
 * failed or was killed half way left a schema no later start could migrate (a table created
 * twice, a column dropped but the migration not recorded). Saying so makes the migrator run
 * the pending migrations and their records in one transaction, as on PostgreSQL.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class TransactionalDdlSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** What Kysely's SQLite driver returns for the statement. */
function runStatement(
  statement: SqliteStatement,
  parameters: readonly unknown[],
): QueryResult<unknown> {
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

const FALLBACK_CHECKPOINT_PAGES = 20_000;
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const STATEMENT_CACHE_SIZE = 512;

/**
 * Kysely prepares every query anew, and preparing costs more than running most of ours; the
 * service issues a small, fixed set of SQL texts, so their prepared statements are kept
 * (least recently used dropped past the bound). Safe because queries never stream: a cached
 * statement is never left mid-iteration. A text that returns array rows is prepared in
 * better-sqlite3's raw mode. Parameters are written so that SQLite never re-plans a statement
 * by their values (sqlite-plans.ts).
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
        statement = database.prepare(parametersUnplanned(sql));
        if (returnsArrayRows(sql)) statement.raw(true);
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
  const limited = options.timeLimits ?? true;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A statement that cannot finish in this time is failed rather than left to hang a request.
    // Without limits it is set to 0 all the same (pg sends no setting for 0): a limit set on
    // the database or its role would otherwise still apply.
    ...(limited ? { statement_timeout: 15_000 } : { options: '-c statement_timeout=0' }),
    // The server enforces statement_timeout only while it runs; a frozen server or network
    // path needs the client to give up too (the connection is then discarded, see
    // NamedStatementClient).
    query_timeout: limited ? (options.queryTimeoutMs ?? 20_000) : 0,
    // Probes a connection idle for 10 s, so that one whose peer vanished while it waited for
    // an answer without a time limit (a migration) is eventually found dead.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('error', (error) => options.onPoolError?.(error));
  // A client checked out of the pool (in a transaction, between two statements) emits 'error'
  // when its connection dies, and an unheard 'error' event would kill the process. The
  // statement that next uses the client fails instead (and is reported with its request), and
  // the pool discards the client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: withNamedStatements(pool) }),
  });
  return {
    kysely,
    dialect: 'postgres',
    storage: postgresStorage,
    close: () => kysely.destroy(),
  };
}

/**
 * The pool as Kysely sees it, except that the SQL texts of compiled queries (statements.ts) run
 * as named prepared statements: pg parses a name once per connection and from then on only
 * binds and executes it (a new connection prepares again). Other SQL passes through unchanged.
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, NamedStatementClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let named = clients.get(client);
      if (!named) clients.set(client, (named = new NamedStatementClient(client)));
      return named;
    },
    end: () => pool.end(),
  };
}

class NamedStatementClient implements PostgresPoolClient {
  /** Texts that stopped running under their own name on this connection, with their new name. */
  readonly #renamed = new Map<string, string>();
  #renames = 0;

  /**
   * Why the connection cannot be trusted any more, once a query failed other than by
   * PostgreSQL's own refusal of it (connectionLost): a read timeout (pg leaves the unanswered
   * query in place, and every later query would wait behind it), a connection that broke or
   * that the server ended. The pool then destroys the client on release instead of handing it
   * to the next request.
   */
  #broken: Error | undefined;

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    query: string | PostgresCursor<R>,
    parameters: readonly unknown[] = [],
  ): Promise<unknown> | PostgresCursor<R> {
    if (typeof query !== 'string') return this.client.query(query as never);
    // Not even a ROLLBACK: it would wait behind the unanswered query for another time limit.
    if (this.#broken) return Promise.reject(this.#broken);
    const name = this.#renamed.get(query) ?? statementName(query);
    const answer =
      name === undefined
        ? this.client.query(query, [...parameters])
        : this.#runPrepared(name, query, [...parameters]);
    return answer.catch((error: unknown) => {
      if (connectionLost(error)) this.#broken ??= error as Error;
      throw error;
    });
  }

  release(): void {
    this.client.release(this.#broken);
  }

  async #runPrepared(name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
    const inTransaction = this.client.getTransactionStatus() !== 'I';
    try {
      return await this.client.query({ name, text, values, ...rowMode(text) });
    } catch (error) {
      if (!statementUnusable(error)) throw error;
      // The text is prepared again under a new name (the old statement stays with the
      // connection, unused). Outside a transaction the refused statement did nothing and runs
      // again at once; inside one it has failed the transaction, so only later uses benefit.
      const renamed = `${statementName(text)}_${++this.#renames}`;
      this.#renamed.set(text, renamed);
      if (inTransaction) throw error;
      return this.client.query({ name: renamed, text, values, ...rowMode(text) });
    }
  }
}

/**
 * Whether a failed query leaves its connection unusable: any failure but PostgreSQL's own
 * refusal, and those refusals that end the connection (SQLSTATE class 57P, the server ending
 * it: an administrator's pg_terminate_backend, a shutdown; class 08, a connection exception).
 * PostgreSQL sends such an error before it closes the connection, so the query fails before the
 * connection is seen to be closed.
 */
function connectionLost(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  const code = error.code ?? '';
  return code.startsWith('57P') || code.startsWith('08');
}

/** pg's option for the texts whose rows come back as arrays (compiledArrayQuery). */
function rowMode(text: string): { rowMode?: 'array' } {
  return returnsArrayRows(text) ? { rowMode: 'array' } : {};
}

/**
 * Whether PostgreSQL refused to bind a prepared statement that can no longer run under its
 * name: a schema change altered its result columns ("cached plan must not change result
 * type", say a column added to a table it selects `*` from), or the statement is gone from the
 * server while pg still counts it as prepared (pg closes it when a value fails to serialize).
 */
function statementUnusable(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return false;
  return (
    error.code === '26000' || (error.code === '0A000' && error.routine === 'RevalidateCachedQuery')
  );
}
