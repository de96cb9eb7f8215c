/**
 * A focused benchmark of the creating write alone (no HTTP, no validation): how many accounts
 * per second `createAccount` stores, 32 at a time, and the CPU this process spends on each.
 * It compares builds, each given as the `dist` directory of a build of the service, in
 * alternating order over several rounds, on a fresh database each time:
 *
 *   tsc -p bench/tsconfig.json
 *   BENCH_ACCOUNT=big node node_modules/.cache/account-import-bench/account-store.js \
 *     --dist /path/to/other/dist --dist dist [--db sqlite] [--rounds 3] [--accounts 3000]
 *
 * The build's own migrations set its database up, so each build stores accounts its own way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { benchAccount } from './payload.js';

interface Build {
  label: string;
  connect(url: string): { kysely: Kysely; dialect: string; close(): Promise<void> };
  migrateToLatest(db: unknown): Promise<unknown>;
  createAccount(ctx: unknown, creation: unknown): Promise<string>;
  validate(payload: unknown, context: unknown): { ok: boolean; value?: unknown };
}

interface Kysely {
  insertInto(table: string): {
    values(rows: unknown): { returning(c: string): { execute(): Promise<{ id: number }[]> } };
  };
}

const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function loadBuild(dist: string): Promise<Build> {
  const load = (path: string) => import(pathToFileURL(join(resolve(dist), path)).href);
  const [connect, migrate, creation, account] = await Promise.all([
    load('db/connect.js'),
    load('db/migrate.js'),
    load('imports/creation/account-creation.js'),
    load('account/account.js'),
  ]);
  return {
    label: dist,
    connect: connect.connect,
    migrateToLatest: migrate.migrateToLatest,
    createAccount: creation.createAccount,
    validate: account.validateEnergyAccount,
  };
}

/** A fresh database: its URL and how to remove it. */
async function freshDatabase(dialect: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'account-store-bench-'));
    return {
      url: `sqlite:${join(dir, 'bench.db')}`,
      drop: async () => rmSync(dir, { recursive: true }),
    };
  }
  const name = `account_store_bench_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database ${name} with (force)`);
      await client.end();
    },
  };
}

async function measure(build: Build, dialect: string, accounts: number) {
  const database = await freshDatabase(dialect);
  const db = build.connect(database.url);
  try {
    await build.migrateToLatest(db);
    const now = Date.now();
    const [supplier] = await db.kysely
      .insertInto('import_suppliers')
      .values({
        code: 'BENCH',
        status: 'Ongoing',
        document_root: '/',
        customer_emails: 1,
        phone_region: 'GB',
        created_at: now,
      })
      .returning('id')
      .execute();
    const [team] = await db.kysely
      .insertInto('operations_teams')
      .values({ name: 'Migrations', created_at: now })
      .returning('id')
      .execute();
    const processes: { id: number }[] = [];
    for (let start = 0; start < accounts; start += 500) {
      const rows = Array.from({ length: Math.min(500, accounts - start) }, (_, i) => ({
        supplier_id: supplier?.id,
        external_account_number: `ACC-${start + i}`,
        state: 'in_progress',
        version: 1,
        first_staged_at: now,
        last_staged_at: now,
        claim_id: 'bench',
        lease_until: now + 3_600_000,
      }));
      processes.push(
        ...(await db.kysely.insertInto('import_processes').values(rows).returning('id').execute()),
      );
    }
    const full = {
      id: supplier?.id,
      code: 'BENCH',
      status: 'Ongoing',
      document_root: '/',
      customer_emails: 1,
      phone_region: 'GB',
      created_at: now,
    };
    const payloads = processes.map((_, i) => {
      const validated = build.validate(benchAccount('BENCH', `ACC-${i}`), {
        phoneRegion: 'GB',
        supplierFound: true,
      });
      if (!validated.ok) throw new Error('the bench payload must be valid');
      return validated.value;
    });
    const ctx = { db, config: { documentBucket: 'bench-documents' } };
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < processes.length; i = next++) {
        await build.createAccount(ctx, {
          supplier: full,
          teamId: team?.id,
          processId: processes[i]?.id,
          payload: payloads[i],
          dryRun: false,
          claimId: 'bench',
        });
      }
    };
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(Array.from({ length: 32 }, worker));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      perSecond: Math.round(accounts / seconds),
      cpuMicros: Math.round((used.user + used.system) / accounts),
    };
  } finally {
    await db.close();
    await database.drop();
  }
}

const { values } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true },
    db: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '3' },
    accounts: { type: 'string', default: '3000' },
  },
});
const builds = await Promise.all((values.dist ?? ['dist']).map(loadBuild));
const accounts = Number(values.accounts);
console.log(
  `account: ${process.env.BENCH_ACCOUNT === 'big' ? 'big' : 'small'}, ${accounts} accounts per run`,
);
for (let round = 1; round <= Number(values.rounds); round++) {
  // Alternate the order of the builds, so that neither always runs first.
  const order = round % 2 === 1 ? builds : [...builds].reverse();
  for (const dialect of values.db ?? ['sqlite', 'postgres']) {
    for (const build of order) {
      const result = await measure(build, dialect, accounts);
      console.log(
        `round ${round} ${dialect} ${build.label}: ${result.perSecond} accounts/s, ${result.cpuMicros} µs CPU/account (this process)`,
      );
    }
  }
}
