/** The list statements: keyset pages of a supplier's processes, served by partial indexes. */
import { sql, type Kysely } from 'kysely';
import { compiledArrayQuery } from '../db/compiled.js';
import type { Database, Executor } from '../db/database.js';

export type ListKind = 'all' | 'pending' | 'imported';

/** A listed process: its columns in LIST_COLUMNS order (arrays: the lists return many rows). */
export type ListRow = [
  externalAccountNumber: string,
  serviceAccountNumber: string | null,
  accountCreatedAt: number | null,
  firstStagedAt: number,
];

const LIST_COLUMNS = [
  'external_account_number',
  'service_account_number',
  'account_created_at',
  'first_staged_at',
] as const;

function listQuery(db: Kysely<Database>, supplierId: number, kind: ListKind) {
  const query = db
    .selectFrom('import_processes')
    .select(LIST_COLUMNS)
    .where('supplier_id', '=', supplierId);
  // Literal states (not bound parameters) let the planners match the partial list indexes.
  if (kind === 'pending') return query.where('state', '<>', sql.lit('completed'));
  if (kind === 'imported') return query.where('state', '=', sql.lit('completed'));
  return query;
}

function listQueries(kind: ListKind) {
  return {
    first: compiledArrayQuery<[number, number], ListRow>(2, (db, supplierId, limit) =>
      listQuery(db, supplierId, kind)
        .orderBy('first_staged_at')
        .orderBy('external_account_number')
        .limit(limit),
    ),
    after: compiledArrayQuery<[number, number, number, string], ListRow>(
      4,
      (db, supplierId, limit, afterTime, afterNumber) =>
        listQuery(db, supplierId, kind)
          .where((eb) =>
            eb(
              eb.refTuple('first_staged_at', 'external_account_number'),
              '>',
              eb.tuple(afterTime, afterNumber),
            ),
          )
          .orderBy('first_staged_at')
          .orderBy('external_account_number')
          .limit(limit),
    ),
  };
}

const LISTS = {
  all: listQueries('all'),
  pending: listQueries('pending'),
  imported: listQueries('imported'),
};

/** One keyset page of a supplier's processes, in (first staging time, external number) order. */
export async function listProcesses(
  db: Executor,
  supplierId: number,
  kind: ListKind,
  limit: number,
  after: { firstStagedAt: number; externalAccountNumber: string } | undefined,
): Promise<ListRow[]> {
  const queries = LISTS[kind];
  const result = after
    ? await queries.after(db, supplierId, limit, after.firstStagedAt, after.externalAccountNumber)
    : await queries.first(db, supplierId, limit);
  return result.rows;
}
