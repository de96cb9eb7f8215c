/**
 * On PostgreSQL, the text keys that lists and operator listings are ordered by compare byte by
 * byte (collation "C"), as SQLite's always do. Lists are ordered by staging time, then external
 * account number; without this, accounts staged in the same millisecond came back in the
 * order of the database's collation, which differs from SQLite's as soon as it is not C (en_US
 * puts `a0` before `B0`, and `_z0` before both). Likewise supplier codes, organisation names
 * and team names in the operator's listings.
 *
 * Every column holding an external account number changes, not only the listed one: a
 * comparison between two columns of different collations is an error in PostgreSQL. Changing a
 * column's collation rebuilds the indexes that hold it; it rewrites no table. Equality is
 * unchanged (PostgreSQL's collations here are deterministic), so no unique key can start to
 * clash. SQLite compares text byte by byte already, so nothing changes there.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

const KEYS: readonly [table: string, column: string][] = [
  ['import_processes', 'external_account_number'],
  ['accounts', 'external_account_number'],
  ['skip_marks', 'external_account_number'],
  ['import_suppliers', 'code'],
  ['organisations', 'name'],
  ['operations_teams', 'name'],
];

async function collate(db: Kysely<unknown>, collation: 'C' | 'default'): Promise<void> {
  for (const [table, column] of KEYS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)}
      type text collate ${sql.id(collation)}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await collate(db, 'C');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await collate(db, 'default');
}
