/**
 * transactions/create in tests: the path, bodies, a created account to add to, and what the
 * database holds of an account's transactions and balances.
 */
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { TRANSACTIONS_PATH } from '../../src/post-import/transactions/transactions.routes.js';
import { buildAccount } from '../account/factory.js';
import { example } from '../account/reference.js';
import { createDemoAccount, type TestService } from '../helpers/app.js';

type Json = Record<string, unknown>;

export { TRANSACTIONS_PATH };

/** A credit of `amount` with id `id`, dated in the past. */
export const credit = (id: string, amount = '10.00', extra: Json = {}): Json => ({
  type: 'CREDIT',
  transaction_id: id,
  transaction_date: '2024-05-01',
  amount,
  reason: 'IMPORTED_CREDIT',
  ...extra,
});

/** A charge of `amount` with id `id`, dated in the past. */
export const charge = (id: string, amount = '10.00', extra: Json = {}): Json => ({
  type: 'CHARGE',
  transaction_id: id,
  transaction_date: '2024-05-01',
  amount,
  reason: 'IMPORTED_CHARGE',
  ...extra,
});

/** A request adding `transactions` to the demo account `external`. */
export const transactionsBody = (external: string, transactions: Json[], extra: Json = {}) => ({
  import_supplier: 'DEMO',
  external_account_number: external,
  transactions,
  ...extra,
});

/** Sends a transactions request with the service's token. */
export function postTransactions(service: TestService, payload: unknown, url = TRANSACTIONS_PATH) {
  return service.request({ method: 'POST', url, payload: payload as InjectOptions['payload'] });
}

/**
 * Creates demo account `external` (the factory's, transfer balance -12.34) with `extra` in its
 * payload; returns its accounts row id.
 */
export async function createdAccount(
  service: TestService,
  external: string,
  extra: Json = {},
): Promise<number> {
  await createDemoAccount(service, buildAccount({ external_account_number: external, ...extra }));
  const row = await service.db.kysely
    .selectFrom('accounts')
    .select('id')
    .where('external_account_number', '=', external)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The balance of the account's ledger (its own by default), or undefined while unopened. */
export async function balanceOf(
  service: TestService,
  accountId: number,
  ledgerCode = '',
): Promise<string | undefined> {
  const row = await service.db.kysely
    .selectFrom('account_ledger_balances')
    .select('balance')
    .where('account_id', '=', accountId)
    .where('ledger_code', '=', ledgerCode)
    .executeTakeFirst();
  return row?.balance;
}

/** The account's transaction rows, by transaction id. */
export async function transactionRows(service: TestService, accountId: number) {
  const rows = await service.db.kysely
    .selectFrom('account_transactions')
    .select(['id', 'transaction_id', 'ledger_code', 'balance_change', 'source', 'data'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows;
}

/** The statuses of a 201 answer, in order. */
export function statusesOf(response: { statusCode: number; body: string }): string[] {
  expect(response.statusCode, response.body).toBe(201);
  const { results } = JSON.parse(response.body) as { results: { status: string }[] };
  return results.map((result) => result.status);
}

/** The published example request (../shared/reference/examples/transactions.json). */
export const publishedExample = (): Json => example('transactions.json');
