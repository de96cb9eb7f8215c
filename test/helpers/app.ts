/**
 * A whole service on a fresh database of one dialect: app, organisation with its API key and
 * token, supplier DEMO (granted) and OTHER (not granted), team Migrations, and the demo
 * reference catalogue, which holds every code the account factory names.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ensureTokenSecret } from '../../src/auth/secret.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { Db, Dialect, ImportSupplier } from '../../src/db/database.js';
import { demoReferenceLines } from '../../src/reference/reference.demo.js';
import { importReference } from '../../src/reference/reference.service.js';
import { buildAccount } from '../account/factory.js';
import { openTestDb, type DatabaseOptions } from './databases.js';
import { createOrganisation, insertOngoingSupplier, obtainToken } from './auth.js';
import { livePlatformOf } from './platform.js';

export interface TestService {
  app: FastifyInstance;
  db: Db;
  ctx: AppContext;
  config: Config;
  token: string;
  apiKey: string;
  organisationId: number;
  /** Sends a request with the organisation's token. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  destroy(): Promise<void>;
}

export async function createTestService(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: DatabaseOptions = {},
): Promise<TestService> {
  const database = await openTestDb(dialect, undefined, options);
  // One validation thread whatever the machine's cores, so that stages take the same path
  // everywhere; a test of the event loop's path sets VALIDATION_THREADS=0.
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    VALIDATION_THREADS: '1',
    ...env,
  });
  const tokenSecret = await ensureTokenSecret(database.db, config.tokenSecret);
  await importReference(database.db, demoReferenceLines());
  const platform = await livePlatformOf(database.db);
  const ctx: AppContext = { config, db: database.db, tokenSecret, platform };
  const app = await buildApp(ctx);
  await createOrganisation(database.db, 'other-org', ['OTHER']);
  const { id: organisationId, apiKey } = await createOrganisation(database.db, 'acme', ['DEMO']);
  await database.db.kysely
    .insertInto('operations_teams')
    .values({ name: 'Migrations', created_at: Date.now() })
    .execute();
  const { token } = await obtainToken(app, apiKey);
  return {
    app,
    db: database.db,
    ctx,
    config,
    token,
    apiKey,
    organisationId,
    request: (options) =>
      app.inject({
        ...options,
        headers: { authorization: `Token ${token}`, ...(options.headers ?? {}) },
      }),
    destroy: async () => {
      await app.close();
      await database.destroy();
    },
  };
}

/**
 * The enclosing suite's service: created before its first test and destroyed after its last.
 * The object is filled in place, so a suite declares it once: `const service = useTestService(dialect)`.
 */
export function useTestService(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: DatabaseOptions = {},
): TestService {
  const service = {} as TestService;
  beforeAll(async () => {
    Object.assign(service, await createTestService(dialect, env, options));
  });
  afterAll(() => service.destroy());
  return service;
}

/** Starts `app` on a free port of 127.0.0.1; its base URL (`http://127.0.0.1:<port>`). */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** The refusal of an account already imported: 400, naming both of its numbers. */
export function expectAlreadyImported(
  response: LightMyRequestResponse,
  external: string,
  serviceNumber: string,
): void {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toMatchObject({
    code: 'account_import_process_already_imported',
    external_account_number: external,
    service_account_number: serviceNumber,
  });
}

/** Marks the demo supplier's account to be skipped, as `account-import skip add` does. */
export async function markSkipped(
  service: TestService,
  external: string,
  reason: string | null = null,
): Promise<void> {
  const supplier = await service.db.kysely
    .selectFrom('import_suppliers')
    .select('id')
    .where('code', '=', 'DEMO')
    .executeTakeFirstOrThrow();
  await service.db.kysely
    .insertInto('skip_marks')
    .values({
      supplier_id: supplier.id,
      external_account_number: external,
      reason,
      created_at: Date.now(),
    })
    .execute();
}

/**
 * Row counts of every table, to prove an operation left no trace. The event log is left out:
 * a refusal is recorded there by design (its own tests check what it holds).
 */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const { TABLES } = await import('../../src/db/database.js');
  const counts: Record<string, number> = {};
  for (const table of TABLES.filter((name) => name !== 'account_events')) {
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

export const PATHS = {
  validate: '/v1/data-import/validate-account/',
  stage: '/v1/data-import/account-import-process/create-or-update/',
  process: '/v1/data-import/account-import-process/process/',
  status: (supplier: string, external: string) =>
    `/v1/data-import/account-transfer-status/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`,
  all: (supplier: string) => `/v1/data-import/all-account-import-processes/${supplier}/`,
  pending: (supplier: string) => `/v1/data-import/pending-account-import-processes/${supplier}/`,
  imported: (supplier: string) => `/v1/data-import/imported-account-import-processes/${supplier}/`,
};

/** Every protected data-import route with a valid request for the demo data (a fresh body each call). */
export const PROTECTED_ROUTES = [
  { method: 'POST' as const, url: PATHS.validate, payload: () => buildAccount() },
  { method: 'POST' as const, url: PATHS.stage, payload: () => buildAccount() },
  {
    method: 'POST' as const,
    url: PATHS.process,
    payload: () => ({
      external_account_number: 'X-1',
      import_supplier_code: 'DEMO',
      operations_team_name: 'Migrations',
    }),
  },
  { method: 'GET' as const, url: PATHS.status('DEMO', 'X-1') },
  { method: 'GET' as const, url: PATHS.all('DEMO') },
  { method: 'GET' as const, url: PATHS.pending('DEMO') },
  { method: 'GET' as const, url: PATHS.imported('DEMO') },
  // A page is read in the statement that checks the caller; the whole list is not.
  { method: 'GET' as const, url: `${PATHS.all('DEMO')}?limit=10` },
  { method: 'GET' as const, url: `${PATHS.pending('DEMO')}?limit=10` },
  { method: 'GET' as const, url: `${PATHS.imported('DEMO')}?limit=10` },
];

type SupplierChanges = Partial<
  Pick<ImportSupplier, 'status' | 'customer_emails' | 'document_root' | 'phone_region'>
>;

/** Changes the configuration of a supplier directly, as an operator would. */
export async function updateSupplier(
  service: TestService,
  code: string,
  changes: SupplierChanges,
): Promise<void> {
  await service.db.kysely
    .updateTable('import_suppliers')
    .set(changes)
    .where('code', '=', code)
    .execute();
}

/** Creates an Ongoing supplier granted to the service's organisation; returns its id. */
export async function addGrantedSupplier(service: TestService, code: string): Promise<number> {
  const id = await insertOngoingSupplier(service.db, code, Date.now());
  await service.db.kysely
    .insertInto('organisation_suppliers')
    .values({ organisation_id: service.organisationId, supplier_id: id })
    .execute();
  return id;
}

/** The body of a process request for a demo account, with the demo team (`extra` adds or overrides). */
export const demoProcessBody = (external: string, extra: Record<string, unknown> = {}) => ({
  external_account_number: external,
  import_supplier_code: 'DEMO',
  operations_team_name: 'Migrations',
  ...extra,
});

/** Sends a process request for a demo account (see demoProcessBody). */
export function processDemoAccount(
  service: TestService,
  external: string,
  extra: Record<string, unknown> = {},
) {
  return service.request({
    method: 'POST',
    url: PATHS.process,
    payload: demoProcessBody(external, extra),
  });
}

/** Stages the payload as the service's organisation, through the stage route; it must be taken. */
export async function stageDemoAccount(
  service: TestService,
  payload: Record<string, unknown>,
): Promise<void> {
  const response = await service.request({ method: 'POST', url: PATHS.stage, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
}

/**
 * Creates a demo account through the service's own path, a stage then a process request, and
 * returns its account number.
 */
export async function createDemoAccount(
  service: TestService,
  payload: Record<string, unknown>,
): Promise<string> {
  await stageDemoAccount(service, payload);
  const response = await processDemoAccount(service, String(payload.external_account_number));
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { service_account_number: string }).service_account_number;
}

/** Runs around one query: `run` sends it to the database and resolves to its result. */
export type AroundQuery = (sql: string, run: () => Promise<unknown>) => Promise<unknown>;

/**
 * Sends a process request for a demo account through an app whose Kysely instance runs `around`
 * around each query it sends, on the real database: a test steps in at a chosen statement (an
 * operator acting, a claim given back, an answer lost). Statements run in a transaction or in
 * SQLite's group commit go through another connection, and are not seen.
 */
export async function processThrough(
  service: TestService,
  external: string,
  around: AroundQuery,
): Promise<LightMyRequestResponse> {
  const { db } = service;
  const kysely = new Proxy(db.kysely, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (property !== 'executeQuery' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (query: { sql: string }, ...rest: unknown[]) =>
        around(query.sql, () => value.call(target, query, ...rest) as Promise<unknown>);
    },
  });
  const app = await buildApp({ ...service.ctx, db: { ...db, kysely } });
  try {
    return await app.inject({
      method: 'POST',
      url: PATHS.process,
      headers: { authorization: `Token ${service.token}` },
      payload: demoProcessBody(external),
    });
  } finally {
    await app.close();
  }
}

/**
 * The pages of a list from `url` on, following each page's `Link: <…>; rel="next"` to the end;
 * every page must answer 200.
 */
export async function listPages<Item>(service: TestService, url: string): Promise<Item[][]> {
  const pages: Item[][] = [];
  let next: string | undefined = url;
  while (next) {
    const response = await service.request({ method: 'GET', url: next });
    expect(response.statusCode, next).toBe(200);
    pages.push(response.json() as Item[]);
    next = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link ?? ''))?.[1];
  }
  return pages;
}
