/** Every SQL statement on organisations, their API keys and their supplier grants. */
import type { Insertable, Kysely } from 'kysely';
import type { Database, OrganisationsTable } from '../db/database.js';
import type { Organisation } from './operator.types.js';

function organisations(db: Kysely<Database>) {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'enabled', 'key_id', 'key_version', 'created_at']);
}

/** Inserts the organisation and returns its id; undefined when the name is taken. */
export async function insertOrganisation(
  db: Kysely<Database>,
  row: Insertable<OrganisationsTable>,
): Promise<number | undefined> {
  const created = await db
    .insertInto('organisations')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('id')
    .executeTakeFirst();
  return created && Number(created.id);
}

export async function findOrganisationId(
  db: Kysely<Database>,
  name: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('organisations')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  return row && Number(row.id);
}

/** Organisations with their granted supplier codes; two queries keep it portable (no string_agg). */
export async function listOrganisations(
  db: Kysely<Database>,
  name?: string,
): Promise<Organisation[]> {
  let query = organisations(db).orderBy('name');
  if (name !== undefined) query = query.where('name', '=', name);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const grants = await db
    .selectFrom('organisation_suppliers as g')
    .innerJoin('import_suppliers as s', 's.id', 'g.supplier_id')
    .select(['g.organisation_id', 's.code'])
    .where(
      'g.organisation_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('s.code')
    .execute();
  return rows.map((row) => ({
    name: row.name,
    enabled: row.enabled === 1,
    suppliers: grants
      .filter((g) => Number(g.organisation_id) === Number(row.id))
      .map((g) => g.code),
    keyId: row.key_id,
    keyVersion: row.key_version,
    createdAt: Number(row.created_at),
  }));
}

/** Grants the supplier; false when it was already granted. */
export async function insertGrant(
  db: Kysely<Database>,
  organisationId: number,
  supplierId: number,
): Promise<boolean> {
  const row = await db
    .insertInto('organisation_suppliers')
    .values({ organisation_id: organisationId, supplier_id: supplierId })
    .onConflict((oc) => oc.columns(['organisation_id', 'supplier_id']).doNothing())
    .returning('supplier_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Revokes the supplier; false when it was not granted. */
export async function deleteGrant(
  db: Kysely<Database>,
  organisationId: number,
  supplierId: number,
): Promise<boolean> {
  const result = await db
    .deleteFrom('organisation_suppliers')
    .where('organisation_id', '=', organisationId)
    .where('supplier_id', '=', supplierId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Stores a new key and bumps key_version, which invalidates every token of the old key. */
export async function replaceKey(
  db: Kysely<Database>,
  organisationId: number,
  key: { keyId: string; keyHash: string },
): Promise<number> {
  const row = await db
    .updateTable('organisations')
    .set((eb) => ({
      key_id: key.keyId,
      key_hash: key.keyHash,
      key_version: eb('key_version', '+', 1),
    }))
    .where('id', '=', organisationId)
    .returning('key_version')
    .executeTakeFirstOrThrow();
  return row.key_version;
}

export async function setEnabled(
  db: Kysely<Database>,
  organisationId: number,
  enabled: boolean,
): Promise<void> {
  await db
    .updateTable('organisations')
    .set({ enabled: enabled ? 1 : 0 })
    .where('id', '=', organisationId)
    .execute();
}

/** True when at least one organisation exists. */
export async function anyOrganisation(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('organisations').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}
