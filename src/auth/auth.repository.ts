/** Every SQL statement of authentication: organisations by key, refresh tokens, grants. */
import { compiledQuery, type Params } from '../db/compiled.js';
import type { Kysely } from 'kysely';
import { SUPPLIER_COLUMNS, type Database, type Db, type ImportSupplier } from '../db/database.js';

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
const activeOrganisation = compiledQuery(
  (db, p: Params<{ id: number; enabled: number; keyVersion: number }>) =>
    db
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where('id', '=', p.id)
      .where('enabled', '=', p.enabled)
      .where('key_version', '=', p.keyVersion),
);

/** The organisation if it is enabled and still on this key version (run on every request). */
export async function findActiveOrganisation(
  db: Executor,
  organisationId: number,
  keyVersion: number,
): Promise<{ id: number; name: string } | undefined> {
  const { rows } = await activeOrganisation(db, { id: organisationId, enabled: 1, keyVersion });
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

/**
 * The suppliers with this code (one at most) when the organisation is still enabled, on this key
 * version, and granted it; the caller selects what it needs (a subquery, or an EXISTS check).
 */
export function grantedSupplierQuery(
  db: Kysely<Database>,
  organisationId: number,
  keyVersion: number,
  code: string,
) {
  return db
    .selectFrom('organisations as o')
    .innerJoin('organisation_suppliers as g', 'g.organisation_id', 'o.id')
    .innerJoin('import_suppliers as s', 's.id', 'g.supplier_id')
    .where('o.id', '=', organisationId)
    .where('o.enabled', '=', 1)
    .where('o.key_version', '=', keyVersion)
    .where('s.code', '=', code);
}

/**
 * The organisation (when still enabled and on this key version) and, in the same query, the
 * supplier with this code if it is granted to the organisation, its columns prefixed
 * `supplier_`: requests that name a supplier check their caller and find the supplier in one
 * statement. Other lookups join what they need to it.
 */
export function callerSupplierQuery(
  db: Kysely<Database>,
  organisationId: number,
  keyVersion: number,
  code: string,
) {
  return db
    .selectFrom('organisations as o')
    .leftJoin('import_suppliers as s', (join) => join.on('s.code', '=', code))
    .leftJoin('organisation_suppliers as g', (join) =>
      join.onRef('g.organisation_id', '=', 'o.id').onRef('g.supplier_id', '=', 's.id'),
    )
    .select([
      'g.supplier_id as granted_supplier_id',
      ...SUPPLIER_COLUMNS.map((column) => `s.${column} as supplier_${column}` as const),
    ])
    .where('o.id', '=', organisationId)
    .where('o.enabled', '=', 1)
    .where('o.key_version', '=', keyVersion);
}

/** The granted supplier of a callerSupplierQuery row; undefined when there is none. */
export function grantedSupplierOf(row: {
  granted_supplier_id: unknown;
}): ImportSupplier | undefined {
  if (row.granted_supplier_id === null) return undefined;
  const columns = row as Record<string, unknown>;
  return Object.fromEntries(
    SUPPLIER_COLUMNS.map((column) => [column, columns[`supplier_${column}`]]),
  ) as unknown as ImportSupplier;
}

const callerSupplier = compiledQuery(
  (db, p: Params<{ organisationId: number; keyVersion: number; code: string }>) =>
    callerSupplierQuery(db, p.organisationId, p.keyVersion, p.code),
);

/**
 * Undefined when the organisation is disabled or its key rotated; otherwise the supplier, which
 * is undefined when it does not exist or is not granted.
 */
export async function findCallerSupplier(
  db: Executor,
  organisationId: number,
  keyVersion: number,
  code: string,
): Promise<{ supplier: ImportSupplier | undefined } | undefined> {
  const row = (await callerSupplier(db, { organisationId, keyVersion, code })).rows[0];
  return row && { supplier: grantedSupplierOf(row) };
}
