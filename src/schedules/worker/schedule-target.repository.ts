/** What a worker reads about a claimed schedule's account before it creates it. */
import { sql } from 'kysely';
import {
  SUPPLIER_COLUMNS,
  type Executor,
  type ImportProcess,
  type ImportSupplier,
} from '../../db/database.js';

export interface ScheduleTarget {
  supplier: ImportSupplier;
  process: Pick<
    ImportProcess,
    'state' | 'external_account_number' | 'service_account_number' | 'lease_until'
  >;
  skipped: boolean;
}

/** The process, its supplier and whether the account bears a skip mark, in one statement. */
export async function readScheduleTarget(
  db: Executor,
  processId: number,
): Promise<ScheduleTarget | undefined> {
  const row = await db
    .selectFrom('import_processes as p')
    .innerJoin('import_suppliers as s', 's.id', 'p.supplier_id')
    .select(SUPPLIER_COLUMNS.map((column) => `s.${column}` as const))
    .select([
      'p.state',
      'p.external_account_number',
      'p.service_account_number',
      'p.lease_until',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('skip_marks as k')
              .select(sql.lit(1).as('one'))
              .whereRef('k.supplier_id', '=', 'p.supplier_id')
              .whereRef('k.external_account_number', '=', 'p.external_account_number'),
          )
          .as('skipped'),
    ])
    .where('p.id', '=', processId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { state, external_account_number, service_account_number, lease_until, skipped } = row;
  const supplier = Object.fromEntries(
    SUPPLIER_COLUMNS.map((column) => [column, row[column]]),
  ) as ImportSupplier;
  return {
    supplier,
    process: { state, external_account_number, service_account_number, lease_until },
    skipped: Boolean(Number(skipped)),
  };
}

/** The suppliers with these ids, by id. */
export async function readSuppliers(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, ImportSupplier>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('import_suppliers')
    .select(SUPPLIER_COLUMNS)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [Number(row.id), row]));
}
