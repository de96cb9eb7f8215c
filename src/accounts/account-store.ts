/**
 * The account store: writeAccount keeps a created account, readAccount and findAccount give it
 * back. What is stored is declared once (account-rows.ts); how it is written is the one thing
 * that differs between the databases, picked by the storage strategy.
 */
import type { Selectable } from 'kysely';
import type { EnergyAccount } from '../account/account.js';
import { compiledQuery, type Params } from '../db/compiled.js';
import type { AccountsTable, Db, Executor } from '../db/database.js';
import { accountRows, type NewAccount } from './account-rows.js';
import type { Completion } from './account-writer.js';
import { postgresAccountWriter } from './postgres-account-writer.js';
import { sqliteAccountWriter } from './sqlite-account-writer.js';

export type { Completion } from './account-writer.js';

/** How the account is written on each database (the storage strategy picks one). */
const WRITERS = { sqlite: sqliteAccountWriter, postgres: postgresAccountWriter };

/**
 * Stores the account and its child rows in one atomic write, with the completion of its import
 * process (or rolled back, for a rehearsal). Returns the account's id, or undefined when the
 * claim on the process was lost (nothing is written then).
 */
export function writeAccount(
  db: Db,
  account: NewAccount,
  completion: Completion,
): Promise<number | undefined> {
  return db.storage.pick(WRITERS).write(db, accountRows(account), completion);
}

export interface StoredAccount {
  id: number;
  number: string;
  supplierId: number;
  externalAccountNumber: string;
  processId: number;
  teamId: number;
  createdAt: number;
  /** The account as it was created: its normalised payload. */
  payload: EnergyAccount;
}

/** The account with this id (a number) or account number (a string), if there is one. */
export async function readAccount(
  db: Db,
  account: number | string,
): Promise<StoredAccount | undefined> {
  const row = await db.kysely
    .selectFrom('accounts')
    .selectAll()
    .where(typeof account === 'number' ? 'id' : 'number', '=', account)
    .executeTakeFirst();
  return row && storedAccount(row);
}

const documentOf = compiledQuery((db, p: Params<{ accountId: number }>) =>
  db.selectFrom('accounts').select('document').where('id', '=', p.accountId),
);

/** The created account's document (its normalised payload, as JSON text), read on `db`. */
export async function readAccountDocument(db: Executor, accountId: number): Promise<string> {
  const [row] = (await documentOf(db, { accountId })).rows;
  if (row === undefined) throw new Error(`readAccountDocument: no account ${accountId}`);
  return row.document;
}

/** The account created for this external account number of the supplier with this code, if any. */
export async function findAccount(
  db: Db,
  supplierCode: string,
  externalAccountNumber: string,
): Promise<StoredAccount | undefined> {
  const row = await db.kysely
    .selectFrom('accounts as a')
    .innerJoin('import_suppliers as s', 's.id', 'a.supplier_id')
    .selectAll('a')
    .where('s.code', '=', supplierCode)
    .where('a.external_account_number', '=', externalAccountNumber)
    .executeTakeFirst();
  return row && storedAccount(row);
}

function storedAccount(row: Selectable<AccountsTable>): StoredAccount {
  return {
    id: Number(row.id),
    number: row.number,
    supplierId: Number(row.supplier_id),
    externalAccountNumber: row.external_account_number,
    processId: Number(row.import_process_id),
    teamId: Number(row.operations_team_id),
    createdAt: Number(row.created_at),
    payload: JSON.parse(row.document) as EnergyAccount,
  };
}
