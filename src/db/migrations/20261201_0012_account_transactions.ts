/**
 * Transactions added to created accounts after their import (POST transactions/create), and the
 * balance of each ledger of an account they move (src/post-import/transactions/).
 *
 * An account gets its rows when a transactions request first reaches it: its ledgers with their
 * opening balances, and the transactions of its original payload (so that their ids count as
 * already on the account). Accounts created before this migration are opened the same way, so
 * `up` carries nothing over.
 *
 * Amounts and balances are exact decimal strings (text), never floating point: the published
 * amounts have up to ten digits on either side of the point, more than a 64-bit integer holds
 * at that scale.
 */
import type { Kysely } from 'kysely';
import { idType } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_ledger_balances')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    // '' is the account's own ledger (its account-level statements and transactions).
    .addColumn('ledger_code', 'text', (c) => c.notNull())
    .addColumn('opening_balance', 'text', (c) => c.notNull())
    .addColumn('balance', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_ledger_balances_pk', ['account_id', 'ledger_code'])
    .execute();
  await db.schema
    .createTable('account_transactions')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('ledger_code', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    // The transaction as validated and normalised, as JSON.
    .addColumn('data', 'text', (c) => c.notNull())
    // What the row moved its ledger's balance by: '0' for the original payload's transactions
    // (the opening balance holds them already) and for prepay ones.
    .addColumn('balance_change', 'text', (c) => c.notNull())
    // 'payload' (the account's original payload) or 'added' (a transactions request).
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('account_transactions_key', ['account_id', 'transaction_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_transactions').execute();
  await db.schema.dropTable('account_ledger_balances').execute();
}
