/**
 * transactions/create: adds transactions to a created account, each once, and moves its
 * ledger's balance by exactly those added (docs/interface.md, "Transactions").
 *
 * One atomic write per request: the account's own ledger is locked (or opened, on the account's
 * first request: its ledgers and the transactions of its original payload are written first),
 * the request's transactions are inserted in one statement that skips the ids the account holds
 * already, and the balance moves by the rows that statement inserted. Concurrent identical
 * requests therefore move it once: the second waits for the first's lock (PostgreSQL) or write
 * (SQLite), then inserts nothing. A dry run does the same and rolls back.
 */
import { refuseConfirmed, supplierCodeOf, type Caller } from '../../auth/access.js';
import { readAccountDocument } from '../../accounts/account-store.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { validationFailed, type FieldError } from '../../errors.js';
import { requireObjectBody, validOrRefused, type NulPath } from '../../http/json-body.js';
import { supplierRule } from '../../imports/staging/known-suppliers.js';
import { platformView } from '../../platform/platform-data.js';
import type { EnergyTransaction } from '../../account/account.js';
import { confirmCreatedAccount, eventSource, type CreatedAccount } from '../created-account.js';
import { accountMoneyOf, balanceChangeOf, fromScaled, MAIN_LEDGER, toScaled } from './ledger.js';
import * as repo from './transactions.repository.js';
import { validateTransactionsRequest, type TransactionsRequest } from './transactions.request.js';
import type { Kysely } from 'kysely';

type Json = Record<string, unknown>;

export type TransactionStatus =
  'TRANSACTION_ADDED_TO_ACCOUNT' | 'TRANSACTION_ALREADY_EXISTS' | 'TRANSACTION_IMPORT_ERROR';

/** The codes of the reasons of a TRANSACTION_IMPORT_ERROR (the field error catalogue has them). */
export const IMPORT_ERROR_CODES = ['supply_point_not_on_account'] as const;

/**
 * One transaction's outcome (the published TransactionAnnotatedWithStatus, and its reason),
 * with the transaction as the JSON text it was stored as (`transaction_data` in the answer).
 */
export interface TransactionResult {
  status: TransactionStatus;
  /** The added row's id; absent unless added (and on a dry run, where nothing is kept). */
  added_transaction_id?: number;
  /** Why a TRANSACTION_IMPORT_ERROR was not added, in the field error format. */
  error?: FieldError;
  transactionText: string;
}

/**
 * The 201 answer, `{"results": [...]}`, written from each transaction's JSON text rather than
 * serialising the transactions a second time.
 */
export function resultsText(results: readonly TransactionResult[]): string {
  const items = results.map(({ status, added_transaction_id: id, error, transactionText }) => {
    const added = id === undefined ? '' : `,"added_transaction_id":${id}`;
    const reason = error === undefined ? '' : `,"error":${JSON.stringify(error)}`;
    return `{"status":"${status}"${added}${reason},"transaction_data":${transactionText}}`;
  });
  return `{"results":[${items.join(',')}]}`;
}

/** A request whose caller is confirmed, its account found and its body valid. */
export interface TransactionsAccess {
  readonly account: CreatedAccount;
  readonly request: TransactionsRequest;
}

/** The supplier code and account number a body names, when it names both as strings. */
function accountNameOf(body: Json) {
  const supplierCode = supplierCodeOf(body.import_supplier);
  const external = [body.external_account_number, body.account_number]
    .map(supplierCodeOf)
    .find((value) => value !== undefined);
  if (supplierCode === undefined || external === undefined) return undefined;
  return { supplierCode, externalAccountNumber: external };
}

/**
 * The first step of a request: confirms the caller and finds the account (the refusals of
 * confirmCreatedAccount), then validates the body with the supplier's settings. A body that
 * names no account is refused with its errors once the caller is confirmed on its own.
 */
export async function confirmTransactions(
  ctx: AppContext,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<TransactionsAccess> {
  let object: Json;
  let name: ReturnType<typeof accountNameOf>;
  try {
    object = requireObjectBody(body);
    name = accountNameOf(object);
    if (name === undefined) {
      const platform = platformView(ctx.platform.current, '{}');
      validOrRefused(validateTransactionsRequest(object, platform), nulPaths, 'request');
      throw validationFailed([
        { detail: 'Name the import supplier and the account.', code: 'required', attr: null },
      ]);
    }
  } catch (refusal) {
    return refuseConfirmed(ctx.db, caller, refusal);
  }
  const account = await confirmCreatedAccount(ctx, caller, name);
  const platform = platformView(ctx.platform.current, supplierRule(account.supplier).settings);
  const result = validateTransactionsRequest(object, platform);
  return { account, request: validOrRefused(result, nulPaths, 'request') };
}

/** Thrown inside a dry run's write to roll it back, with what it would have added. */
class DryRunRollback extends Error {
  constructor(readonly added: Map<string, number>) {
    super('dry run rolled back');
  }
}

/** Adds the request's transactions (or rehearses it with dry_run); one result per transaction. */
export async function addTransactions(
  ctx: AppContext,
  { account, request }: TransactionsAccess,
): Promise<TransactionResult[]> {
  const { transactions } = request;
  const dryRun = request.body.dry_run;
  const refused = await importErrors(ctx, account.accountId, transactions);
  const texts = transactions.map((tx) => JSON.stringify(tx));
  const rows: AddedRow[] = [];
  transactions.forEach((tx, i) => {
    if (refused.has(i)) return;
    const scaledChange = balanceChangeOf(tx as Json);
    rows.push({
      ledgerCode: MAIN_LEDGER,
      transactionId: tx.transaction_id,
      data: texts[i] as string,
      change: fromScaled(scaledChange),
      scaledChange,
    });
  });
  let added: Map<string, number>;
  try {
    added = await ctx.db.storage.atomicWrite(ctx.db.kysely, async (executor) => {
      const now = Date.now();
      // A dry run is rolled back, and records no event.
      const event = dryRun ? undefined : { ...eventSource(account), occurredAt: now };
      const inserted = await writeTransactions(executor, account.accountId, rows, now, event);
      if (dryRun) throw new DryRunRollback(inserted);
      return inserted;
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
    added = error.added;
  }
  return transactions.map((tx, i) => {
    const transactionText = texts[i] as string;
    const error = refused.get(i);
    if (error) return { status: 'TRANSACTION_IMPORT_ERROR', error, transactionText };
    const id = added.get(tx.transaction_id);
    if (id === undefined) return { status: 'TRANSACTION_ALREADY_EXISTS', transactionText };
    return dryRun
      ? { status: 'TRANSACTION_ADDED_TO_ACCOUNT', transactionText }
      : { status: 'TRANSACTION_ADDED_TO_ACCOUNT', added_transaction_id: id, transactionText };
  });
}

/** A row of the request, with its balance change also as a scaled integer, to sum. */
interface AddedRow extends repo.TransactionRow {
  scaledChange: bigint;
}

/**
 * Inserts the rows the account does not hold yet (with `event`, the event of those added) and
 * moves its own ledger's balance by them; returns the ids of the rows added, by transaction id.
 */
async function writeTransactions(
  executor: Kysely<Database>,
  accountId: number,
  rows: readonly AddedRow[],
  now: number,
  event: repo.AddedEvent | undefined,
): Promise<Map<string, number>> {
  let balance = await repo.lockLedger(executor, accountId, MAIN_LEDGER);
  if (balance === undefined) {
    await openAccount(executor, accountId, now);
    balance = (await repo.lockLedger(executor, accountId, MAIN_LEDGER)) ?? '0';
  }
  const inserted = await repo.insertTransactions(executor, accountId, 'added', rows, now, event);
  if (inserted.length === 0) return new Map();
  const changes = new Map(rows.map((row) => [row.transactionId, row.scaledChange]));
  let moved = 0n;
  for (const { transactionId } of inserted) moved += changes.get(transactionId) ?? 0n;
  if (moved !== 0n) {
    await repo.setBalance(executor, accountId, MAIN_LEDGER, fromScaled(toScaled(balance) + moved));
  }
  return new Map(inserted.map(({ id, transactionId }) => [transactionId, id]));
}

/**
 * Writes an account's ledgers at their opening balances and the transactions of its original
 * payload (which move nothing: the opening balances hold them), as read from its document.
 */
async function openAccount(
  executor: Kysely<Database>,
  accountId: number,
  now: number,
): Promise<void> {
  const money = accountMoneyOf(JSON.parse(await readAccountDocument(executor, accountId)) as Json);
  const ledgers = money.ledgers.map(({ code, balance }) => ({
    code,
    balance: fromScaled(balance),
  }));
  await repo.insertLedgers(executor, accountId, ledgers);
  const rows = money.transactions.flatMap(({ ledgerCode, transaction }) =>
    typeof transaction.transaction_id === 'string'
      ? [
          {
            ledgerCode,
            transactionId: transaction.transaction_id,
            data: JSON.stringify(transaction),
            change: '0',
          },
        ]
      : [],
  );
  await repo.insertTransactions(executor, accountId, 'payload', rows, now);
}

/**
 * The transactions that cannot be added, by position, with why: a supply charge for a supply
 * point that is not one of the account's meter points.
 */
async function importErrors(
  ctx: AppContext,
  accountId: number,
  transactions: readonly EnergyTransaction[],
): Promise<Map<number, FieldError>> {
  const named = transactions.flatMap((tx) =>
    'supply_point_identifier' in tx && tx.supply_point_identifier !== undefined
      ? [tx.supply_point_identifier]
      : [],
  );
  const errors = new Map<number, FieldError>();
  if (named.length === 0) return errors;
  const held = await repo.supplyPointsAmong(ctx.db.kysely, accountId, [...new Set(named)]);
  transactions.forEach((tx, i) => {
    if (!('supply_point_identifier' in tx)) return;
    const point = tx.supply_point_identifier;
    if (point === undefined || held.has(point)) return;
    errors.set(i, {
      detail: `The account has no meter point ${point}.`,
      code: IMPORT_ERROR_CODES[0],
      attr: 'supply_point_identifier',
    });
  });
  return errors;
}
