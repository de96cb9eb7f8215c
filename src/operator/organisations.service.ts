/**
 * Organisations: who may call the service. Each has one API key (stored as a hash, shown once)
 * and a set of import suppliers it may act on.
 */
import type { Kysely } from 'kysely';
import { generateApiKey } from '../auth/api-keys.js';
import type { Database, Db } from '../db/database.js';
import { atomicWrite } from '../db/storage.js';
import { quoted } from '../shared/quoted.js';
import { OperatorError } from '../shared/operator-error.js';
import { displayName } from './operator.rules.js';
import type { IssuedKey, Organisation } from './operator.types.js';
import * as repository from './organisations.repository.js';
import { requireSupplierId } from './suppliers.service.js';

/**
 * Creates an enabled organisation with a new API key and the given grants, all or nothing. It
 * reads the suppliers before it writes, so on SQLite it takes the write lock first (atomicWrite):
 * a deferred transaction whose read a running service's commit has made stale fails at its
 * first write with "database is locked", whatever the busy timeout.
 */
export async function addOrganisation(
  db: Db,
  name: string,
  supplierCodes: readonly string[] = [],
): Promise<IssuedKey & { suppliers: string[] }> {
  const trimmed = displayName('organisation', name);
  const codes = [...new Set(supplierCodes.map((code) => code.trim()))].sort();
  return atomicWrite(db, async (trx) => {
    const supplierIds = [];
    for (const code of codes) supplierIds.push(await requireSupplierId(trx, code));
    const key = generateApiKey();
    const id = await repository.insertOrganisation(trx, {
      name: trimmed,
      enabled: 1,
      key_id: key.keyId,
      key_hash: key.keyHash,
      key_version: 1,
      created_at: Date.now(),
    });
    if (id === undefined) throw new OperatorError(`organisation "${trimmed}" already exists`);
    for (const supplier of supplierIds) await repository.insertGrant(trx, id, supplier);
    return { name: trimmed, apiKey: key.apiKey, keyVersion: 1, suppliers: codes };
  });
}

/** Lets the organisation act on the supplier. */
export async function grantSupplier(db: Db, name: string, code: string): Promise<Organisation> {
  const organisation = await organisationId(db.kysely, name);
  const supplier = await requireSupplierId(db.kysely, code);
  if (!(await repository.insertGrant(db.kysely, organisation, supplier))) {
    throw new OperatorError(
      `organisation ${quoted(name.trim())} already has access to import supplier ${quoted(code.trim())}`,
    );
  }
  return getOrganisation(db, name);
}

/** Takes the supplier away from the organisation; its requests for it get 404 from then on. */
export async function revokeSupplier(db: Db, name: string, code: string): Promise<Organisation> {
  const organisation = await organisationId(db.kysely, name);
  const supplier = await requireSupplierId(db.kysely, code);
  if (!(await repository.deleteGrant(db.kysely, organisation, supplier))) {
    throw new OperatorError(
      `organisation ${quoted(name.trim())} has no access to import supplier ${quoted(code.trim())}`,
    );
  }
  return getOrganisation(db, name);
}

/** Issues a new key; the old key and every token obtained with it stop working (key_version + 1). */
export async function rotateOrganisationKey(db: Db, name: string): Promise<IssuedKey> {
  const id = await organisationId(db.kysely, name);
  const key = generateApiKey();
  const keyVersion = await repository.replaceKey(db.kysely, id, key);
  return { name: name.trim(), apiKey: key.apiKey, keyVersion };
}

/** Stops the organisation: its key and tokens are refused until it is enabled again. */
export function disableOrganisation(db: Db, name: string): Promise<Organisation> {
  return setEnabled(db, name, false);
}

/** Lets a disabled organisation in again, with its current key. */
export function enableOrganisation(db: Db, name: string): Promise<Organisation> {
  return setEnabled(db, name, true);
}

/** Every organisation with its granted supplier codes, ordered by name. */
export function listOrganisations(db: Db): Promise<Organisation[]> {
  return repository.listOrganisations(db.kysely);
}

/** One organisation by name; OperatorError when there is none. */
export async function getOrganisation(db: Db, name: string): Promise<Organisation> {
  const [organisation] = await repository.listOrganisations(db.kysely, name.trim());
  if (organisation === undefined) throw unknownOrganisation(name);
  return organisation;
}

async function setEnabled(db: Db, name: string, enabled: boolean): Promise<Organisation> {
  await repository.setEnabled(db.kysely, await organisationId(db.kysely, name), enabled);
  return getOrganisation(db, name);
}

async function organisationId(db: Kysely<Database>, name: string): Promise<number> {
  const id = await repository.findOrganisationId(db, name.trim());
  if (id === undefined) throw unknownOrganisation(name);
  return id;
}

function unknownOrganisation(name: string): OperatorError {
  return new OperatorError(`organisation ${quoted(name.trim())} does not exist`);
}
