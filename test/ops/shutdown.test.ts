/** Shutdown waits for handlers whose client has gone before it closes the database. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { demoReferenceLines } from '../../src/reference/reference.demo.js';
import { importReference } from '../../src/reference/reference.service.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createOrganisation, obtainToken } from '../helpers/auth.js';
import { createTestDatabase, dialectEnabled, type TestDatabase } from '../helpers/databases.js';
import { PATHS, demoProcessBody } from '../helpers/app.js';
import { buildAccount } from '../account/factory.js';

// Holding a creation open needs a second connection's table lock: a PostgreSQL feature.
describe.skipIf(!(await dialectEnabled('postgres')))(
  'shutdown with a detached handler [postgres]',
  () => {
    const dialect = 'postgres';
    let database: TestDatabase;
    let db: Db;
    let server: RunningServer;
    let token: string;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      db = connect(database.url);
      await migrateToLatest(db);
      const { apiKey } = await createOrganisation(db, 'acme', ['DEMO']);
      await db.kysely
        .insertInto('operations_teams')
        .values({ name: 'Migrations', created_at: 0 })
        .execute();
      // Production seeds nothing: the accounts' codes come from the operator's catalogue.
      await importReference(db, demoReferenceLines());
      const config = loadConfig({
        DATABASE_URL: database.url,
        PORT: '0',
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
      });
      server = await startServer(config, { log: false, handleSignals: false });
      token = (await obtainToken(server.app, apiKey)).token;
    });
    afterAll(async () => {
      await db.close();
      await database.destroy();
    });

    it('lets a handler whose client disconnected finish before closing the database', async () => {
      const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
      const staged = await fetch(`${server.url}${PATHS.stage}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(buildAccount({ external_account_number: 'SHUT-1' })),
      });
      expect(staged.status).toBe(201);

      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      await blocker.query('begin');
      // Hold the handler on its first read of the process, before it claims anything.
      await blocker.query('lock table import_processes in access exclusive mode');
      const abort = new AbortController();
      const request = fetch(`${server.url}${PATHS.process}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(demoProcessBody('SHUT-1')),
        signal: abort.signal,
      }).catch((error: unknown) => error);
      // Wait until the handler's query is queued behind the lock.
      let waiting = 0;
      while (waiting === 0) {
        const { rows } = await blocker.query<{ n: string }>(
          "select count(*) as n from pg_locks where relation = 'import_processes'::regclass and not granted",
        );
        waiting = Number(rows[0]?.n);
      }
      abort.abort();
      await request;
      const closed = server.close();
      await blocker.query('commit');
      await blocker.end();
      await closed;

      const row = await db.kysely
        .selectFrom('import_processes')
        .select(['state', 'service_account_number'])
        .where('external_account_number', '=', 'SHUT-1')
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('completed');
      expect(row.service_account_number).toMatch(/^A-[0-9A-F]{8}$/);
    });
  },
);
