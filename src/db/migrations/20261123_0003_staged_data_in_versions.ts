/**
 * A process's staged payload lives only in its version rows: `import_processes` loses its copy
 * of the latest version's data, and the latest payload is the version row whose number is the
 * process's `version`. Every stage wrote the payload twice (the process row and its version);
 * now it writes it once, and the process rows, which claims, completions and lists read and
 * rewrite, shrink from a few kB to a few dozen bytes.
 *
 * Every stage has always written its version row beside the process row, so the versions
 * already hold every latest payload. The migration checks that before dropping anything and
 * refuses, changing nothing, if a process lacks the version row of its current version.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/** The current version's data of each process, for the checks and for `down`. */
const CURRENT_DATA = sql`(
  select v.data from import_process_versions v
  where v.process_id = import_processes.id and v.version = import_processes.version
)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number }>`
    select id from import_processes where not exists ${CURRENT_DATA} limit 1`.execute(db);
  const missing = rows[0];
  if (missing) {
    throw new Error(
      `import process ${missing.id} has no version row for its current version: ` +
        'its staged data would be lost, so nothing was changed',
    );
  }
  await db.schema.alterTable('import_processes').dropColumn('data').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const table = db.schema.alterTable('import_processes');
  if (!isPostgres(db)) {
    // SQLite adds a NOT NULL column only with a default; every row is filled at once below.
    await table.addColumn('data', 'text', (c) => c.notNull().defaultTo('')).execute();
    await sql`update import_processes set data = ${CURRENT_DATA}`.execute(db);
    return;
  }
  await table.addColumn('data', 'text').execute();
  if (await versionsUseLz4(db)) {
    await sql`alter table import_processes alter column data set compression lz4`.execute(db);
  }
  await sql`update import_processes set data = ${CURRENT_DATA}`.execute(db);
  await table.alterColumn('data', (c) => c.setNotNull()).execute();
}

/** Whether the versions' data is compressed with lz4 (migration 0002; PostgreSQL 14 and later). */
async function versionsUseLz4(db: Kysely<unknown>): Promise<boolean> {
  const version = await sql<{ n: number }>`
    select current_setting('server_version_num')::int as n`.execute(db);
  if ((version.rows[0]?.n ?? 0) < 140000) return false;
  const { rows } = await sql<{ method: string }>`
    select attcompression::text as method from pg_attribute
    where attrelid = 'import_process_versions'::regclass and attname = 'data'`.execute(db);
  return rows[0]?.method === 'l';
}
