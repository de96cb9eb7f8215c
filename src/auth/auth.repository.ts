/** Every SQL statement of authentication: organisations by key, refresh tokens, grants. */
import { compiledQuery } from '../db/compiled.js';
import type { Db, ImportSupplier } from '../db/database.js';

export interface OrganisationCredentials {
  id: number;
  name: string;
  enabled: boolean;
  keyHash: string;
  keyVersion: number;
}

export interface StoredRefreshToken {
  familyId: string;
  organisationId: number;
  keyVersion: number;
  expiresAt: number;
  usedAt: number | null;
  organisation: { name: string; enabled: boolean; keyVersion: number };
}

export interface NewRefreshToken {
  tokenHash: string;
  familyId: string;
  organisationId: number;
  keyVersion: number;
  expiresAt: number;
  createdAt: number;
}

type Executor = Db['kysely'];

export async function findOrganisationByKeyId(
  db: Executor,
  keyId: string,
): Promise<OrganisationCredentials | undefined> {
  const row = await db
    .selectFrom('organisations')
    .select(['id', 'name', 'enabled', 'key_hash', 'key_version'])
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    keyHash: row.key_hash,
    keyVersion: row.key_version,
  };
}

/** The organisation when it is enabled and still on this key version: one query per request. */
const activeOrganisation = compiledQuery(3, (db, id: number, enabled: number, keyVersion: number) =>
  db
    .selectFrom('organisations')
    .select(['id', 'name'])
    .where('id', '=', id)
    .where('enabled', '=', enabled)
    .where('key_version', '=', keyVersion),
);

/** The organisation if it is enabled and still on this key version (run on every request). */
export async function findActiveOrganisation(
  db: Executor,
  organisationId: number,
  keyVersion: number,
): Promise<{ id: number; name: string } | undefined> {
  const { rows } = await activeOrganisation(db, organisationId, 1, keyVersion);
  return rows[0];
}

export async function findRefreshToken(
  db: Executor,
  tokenHash: string,
): Promise<StoredRefreshToken | undefined> {
  const row = await db
    .selectFrom('refresh_tokens as t')
    .innerJoin('organisations as o', 'o.id', 't.organisation_id')
    .select([
      't.family_id',
      't.organisation_id',
      't.key_version',
      't.expires_at',
      't.used_at',
      'o.name',
      'o.enabled',
      'o.key_version as organisation_key_version',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    familyId: row.family_id,
    organisationId: row.organisation_id,
    keyVersion: row.key_version,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    organisation: {
      name: row.name,
      enabled: row.enabled === 1,
      keyVersion: row.organisation_key_version,
    },
  };
}

export async function insertRefreshToken(db: Executor, token: NewRefreshToken): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      token_hash: token.tokenHash,
      family_id: token.familyId,
      organisation_id: token.organisationId,
      key_version: token.keyVersion,
      expires_at: token.expiresAt,
      used_at: null,
      created_at: token.createdAt,
    })
    .execute();
}

/** Marks the token used; true only for the one request that flipped it (rotation is atomic). */
export async function consumeRefreshToken(
  db: Executor,
  tokenHash: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Marks every unused token of the family used, ending a stolen token's line. */
export async function revokeRefreshFamily(
  db: Executor,
  familyId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('family_id', '=', familyId)
    .where('used_at', 'is', null)
    .execute();
}

/** The supplier when it exists and is granted to the organisation, in one query. */
const grantedSupplier = compiledQuery(2, (db, organisationId: number, code: string) =>
  db
    .selectFrom('import_suppliers as s')
    .innerJoin('organisation_suppliers as g', 'g.supplier_id', 's.id')
    .selectAll('s')
    .where('g.organisation_id', '=', organisationId)
    .where('s.code', '=', code),
);

export async function findGrantedSupplier(
  db: Db,
  organisationId: number,
  code: string,
): Promise<ImportSupplier | undefined> {
  const { rows } = await grantedSupplier(db.kysely, organisationId, code);
  return rows[0];
}
