/**
 * Every statement of transactions/create: an account's ledgers, their balances and its
 * transactions (tables account_ledger_balances and account_transactions). Each runs on the
 * executor of the request's atomic write.
 *
 * The transactions of a request go in with one statement whatever their number: their rows
 * travel as one JSON parameter that the statement unpacks (json_each on SQLite,
 * json_to_recordset on PostgreSQL), so its SQL is fixed, compiled once and kept prepared. A row
 * whose transaction id is already on the account is skipped (on conflict do nothing), and the
 * statement returns the rows it inserted.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { AccountTransactionsTable, Database } from '../../db/database.js';
import { storageOf } from '../../db/dialects.js';

const compilable = <Row>(db: Kysely<Database>, query: RawBuilder<Row>) => ({
  compile: () => query.compile(db),
});

/** A transaction row as the insert statement takes it. */
export interface TransactionRow {
  ledgerCode: string;
  transactionId: string;
  /** The transaction, as JSON text. */
  data: string;
  /** Balance change, a decimal string. */
  change: string;
}

/**
 * The rows as the statement's JSON parameter: short keys, and each transaction's JSON text
 * placed as it is (not encoded again as a string).
 */
const rowsJson = (rows: readonly TransactionRow[]): string =>
  `[${rows
    .map(
      (row) =>
        `{"l":${JSON.stringify(row.ledgerCode)},"t":${JSON.stringify(row.transactionId)},"c":${JSON.stringify(row.change)},"d":${row.data}}`,
    )
    .join(',')}]`;

interface TransactionRows {
  accountId: number;
  source: AccountTransactionsTable['source'];
  now: number;
  /** The rows, as rowsJson writes them. */
  rows: string;
}

const insertRows = compiledQuery((db, p: Params<TransactionRows>) =>
  compilable(
    db,
    storageOf(db).pick({
      sqlite: sql<{ id: number; transaction_id: string }>`insert into account_transactions
        (account_id, ledger_code, transaction_id, data, balance_change, source, created_at)
        select ${p.accountId}, json_extract(value, '$.l'), json_extract(value, '$.t'),
          json_extract(value, '$.d'), json_extract(value, '$.c'), ${p.source}, ${p.now}
        from json_each(${p.rows}) where true
        on conflict (account_id, transaction_id) do nothing
        returning id, transaction_id`,
      postgres: sql<{ id: number; transaction_id: string }>`insert into account_transactions
        (account_id, ledger_code, transaction_id, data, balance_change, source, created_at)
        select cast(${p.accountId} as bigint), r.l, r.t, cast(r.d as text), r.c,
          cast(${p.source} as text), cast(${p.now} as bigint)
        from json_to_recordset(cast(${p.rows} as json)) as r(l text, t text, d json, c text)
        on conflict (account_id, transaction_id) do nothing
        returning id, transaction_id`,
    }),
  ),
);

/**
 * Inserts the rows whose transaction id the account does not hold yet; returns those inserted,
 * with their ids.
 */
export async function insertTransactions(
  executor: Kysely<Database>,
  accountId: number,
  source: AccountTransactionsTable['source'],
  rows: readonly TransactionRow[],
  now: number,
): Promise<{ id: number; transactionId: string }[]> {
  if (rows.length === 0) return [];
  const result = await insertRows(executor, {
    accountId,
    source,
    now,
    rows: rowsJson(rows),
  });
  return result.rows.map((row) => ({ id: Number(row.id), transactionId: row.transaction_id }));
}

const ledgerBalance = compiledQuery((db, p: Params<{ accountId: number; ledgerCode: string }>) => {
  const query = db
    .selectFrom('account_ledger_balances')
    .select('balance')
    .where('account_id', '=', p.accountId)
    .where('ledger_code', '=', p.ledgerCode);
  // SQLite's write lock, taken when the write began, already holds every other writer off.
  return storageOf(db).pick({ sqlite: query, postgres: query.forUpdate() });
});

/**
 * The ledger's balance, locked until the write ends (FOR UPDATE on PostgreSQL), or undefined
 * while the account has not been opened.
 */
export async function lockLedger(
  executor: Kysely<Database>,
  accountId: number,
  ledgerCode: string,
): Promise<string | undefined> {
  const { rows } = await ledgerBalance(executor, { accountId, ledgerCode });
  return rows[0]?.balance;
}

const updateBalance = compiledQuery(
  (db, p: Params<{ accountId: number; ledgerCode: string; balance: string }>) =>
    db
      .updateTable('account_ledger_balances')
      .set({ balance: p.balance })
      .where('account_id', '=', p.accountId)
      .where('ledger_code', '=', p.ledgerCode),
);

export async function setBalance(
  executor: Kysely<Database>,
  accountId: number,
  ledgerCode: string,
  balance: string,
): Promise<void> {
  await updateBalance(executor, { accountId, ledgerCode, balance });
}

/** The created account's document, as JSON text. */
export async function readDocument(executor: Kysely<Database>, accountId: number): Promise<string> {
  const row = await executor
    .selectFrom('accounts')
    .select('document')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.document;
}

/** Adds the account's ledgers at their opening balances; those it has already are left alone. */
export async function insertLedgers(
  executor: Kysely<Database>,
  accountId: number,
  ledgers: readonly { code: string; balance: string }[],
): Promise<void> {
  await executor
    .insertInto('account_ledger_balances')
    .values(
      ledgers.map(({ code, balance }) => ({
        account_id: accountId,
        ledger_code: code,
        opening_balance: balance,
        balance,
      })),
    )
    .onConflict((oc) => oc.columns(['account_id', 'ledger_code']).doNothing())
    .execute();
}

/** The account's supply points among `identifiers` (its meter points' identifiers). */
export async function supplyPointsAmong(
  executor: Kysely<Database>,
  accountId: number,
  identifiers: readonly string[],
): Promise<Set<string>> {
  if (identifiers.length === 0) return new Set();
  const rows = await executor
    .selectFrom('account_keys')
    .select('value')
    .where('kind', '=', 'meter_point')
    .where('value', 'in', identifiers)
    .where('account_id', '=', accountId)
    .execute();
  return new Set(rows.map((row) => row.value));
}
