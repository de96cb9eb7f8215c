/**
 * On SQLite, each list's index holds every column its page reads, so a page is read from the
 * index alone, without looking up each row in the table:
 * - the all-list and imported-list indexes gain the two columns an item shows besides the
 *   ordering key (`service_account_number`, `account_created_at`);
 * - the pending-list index gains `state`, which its page filters on (SQLite reads a column
 *   compared with `<>` from the row even when the partial index implies the comparison). A
 *   pending item shows both other columns as null, which its statement writes as literals.
 *
 * What it costs: an account creation sets `service_account_number` and `account_created_at`, so
 * the all-list entry is now rewritten then too (the imported entry is new at that moment
 * anyway). Every write that changes `state` already rewrote the pending entry, since `state`
 * is in that index's WHERE clause. Stages and re-stages set none of these columns.
 *
 * PostgreSQL keeps its indexes. There an index-only scan still visits the table for the rows
 * changed since the last vacuum, and the benchmark measured no gain from the wider all-list
 * and imported-list indexes, and a dearer pending page with `state` in its index.
 * docs/decisions.md has the measurements.
 *
 * The indexes are dropped and built again in one transaction (SQLite cannot alter an index).
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

const ORDER = ['supplier_id', 'first_staged_at', 'external_account_number'];
const SHOWN = ['service_account_number', 'account_created_at'];

interface ListIndex {
  name: string;
  columns: string[];
  /** The partial index's condition on `state`, if any. */
  state?: { op: '=' | '<>'; value: 'completed' };
}

/** The three list indexes, with the columns of their pages (`covering`) or only their order. */
function listIndexes(covering: boolean): ListIndex[] {
  const shown = covering ? SHOWN : [];
  return [
    { name: 'import_processes_order_idx', columns: [...ORDER, ...shown] },
    {
      name: 'import_processes_pending_order_idx',
      columns: covering ? [...ORDER, 'state'] : ORDER,
      state: { op: '<>', value: 'completed' },
    },
    {
      name: 'import_processes_imported_order_idx',
      columns: [...ORDER, ...shown],
      state: { op: '=', value: 'completed' },
    },
  ];
}

async function rebuild(db: Kysely<unknown>, indexes: ListIndex[]): Promise<void> {
  for (const { name, columns, state } of indexes) {
    await db.schema.dropIndex(name).execute();
    const index = db.schema.createIndex(name).on('import_processes').columns(columns);
    await (state ? index.where(sql.ref('state'), state.op, state.value) : index).execute();
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, listIndexes(true));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, listIndexes(false));
}
