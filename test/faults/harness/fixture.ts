/**
 * A migrated database with one organisation (granted supplier DEMO), team Migrations and the
 * demo reference catalogue, whose codes the test accounts name.
 */
import { afterAll, beforeAll } from 'vitest';
import { connect } from '../../../src/db/connect.js';
import type { Db, Dialect } from '../../../src/db/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { demoReferenceLines } from '../../../src/reference/reference.demo.js';
import { importReference } from '../../../src/reference/reference.service.js';
import { createOrganisation } from '../../helpers/auth.js';
import { createTestDatabase } from '../../helpers/databases.js';

export const SUPPLIER = 'DEMO';
export const TEAM = 'Migrations';

export interface FaultsDatabase {
  url: string;
  /** The API key of organisation `acme`, granted DEMO. */
  apiKey: string;
  /** A fresh connection of the test's own (close it). */
  open(): Db;
  destroy(): Promise<void>;
}

/** Migrates the database at `url` and adds the organisation, its supplier, the team and the catalogue. */
export async function seedDatabase(url: string): Promise<string> {
  const db = connect(url);
  try {
    await migrateToLatest(db);
    const { apiKey } = await createOrganisation(db, 'acme', [SUPPLIER]);
    await db.kysely
      .insertInto('operations_teams')
      .values({ name: TEAM, created_at: Date.now() })
      .execute();
    await importReference(db, demoReferenceLines());
    return apiKey;
  } finally {
    await db.close();
  }
}

/** A fresh, seeded database of the dialect (SQLite in a temp dir, PostgreSQL on 127.0.0.1). */
export async function createFaultsDatabase(dialect: Dialect): Promise<FaultsDatabase> {
  const database = await createTestDatabase(dialect);
  const apiKey = await seedDatabase(database.url);
  return {
    url: database.url,
    apiKey,
    open: () => connect(database.url),
    destroy: () => database.destroy(),
  };
}

/** What a suite's tests close when it ends: the loads they started. */
interface Closable {
  close(): Promise<void>;
}

/**
 * The enclosing suite's database, created before its first test and destroyed after its last,
 * with `track` for each load a test starts (closed first). Filled in place, like useTestService.
 */
export function useFaultsDatabase(dialect: Dialect): {
  database: FaultsDatabase;
  track<L extends Closable>(load: L): L;
} {
  const database = {} as FaultsDatabase;
  const started: Closable[] = [];
  beforeAll(async () => {
    Object.assign(database, await createFaultsDatabase(dialect));
  });
  afterAll(async () => {
    for (const load of started) await load.close();
    await database.destroy();
  });
  return {
    database,
    track: (load) => {
      started.push(load);
      return load;
    },
  };
}
