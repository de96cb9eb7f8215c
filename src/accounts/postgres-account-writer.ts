/**
 * The account on PostgreSQL, in one statement generated from the declarations (account-rows.ts):
 * data-modifying CTEs insert the account's row and each child table's rows. A child table's rows
 * arrive as one array per column (`unnest`), so the SQL text is the same for every account,
 * whatever its number of rows, and is prepared once per connection. One statement is one round
 * trip, where a statement per table in a transaction took one per table plus three.
 *
 * The same statement completes the claimed process and appends the completion's event. Its
 * UPDATE runs first, and the account and the event are inserted only from the row it returns: a
 * claim taken over in the meantime completes nothing and writes nothing. A statement is atomic on its own, so a creation needs no transaction. The
 * account's id comes from its sequence first, so that the process can point at the account in
 * the same UPDATE.
 */
import { sql, type RawBuilder } from 'kysely';
import { transaction } from '../db/direct-execution.js';
import {
  ACCOUNT_TABLE,
  CHILD_TABLES,
  type AccountRows,
  type ChildTable,
  type ColumnType,
} from './account-rows.js';
import { namedStatement, type NamedParameter } from './account-statements.js';
import { ClaimLost, type AccountWriter, type Completion } from './account-writer.js';

const accountColumns = Object.keys(ACCOUNT_TABLE.columns) as (keyof AccountRows['account'])[];
const columnsOf = (table: ChildTable) => Object.entries(table.columns) as [string, ColumnType][];

const cast = (type: string) => (value: unknown) => sql`${value}::${sql.raw(type)}`;
const accountParameter = (column: string) => `account.${column}`;
const childParameter = (table: ChildTable, column: string) => `${table.table}.${column}`;

const PARAMETERS: NamedParameter<string>[] = [
  { name: 'fenced', as: cast('boolean') },
  { name: 'claimId', as: cast('text') },
  { name: 'event', as: cast('text') },
  { name: 'eventData', as: cast('text') },
  { name: 'eventRequestId', as: cast('text') },
  ...Object.entries(ACCOUNT_TABLE.columns).map(([column, type]) => ({
    name: accountParameter(column),
    as: cast(type),
  })),
  ...CHILD_TABLES.flatMap((table) =>
    columnsOf(table).map(([column, type]) => ({
      name: childParameter(table, column),
      as: cast(`${type}[]`),
    })),
  ),
];

type Use = (name: string) => RawBuilder<unknown>;

/** The CTE inserting one child table's rows under the new account, in payload order. */
function childInsert(table: ChildTable, i: number, use: Use): RawBuilder<unknown> {
  const columns = columnsOf(table).map(([column]) => sql.id(column));
  const values = columnsOf(table).map(([column]) => sql`r.${sql.id(column)}`);
  const arrays = columnsOf(table).map(([column]) => use(childParameter(table, column)));
  return sql`${sql.id(`child_${i}`)} as (
    insert into ${sql.table(table.table)} (account_id, ${sql.join(columns)})
    select account.id, ${sql.join(values)}
    from account, unnest(${sql.join(arrays)}) with ordinality as r(${sql.join(columns)}, ord)
    order by r.ord
  )`;
}

const writeStatement = namedStatement(PARAMETERS, (use) => {
  const v = (column: string) => use(accountParameter(column));
  return sql<{ id: number }>`with new_account as (
      select nextval('accounts_id_seq') as id
    ), completed as (
      update import_processes set
        state = 'completed',
        claim_id = null,
        lease_until = null,
        account_id = (select id from new_account),
        service_account_number = ${v('number')},
        account_created_at = ${v('created_at')},
        last_failure_code = null,
        last_failure_detail = null,
        last_failure_at = null
      where ${use('fenced')} and id = ${v('import_process_id')}
        and claim_id = ${use('claimId')} and state = 'in_progress'
      returning id
    ), account as (
      insert into accounts (id, ${sql.join(accountColumns.map((c) => sql.id(c)))})
      select id, ${sql.join(accountColumns.map(v))}
      from new_account
      where not ${use('fenced')} or exists (select from completed)
      returning id
    ), recorded as (
      insert into account_events
        (supplier_id, external_account_number, event, occurred_at, data, request_id)
      select ${v('supplier_id')}, ${v('external_account_number')}, ${use('event')},
        ${v('created_at')}, ${use('eventData')}, ${use('eventRequestId')}
      from completed
    ), ${sql.join(
      CHILD_TABLES.map((table, i) => childInsert(table, i, use)),
      sql`, `,
    )}
    select id from account`;
});

/**
 * The statement's arguments: the completion's claim and event (none for a rehearsal), the
 * account's columns, and each child table's as arrays.
 */
function statementValues(
  rows: AccountRows,
  completion: Exclude<Completion, { rollBackWith: Error }> | undefined,
): Record<string, unknown> {
  const { event } = completion ?? {};
  const values: Record<string, unknown> = {
    fenced: completion !== undefined,
    claimId: completion?.claimId ?? '',
    event: event?.event ?? '',
    eventData: event?.data == null ? null : JSON.stringify(event.data),
    eventRequestId: event?.requestId ?? null,
  };
  for (const column of accountColumns) values[accountParameter(column)] = rows.account[column];
  for (const [i, table] of CHILD_TABLES.entries()) {
    const children = rows.children[i] ?? [];
    for (const [column] of columnsOf(table)) {
      values[childParameter(table, column)] = children.map((row) => row[column]);
    }
  }
  return values;
}

export const postgresAccountWriter: AccountWriter = {
  async write(db, rows, completion) {
    if ('rollBackWith' in completion) {
      return transaction(db.kysely, async (trx) => {
        await writeStatement(trx, statementValues(rows, undefined));
        throw completion.rollBackWith;
      });
    }
    const values = statementValues(rows, completion);
    const { along } = completion;
    if (along === undefined) {
      const [written] = await writeStatement(db.kysely, values);
      return written === undefined ? undefined : Number(written.id);
    }
    // What goes with the account needs a transaction around the one statement.
    try {
      return await transaction(db.kysely, async (trx) => {
        const [written] = await writeStatement(trx, values);
        if (written === undefined) return undefined;
        const { number, created_at: createdAt } = rows.account;
        const id = Number(written.id);
        if (!(await along(trx, { id, number, createdAt }))) throw new ClaimLost();
        return id;
      });
    } catch (error) {
      if (error instanceof ClaimLost) return undefined;
      throw error;
    }
  },
};
