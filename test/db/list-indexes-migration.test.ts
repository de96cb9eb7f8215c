/**
 * Migration 0005 rebuilds SQLite's three list indexes with the columns their pages read
 * (covering indexes), and `down` rebuilds them as they were; PostgreSQL's are left as they are.
 * The rows already stored are listed the same either way. That SQLite then reads pages from the
 * indexes alone is checked on the service's own statements in sqlite-plans.test.ts.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261123_0004_references_to_shared_rows';
const MIGRATION = '20261124_0005_covering_list_indexes';
const ORDER = ['supplier_id', 'first_staged_at', 'external_account_number'];
/** The list indexes before the migration (and on PostgreSQL after it): the ordering key only. */
const ORDER_ONLY = { order: ORDER, pending_order: ORDER, imported_order: ORDER };

await describeEachDialect('migration 0005: covering list indexes', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  /** A database one step before 0005 holding one pending and one completed process. */
  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await sql`insert into import_suppliers (id, code, status, created_at)
      values (1, 'S', 'Ongoing', 1)`.execute(db.kysely);
    await sql`insert into import_processes (supplier_id, external_account_number, state, version,
        first_staged_at, last_staged_at, service_account_number, account_created_at)
      values (1, 'E-2', 'pending', 1, 2, 2, null, null),
        (1, 'E-1', 'completed', 1, 1, 1, 'A-0000000A', 5)`.execute(db.kysely);
  });

  afterEach(() => destroy());

  /** The columns of each list index, in index order. */
  async function indexColumns(): Promise<Record<string, string[]>> {
    const names = [
      'import_processes_order_idx',
      'import_processes_pending_order_idx',
      'import_processes_imported_order_idx',
    ];
    const entries = await Promise.all(
      names.map(async (name) => {
        const { rows } =
          dialect === 'sqlite'
            ? await sql<{ name: string }>`
                select name from pragma_index_info(${name}) order by seqno`.execute(db.kysely)
            : await sql<{ name: string }>`
                select a.attname as name
                from pg_index i
                join pg_class c on c.oid = i.indexrelid
                join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
                where c.relname = ${name}
                order by array_position(i.indkey::int2[], a.attnum)`.execute(db.kysely);
        return [name.replace(/^import_processes_|_idx$/g, ''), rows.map((row) => row.name)];
      }),
    );
    return Object.fromEntries(entries) as Record<string, string[]>;
  }

  /** The processes of each list as the list statements filter them, in list order. */
  async function listed(): Promise<string[][]> {
    const list = (state: string) => sql<{ external_account_number: string }>`
      select external_account_number from import_processes
      where supplier_id = 1 and ${sql.raw(state)}
      order by first_staged_at, external_account_number`;
    const lists = [list('true'), list(`state <> 'completed'`), list(`state = 'completed'`)];
    const results = await Promise.all(lists.map((query) => query.execute(db.kysely)));
    return results.map(({ rows }) => rows.map((row) => row.external_account_number));
  }

  it('puts the columns each list reads in its SQLite index, and down takes them out again', async () => {
    const lists = [['E-1', 'E-2'], ['E-2'], ['E-1']];
    expect(await indexColumns()).toEqual(ORDER_ONLY);

    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);
    const shown = ['service_account_number', 'account_created_at'];
    expect(await indexColumns()).toEqual(
      dialect === 'sqlite'
        ? {
            order: [...ORDER, ...shown],
            pending_order: [...ORDER, 'state'],
            imported_order: [...ORDER, ...shown],
          }
        : ORDER_ONLY,
    );
    expect(await listed()).toEqual(lists);

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect(await indexColumns()).toEqual(ORDER_ONLY);
    expect(await listed()).toEqual(lists);
  });
});
