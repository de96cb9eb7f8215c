/** Versioned schema migrations, compiled into the build so `migrate` needs no files at run time. */
import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import { connect } from './connect.js';
import type { Db } from './database.js';
import * as initial from './migrations/20261122_0001_initial.js';
import * as lz4StagedData from './migrations/20261123_0002_lz4_staged_data.js';
import * as stagedDataInVersions from './migrations/20261123_0003_staged_data_in_versions.js';
import * as referencesToSharedRows from './migrations/20261123_0004_references_to_shared_rows.js';
import * as coveringListIndexes from './migrations/20261124_0005_covering_list_indexes.js';
import * as byteOrderKeys from './migrations/20261124_0006_byte_order_keys.js';
import * as accountsAsDocuments from './migrations/20261127_0007_accounts_as_documents.js';
import * as referenceEntries from './migrations/20261128_0008_reference_entries.js';
import * as supplierRuleSettings from './migrations/20261129_0009_supplier_rule_settings.js';
import * as accountClaims from './migrations/20261130_0010_account_claims.js';
import * as accountAdditions from './migrations/20261201_0011_account_additions.js';
import * as accountTransactions from './migrations/20261201_0012_account_transactions.js';
import * as meterPointRegistrations from './migrations/20261201_0013_meter_point_registrations.js';
import * as accountEvents from './migrations/20261202_0014_account_events.js';
import * as creationSchedules from './migrations/20261202_0015_creation_schedules.js';
import * as validationStamps from './migrations/20261203_0016_validation_stamps.js';
import * as schedulesKeyedByProcess from './migrations/20261204_0017_schedules_keyed_by_process.js';
import * as errorDomainsInCapitals from './migrations/20261205_0018_error_domains_in_capitals.js';

/** The first migration: reverting it drops every table, and all the data in them. */
export const INITIAL_MIGRATION = '20261122_0001_initial';

const MIGRATIONS: Record<string, Migration> = {
  [INITIAL_MIGRATION]: initial,
  '20261123_0002_lz4_staged_data': lz4StagedData,
  '20261123_0003_staged_data_in_versions': stagedDataInVersions,
  '20261123_0004_references_to_shared_rows': referencesToSharedRows,
  '20261124_0005_covering_list_indexes': coveringListIndexes,
  '20261124_0006_byte_order_keys': byteOrderKeys,
  '20261127_0007_accounts_as_documents': accountsAsDocuments,
  '20261128_0008_reference_entries': referenceEntries,
  '20261129_0009_supplier_rule_settings': supplierRuleSettings,
  '20261130_0010_account_claims': accountClaims,
  '20261201_0011_account_additions': accountAdditions,
  '20261201_0012_account_transactions': accountTransactions,
  '20261201_0013_meter_point_registrations': meterPointRegistrations,
  '20261202_0014_account_events': accountEvents,
  '20261202_0015_creation_schedules': creationSchedules,
  '20261203_0016_validation_stamps': validationStamps,
  '20261204_0017_schedules_keyed_by_process': schedulesKeyedByProcess,
  '20261205_0018_error_domains_in_capitals': errorDomainsInCapitals,
};

/** Reverting the first migration was refused: it would drop every table and its data. */
export class InitialMigrationKept extends Error {
  override readonly name = 'InitialMigrationKept';
}

/**
 * The migrations, the first one's `down` refusing unless `dropAllData`: the refusal runs under
 * the migrator's lock, in its transaction, so two `migrate --down` at once cannot both find
 * another migration newest and then revert the first one.
 */
function migrator(db: Db, { dropAllData = true } = {}): Migrator {
  const keepInitial: Migration = {
    up: initial.up,
    down: () => Promise.reject(new InitialMigrationKept(`reverting ${INITIAL_MIGRATION} refused`)),
  };
  const migrations = dropAllData ? MIGRATIONS : { ...MIGRATIONS, [INITIAL_MIGRATION]: keepInitial };
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
}

/** Kysely's words for an applied migration this build does not have. */
const UNKNOWN_MIGRATION = /^corrupted migrations: previously executed migration (.+) is missing$/;

function check(result: MigrationResultSet): string[] {
  if (result.error) {
    const unknown = result.error instanceof Error && UNKNOWN_MIGRATION.exec(result.error.message);
    if (unknown) {
      throw new Error(
        `the database has migration ${unknown[1]}, which this version of account-import does ` +
          'not know: another version (a newer one, most likely) migrated it; run that version',
      );
    }
    throw result.error;
  }
  return (result.results ?? []).map(
    (r) => `${r.direction === 'Up' ? 'applied' : 'reverted'} ${r.migrationName}`,
  );
}

/** Brings the schema to the newest version; returns what was done, one line a migration. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return check(await migrator(db).migrateToLatest());
}

/**
 * Runs `migrate` on `db`, the database at `url`; on PostgreSQL on a connection of its own,
 * without the time limits of a request's statements (ConnectOptions.timeLimits), closed after.
 * SQLite has no such limits, and a second connection to `:memory:` would be another database.
 */
export async function onMigrationConnection<T>(
  db: Db,
  url: string,
  migrate: (db: Db) => Promise<T>,
): Promise<T> {
  if (db.dialect === 'sqlite') return migrate(db);
  const unlimited = connect(url, { poolSize: 1, timeLimits: false });
  try {
    return await migrate(unlimited);
  } finally {
    await unlimited.close();
  }
}

/** Brings the schema up or down to the named migration: tests reach an earlier schema with it. */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return check(await migrator(db).migrateTo(name));
}

/**
 * Reverts the newest applied migration; the first one (which drops every table) only with
 * `dropAllData`, otherwise InitialMigrationKept and nothing changes.
 */
export async function migrateDown(db: Db, { dropAllData = false } = {}): Promise<string[]> {
  return check(await migrator(db, { dropAllData }).migrateDown());
}
