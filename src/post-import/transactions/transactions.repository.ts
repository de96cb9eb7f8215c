/**
 * Every statement of transactions/create: an account's ledgers, their balances and its
 * transactions (tables account_ledger_balances and account_transactions). Each runs on the
 * executor of the request's atomic write.
 *
 * The transactions of a request go in with few statements whatever their number, each compiled
 * once and kept prepared. On PostgreSQL one statement: the rows travel as one JSON parameter that
 * it unpacks (json_to_recordset), saving round trips. On SQLite, where a statement costs no
 * round trip and unpacking JSON cost about 40 % more than binding values, multi-row VALUES
 * statements of 64, 32, … 1 rows, the largest that fit first (50 rows: 32, 16 and 2). A row
 * whose transaction id is already on the account is skipped (on conflict do nothing); the rows
 * inserted come back with their ids (RETURNING on PostgreSQL; on SQLite, see insertAsValues).
 *
 * The request's TRANSACTIONS_ADDED event (src/events/) is written by the same write: on
 * PostgreSQL by one more data-modifying CTE of that one statement, from the rows it inserted
 * (none inserted, no event), so no round trip is added; on SQLite by one more insert after them.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { compiledQuery, type Params } from '../../db/compiled.js';
import type { AccountTransactionsTable, Database, Executor } from '../../db/database.js';
import { storageOf } from '../../db/dialects.js';
import { recordEvents, type NewAccountEvent } from '../../events/events.repository.js';

const ADDED = 'EVENT_ACCOUNT_IMPORT_PROCESS_TRANSACTIONS_ADDED';

/** The account and request a TRANSACTIONS_ADDED event is for; its data is the ids inserted. */
export type AddedEvent = Pick<
  NewAccountEvent,
  'supplierId' | 'externalAccountNumber' | 'occurredAt' | 'requestId'
>;

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

const insertJsonRows = compiledQuery((db, p: Params<TransactionRows>) =>
  compilable(
    db,
    sql<{ id: number; transaction_id: string }>`insert into account_transactions
        (account_id, ledger_code, transaction_id, data, balance_change, source, created_at)
        select cast(${p.accountId} as bigint), r.l, r.t, cast(r.d as text), r.c,
          cast(${p.source} as text), cast(${p.now} as bigint)
        from json_to_recordset(cast(${p.rows} as json)) as r(l text, t text, d json, c text)
        on conflict (account_id, transaction_id) do nothing
        returning id, transaction_id`,
  ),
);

interface EventParams {
  supplierId: number;
  external: string;
  occurredAt: number;
  requestId: string | null;
}

const insertJsonRowsAndEvent = compiledQuery((db, p: Params<TransactionRows & EventParams>) =>
  compilable(
    db,
    sql<{ id: number; transaction_id: string }>`with added as (
        insert into account_transactions
          (account_id, ledger_code, transaction_id, data, balance_change, source, created_at)
        select cast(${p.accountId} as bigint), r.l, r.t, cast(r.d as text), r.c,
          cast(${p.source} as text), cast(${p.now} as bigint)
        from json_to_recordset(cast(${p.rows} as json)) as r(l text, t text, d json, c text)
        on conflict (account_id, transaction_id) do nothing
        returning id, transaction_id
      ), recorded as (
        insert into account_events
          (supplier_id, external_account_number, event, occurred_at, data, request_id)
        select cast(${p.supplierId} as bigint), cast(${p.external} as text), ${sql.lit(ADDED)},
          cast(${p.occurredAt} as bigint),
          json_build_object('transaction_ids', json_agg(transaction_id order by id))::text,
          cast(${p.requestId} as text)
        from added having count(*) > 0
      )
      select id, transaction_id from added`,
  ),
);

type Inserted = { id: number; transaction_id: string }[];
type InsertRows = (
  executor: Kysely<Database>,
  accountId: number,
  source: AccountTransactionsTable['source'],
  rows: readonly TransactionRow[],
  now: number,
  event: AddedEvent | undefined,
) => Promise<Inserted>;

const insertAsJson: InsertRows = async (executor, accountId, source, rows, now, event) => {
  const params = { accountId, source, now, rows: rowsJson(rows) };
  if (event === undefined) return (await insertJsonRows(executor, params)).rows;
  const { supplierId, externalAccountNumber: external, occurredAt } = event;
  const requestId = event.requestId ?? null;
  const logged = { ...params, supplierId, external, occurredAt, requestId };
  return (await insertJsonRowsAndEvent(executor, logged)).rows;
};

/** Row counts of the VALUES statements, largest first. */
const CHUNKS: readonly number[] = [64, 32, 16, 8, 4, 2, 1];

/**
 * The VALUES insert of `count` rows; row i's values are the parameters l<i>, t<i>, d<i>, c<i>.
 * It returns nothing: on SQLite a RETURNING clause cost about a third of the insert (50 rows:
 * 233 µs against 158), and the ids are known without it (insertAsValues).
 */
const valuesInsert = (count: number) =>
  compiledQuery((db, p: Params<Record<string, unknown>>) =>
    db
      .insertInto('account_transactions')
      .values(
        Array.from({ length: count }, (_, i) => ({
          account_id: p.accountId as number,
          ledger_code: p[`l${i}`] as string,
          transaction_id: p[`t${i}`] as string,
          data: p[`d${i}`] as string,
          balance_change: p[`c${i}`] as string,
          source: p.source as AccountTransactionsTable['source'],
          created_at: p.now as number,
        })),
      )
      .onConflict((oc) => oc.columns(['account_id', 'transaction_id']).doNothing()),
  );

const VALUES_INSERTS = new Map(CHUNKS.map((count) => [count, valuesInsert(count)]));

/** The account's rows with an id above `after`, in id order. */
const rowsAfter = compiledQuery((db, p: Params<{ accountId: number; after: number }>) =>
  db
    .selectFrom('account_transactions')
    .select(['id', 'transaction_id'])
    .where('id', '>', p.after)
    .where('account_id', '=', p.accountId)
    .orderBy('id'),
);

/**
 * On SQLite, inside the write (one writer at a time), a statement's new rows take the ids
 * following the table's largest, one after another in VALUES order (a rowid table without
 * AUTOINCREMENT), and the statement reports how many it inserted and the last id. When it
 * inserted every row, their ids follow from that; when it skipped some (ids the account
 * already held), the rows above the id before its first are read back: they are exactly the
 * ones it inserted.
 */
const insertAsValues: InsertRows = async (executor, accountId, source, rows, now, event) => {
  const inserted: Inserted = [];
  for (let at = 0; at < rows.length;) {
    const count = CHUNKS.find((n) => n <= rows.length - at) as number;
    const params: Record<string, unknown> = { accountId, source, now };
    for (let i = 0; i < count; i++) {
      const row = rows[at + i] as TransactionRow;
      params[`l${i}`] = row.ledgerCode;
      params[`t${i}`] = row.transactionId;
      params[`d${i}`] = row.data;
      params[`c${i}`] = row.change;
    }
    const insert = VALUES_INSERTS.get(count) as ReturnType<typeof valuesInsert>;
    const result = await insert(executor, params);
    const added = Number(result.numAffectedRows ?? 0n);
    const last = Number(result.insertId ?? 0n);
    if (added === count) {
      for (let i = 0; i < count; i++) {
        const row = rows[at + i] as TransactionRow;
        inserted.push({ id: last - count + 1 + i, transaction_id: row.transactionId });
      }
    } else if (added > 0) {
      inserted.push(...(await rowsAfter(executor, { accountId, after: last - added })).rows);
    }
    at += count;
  }
  if (event !== undefined && inserted.length > 0) {
    const data = { transaction_ids: inserted.map((row) => row.transaction_id) };
    await recordEvents(executor, [{ ...event, event: ADDED, data }]);
  }
  return inserted;
};

/**
 * Inserts the rows whose transaction id the account does not hold yet, and with `event` the
 * TRANSACTIONS_ADDED event of those inserted (none when none was); returns those inserted, with
 * their ids.
 */
export async function insertTransactions(
  executor: Kysely<Database>,
  accountId: number,
  source: AccountTransactionsTable['source'],
  rows: readonly TransactionRow[],
  now: number,
  event?: AddedEvent,
): Promise<{ id: number; transactionId: string }[]> {
  if (rows.length === 0) return [];
  const insert = storageOf(executor).pick({ sqlite: insertAsValues, postgres: insertAsJson });
  const inserted = await insert(executor, accountId, source, rows, now, event);
  return inserted.map((row) => ({ id: Number(row.id), transactionId: row.transaction_id }));
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

/**
 * The transactions added to an account since its creation (not its payload's), oldest first,
 * each as kept (account show).
 */
export async function addedTransactions(executor: Executor, accountId: number): Promise<unknown[]> {
  const rows = await executor
    .selectFrom('account_transactions')
    .select('data')
    .where('account_id', '=', accountId)
    .where('source', '=', 'added')
    .orderBy('id')
    .execute();
  return rows.map((row) => JSON.parse(row.data) as unknown);
}
