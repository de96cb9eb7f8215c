/**
 * A created account is kept as its normalised payload, a JSON document in its accounts row,
 * instead of rows of customers, supply addresses, meter points, meters and agreements. What
 * must be looked up across accounts gets rows of its own in account_keys (meter point
 * identifiers, statement ids, references), beside the documents and e-mails already kept. The
 * e-mail outbox names its customer by position in the document.
 *
 * `up` builds each existing account's document from its rows (account-document-rows.ts says
 * what rows could not tell), then drops the rows; `down` rebuilds the rows from the documents.
 */
import { sql, type Kysely } from 'kysely';
import {
  accountColumnsOf,
  addressRows,
  agreementRows,
  customerRows,
  documentOf,
  keyRows,
  meterRows,
  pointRow,
  pointsOf,
  type KeptAccount,
} from './account-document-rows.js';
import { idType, isPostgres } from './dialect.js';
import { createNormalisedTables, NORMALISED_TABLES_NEWEST_FIRST } from './normalised-accounts.js';

type Row = Record<string, unknown>;

/** The account columns the document replaces, with whether they were NOT NULL. */
const ACCOUNT_COLUMNS: readonly [name: string, type: 'text' | 'integer', notNull: boolean][] = [
  ['account_type', 'text', true],
  ['business_type', 'text', false],
  ['company_number', 'text', false],
  ['billing_name', 'text', false],
  ['billing_email', 'text', false],
  ['billing_address', 'text', true],
  ['communication_preference', 'text', true],
  ['language_preference', 'text', true],
  ['document_accessibility', 'text', false],
  ['transfer_balance', 'text', false],
  ['last_billed_to_date', 'text', false],
  ['date_of_sale', 'text', false],
  ['unknown_occupier', 'integer', true],
  ['details', 'text', true],
];

/** Accounts are carried over this many at a time. */
const BATCH = 500;

async function eachBatch(
  db: Kysely<unknown>,
  work: (accounts: Row[], ids: number[]) => Promise<void>,
): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<Row>`select a.*, s.code as supplier_code
      from accounts a join import_suppliers s on s.id = a.supplier_id
      where a.id > ${after} order by a.id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    const ids = rows.map((row) => Number(row.id));
    await work(rows, ids);
    after = ids.at(-1) as number;
  }
}

const rowsOf = async (db: Kysely<unknown>, query: ReturnType<typeof sql>) =>
  (await query.execute(db)).rows as Row[];

const inIds = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`));

async function insertRow(db: Kysely<unknown>, table: string, row: Row): Promise<number> {
  const columns = Object.keys(row);
  const { rows } = await sql<{ id: number }>`insert into ${sql.table(table)}
    (${sql.join(columns.map((c) => sql.id(c)))})
    values (${sql.join(columns.map((c) => sql`${row[c]}`))}) returning id`.execute(db);
  return Number(rows[0]?.id);
}

async function carryRowsIntoDocuments(db: Kysely<unknown>): Promise<void> {
  await eachBatch(db, async (accounts, ids) => {
    const byAccount = (rows: Row[], id: number) => rows.filter((r) => Number(r.account_id) === id);
    const customers = await rowsOf(
      db,
      sql`select * from customers where account_id in (${inIds(ids)}) order by position`,
    );
    const addresses = await rowsOf(
      db,
      sql`select * from supply_addresses where account_id in (${inIds(ids)}) order by id`,
    );
    const points = await rowsOf(
      db,
      sql`select * from meter_points where account_id in (${inIds(ids)}) order by id`,
    );
    const ofPoints = (table: string) =>
      rowsOf(
        db,
        sql`select t.*, p.account_id from ${sql.table(table)} t
          join meter_points p on p.id = t.meter_point_id
          where p.account_id in (${inIds(ids)}) order by t.id`,
      );
    const meters = await ofPoints('meters');
    const agreements = await ofPoints('agreements');
    for (const account of accounts) {
      const id = Number(account.id);
      const document = documentOf({
        account: account as KeptAccount['account'],
        customers: byAccount(customers, id),
        addresses: byAccount(addresses, id),
        points: byAccount(points, id),
        meters: byAccount(meters, id),
        agreements: byAccount(agreements, id),
      });
      await sql`update accounts set document = ${JSON.stringify(document)} where id = ${id}`.execute(
        db,
      );
      for (const key of keyRows(document)) {
        await insertRow(db, 'account_keys', { account_id: id, ...key });
      }
    }
  });
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_keys')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_keys_lookup_idx')
    .on('account_keys')
    .columns(['kind', 'value'])
    .execute();
  await db.schema
    .alterTable('accounts')
    .addColumn('document', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  if (isPostgres(db)) await compressDocumentsWithLz4(db);
  await carryRowsIntoDocuments(db);

  await db.schema
    .alterTable('email_outbox')
    .addColumn('customer_position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update email_outbox set customer_position =
    (select position from customers where customers.id = email_outbox.customer_id)`.execute(db);
  await db.schema.alterTable('email_outbox').dropColumn('customer_id').execute();

  for (const table of NORMALISED_TABLES_NEWEST_FIRST) await db.schema.dropTable(table).execute();
  for (const [column] of ACCOUNT_COLUMNS) {
    await db.schema.alterTable('accounts').dropColumn(column).execute();
  }
}

/** As the staged payloads (migration 0002), when the server has lz4. */
async function compressDocumentsWithLz4(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ available: boolean }>`
    select exists (
      select from pg_settings
      where name = 'default_toast_compression' and 'lz4' = any (enumvals)
    ) as available`.execute(db);
  if (rows[0]?.available !== true) return;
  await sql`alter table accounts alter column document set compression lz4`.execute(db);
}

async function carryDocumentsIntoRows(db: Kysely<unknown>): Promise<void> {
  await eachBatch(db, async (accounts) => {
    for (const account of accounts) {
      const accountId = Number(account.id);
      const document = JSON.parse(String(account.document)) as Row;
      const columns = Object.entries(accountColumnsOf(document));
      await sql`update accounts set ${sql.join(
        columns.map(([column, value]) => sql`${sql.id(column)} = ${value}`),
      )} where id = ${accountId}`.execute(db);
      for (const customer of customerRows(document)) {
        await insertRow(db, 'customers', { account_id: accountId, ...customer });
      }
      const addressIds = [];
      for (const address of addressRows(document)) {
        addressIds.push(
          await insertRow(db, 'supply_addresses', { account_id: accountId, ...address }),
        );
      }
      for (const { position, point } of pointsOf(document)) {
        const meterPointId = await insertRow(db, 'meter_points', {
          account_id: accountId,
          supply_address_id: addressIds[position],
          ...pointRow(point),
        });
        for (const meter of meterRows(point)) {
          await insertRow(db, 'meters', { meter_point_id: meterPointId, ...meter });
        }
        for (const agreement of agreementRows(point)) {
          await insertRow(db, 'agreements', { meter_point_id: meterPointId, ...agreement });
        }
      }
    }
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [column, type, notNull] of ACCOUNT_COLUMNS) {
    // SQLite adds a NOT NULL column only with a default; every row is filled below.
    await db.schema
      .alterTable('accounts')
      .addColumn(column, type, (c) =>
        notNull && !postgres ? c.notNull().defaultTo(type === 'integer' ? 0 : '') : c,
      )
      .execute();
  }
  await createNormalisedTables(db);
  await carryDocumentsIntoRows(db);
  if (postgres) {
    for (const [column, , notNull] of ACCOUNT_COLUMNS) {
      if (notNull)
        await db.schema
          .alterTable('accounts')
          .alterColumn(column, (c) => c.setNotNull())
          .execute();
    }
  }

  // SQLite adds a column that references another table only if it may be null.
  await db.schema
    .alterTable('email_outbox')
    .addColumn('customer_id', 'bigint', (c) => c.references('customers.id'))
    .execute();
  await sql`update email_outbox set customer_id = (select id from customers
    where customers.account_id = email_outbox.account_id
      and customers.position = email_outbox.customer_position)`.execute(db);
  if (postgres) {
    await db.schema
      .alterTable('email_outbox')
      .alterColumn('customer_id', (c) => c.setNotNull())
      .execute();
  }
  await db.schema.alterTable('email_outbox').dropColumn('customer_position').execute();

  await db.schema.alterTable('accounts').dropColumn('document').execute();
  await db.schema.dropTable('account_keys').execute();
}
