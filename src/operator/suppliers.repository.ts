/** Every SQL statement on import suppliers; rows are mapped to camelCase views here. */
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { SUPPLIER_COLUMNS, type Database, type ImportSuppliersTable } from '../db/database.js';
import { readSupplierSettings } from '../settings/settings.declared.js';
import type { Supplier } from './operator.types.js';

type OperatorColumn = Exclude<(typeof SUPPLIER_COLUMNS)[number], 'id'>;

/** A supplier's columns but its id, which operators never see. */
const COLUMNS = SUPPLIER_COLUMNS.filter((column): column is OperatorColumn => column !== 'id');

type SupplierRow = Pick<Selectable<ImportSuppliersTable>, OperatorColumn>;

function toSupplier(row: SupplierRow): Supplier {
  return {
    code: row.code,
    status: row.status,
    documentRoot: row.document_root,
    customerEmails: row.customer_emails === 1,
    phoneRegion: row.phone_region,
    createdAt: Number(row.created_at),
    settings: readSupplierSettings(row.rule_settings),
  };
}

/** Inserts the supplier; undefined when the code is taken (no error, so no race on the check). */
export async function insertSupplier(
  db: Kysely<Database>,
  row: Insertable<ImportSuppliersTable>,
): Promise<Supplier | undefined> {
  const created = await db
    .insertInto('import_suppliers')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return created && toSupplier(created);
}

export async function updateSupplier(
  db: Kysely<Database>,
  code: string,
  changes: Updateable<ImportSuppliersTable>,
): Promise<Supplier | undefined> {
  const updated = await db
    .updateTable('import_suppliers')
    .set(changes)
    .where('code', '=', code)
    .returning(COLUMNS)
    .executeTakeFirst();
  return updated && toSupplier(updated);
}

export async function findSupplierId(
  db: Kysely<Database>,
  code: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('import_suppliers')
    .select('id')
    .where('code', '=', code)
    .executeTakeFirst();
  return row && Number(row.id);
}

/** The stored rule settings text of the supplier; undefined when there is no such supplier. */
export async function findRuleSettings(
  db: Kysely<Database>,
  code: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('import_suppliers')
    .select('rule_settings')
    .where('code', '=', code)
    .executeTakeFirst();
  return row?.rule_settings;
}

export async function listSuppliers(db: Kysely<Database>): Promise<Supplier[]> {
  const rows = await db.selectFrom('import_suppliers').select(COLUMNS).orderBy('code').execute();
  return rows.map(toSupplier);
}

/** True when at least one import supplier exists. */
export async function anySupplier(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('import_suppliers').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}
