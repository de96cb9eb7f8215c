/**
 * On PostgreSQL, the staged payloads (a few kB each, so compressed on every write) are
 * compressed with lz4 rather than the default pglz, which costs the server far more CPU per
 * stage. Only values written from now on use lz4; older ones stay readable as they are. Skipped
 * on SQLite, which does not compress, and on a server built without lz4.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

const STAGED_DATA = ['import_processes', 'import_process_versions'];

async function lz4Available(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ available: boolean }>`
    select exists (
      select from pg_settings
      where name = 'default_toast_compression' and 'lz4' = any (enumvals)
    ) as available`.execute(db);
  return rows[0]?.available === true;
}

async function setCompression(db: Kysely<unknown>, method: 'lz4' | 'default'): Promise<void> {
  for (const table of STAGED_DATA) {
    await sql`alter table ${sql.table(table)} alter column data set compression ${sql.raw(method)}`.execute(
      db,
    );
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db) && (await lz4Available(db))) await setCompression(db, 'lz4');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db) && (await lz4Available(db))) await setCompression(db, 'default');
}
