/**
 * Created accounts as the operator reads them back (`account show`): found by account number,
 * or by import supplier and external account number, and given as kept, the payload untouched,
 * with what the post-import endpoints added since.
 */
import { findAccount, readAccount, type StoredAccount } from '../accounts/account-store.js';
import type { Db } from '../db/database.js';
import { allAddedItems } from '../post-import/additions.repository.js';
import { addedTransactions } from '../post-import/transactions/transactions.repository.js';
import { holdsLiveClaim } from '../imports/creation/creation.repository.js';
import { quoted } from '../shared/quoted.js';
import * as repository from './accounts.repository.js';
import { OperatorError } from '../shared/operator-error.js';
import { accountNumber, externalAccountNumber } from './operator.rules.js';
import type { ShownAccount } from './operator.types.js';
import { requireSupplierId } from './suppliers.service.js';

/** The account with this account number (`A-` and 8 hex digits). */
export async function showAccountByNumber(db: Db, number: string): Promise<ShownAccount> {
  const wanted = accountNumber(number);
  const account = await readAccount(db, wanted);
  if (account === undefined) throw new OperatorError(`account ${quoted(wanted)} does not exist`);
  return shown(db, account);
}

/**
 * The account created for the supplier's external account number. When there is none, the
 * message says whether the account was staged, and whether a process request is creating it.
 */
export async function showAccountOf(
  db: Db,
  supplierCode: string,
  externalNumber: string,
): Promise<ShownAccount> {
  const supplier = supplierCode.trim();
  const number = externalAccountNumber(externalNumber);
  const supplierId = await requireSupplierId(db.kysely, supplier);
  const account = await findAccount(db, supplier, number);
  if (account !== undefined) return shown(db, account);
  const name = `account ${quoted(number)} of import supplier ${quoted(supplier)}`;
  const process = await repository.findProcessState(db.kysely, supplierId, number);
  if (process === undefined) {
    throw new OperatorError(`${name} was never staged, so no account was created for it`);
  }
  if (process.state === 'completed') {
    // Created between the two reads: the account is there now.
    const created = await findAccount(db, supplier, number);
    if (created !== undefined) return shown(db, created);
    throw new Error(`${name} is recorded as imported, but its account is missing`);
  }
  const creating = holdsLiveClaim(process, Date.now()) ? '; a process request is creating it' : '';
  throw new OperatorError(`${name} is staged, but no account was created for it yet${creating}`);
}

async function shown(db: Db, account: StoredAccount): Promise<ShownAccount> {
  const names = await repository.namesOf(db.kysely, account.supplierId, account.teamId);
  return {
    number: account.number,
    supplierCode: names.code,
    externalAccountNumber: account.externalAccountNumber,
    teamName: names.name,
    createdAt: account.createdAt,
    payload: account.payload,
    added: {
      ...(await allAddedItems(db.kysely, account.id)),
      transactions: await addedTransactions(db.kysely, account.id),
    },
  };
}
