/**
 * What a created account is stored as, declared once for both databases: the account's row,
 * which keeps the whole normalised account as a JSON document, and the rows of its child
 * tables. A child table holds only what must be found or acted on across accounts: the
 * documents to fetch, the e-mails to send, the keys that platform rules look accounts up by
 * and the values the account holds alone (account-claims.ts). A new payload section needs
 * nothing here (the document holds it); a new child table needs its declaration in
 * CHILD_TABLES, its migration and its Database type, and no SQL.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Database, ImportSupplier } from '../db/database.js';
import type { EnergyAccount } from '../account/account.js';
import { claimRows } from './account-claims.js';
import { accountKeys } from './account-keys.js';
import { collectDocuments, resolveDocumentLocation } from './documents.js';
import { meterPointRegistrations } from './meter-point-registrations.js';

export const MIGRATION_EMAIL_TEMPLATE = 'account_migrated';

/** What every account number looks like (newAccountNumber). */
export const ACCOUNT_NUMBER = /^A-[0-9A-F]{8}$/;

/**
 * `A-` and 8 random upper-case hex characters; uniqueness is enforced by the accounts table. The
 * first 8 characters of a version 4 UUID are random, and randomUUID draws its entropy in batches:
 * a draw of 4 bytes of its own for each account took several times as long.
 */
export function newAccountNumber(): string {
  return `A-${randomUUID().slice(0, 8).toUpperCase()}`;
}

export interface NewAccount {
  number: string;
  supplier: ImportSupplier;
  teamId: number;
  processId: number;
  payload: EnergyAccount;
  documentBucket: string;
  now: number;
}

/** How a column's values are typed in SQL (PostgreSQL casts the arrays it receives to it). */
export type ColumnType = 'text' | 'bigint' | 'integer';

type Columns<T extends keyof Database, Omitted extends string> = Exclude<
  keyof Insertable<Database[T]> & string,
  'id' | Omitted
>;

/** A row of `table` as written, without the ids the database gives it. */
export type RowOf<T extends keyof Database, Omitted extends string = never> = Pick<
  Insertable<Database[T]>,
  Columns<T, Omitted>
>;

interface TableDeclaration<T extends keyof Database, Omitted extends string> {
  readonly table: T;
  /** Every column written, in the order the statements list them. */
  readonly columns: { readonly [C in Columns<T, Omitted>]: ColumnType };
}

export type AccountTable = TableDeclaration<'accounts', never> & {
  row(account: NewAccount): RowOf<'accounts'>;
};

export const ACCOUNT_TABLE: AccountTable = {
  table: 'accounts',
  columns: {
    number: 'text',
    supplier_id: 'bigint',
    external_account_number: 'text',
    import_process_id: 'bigint',
    operations_team_id: 'bigint',
    document: 'text',
    created_at: 'bigint',
  },
  row: (account) => ({
    number: account.number,
    supplier_id: account.supplier.id,
    external_account_number: account.payload.external_account_number,
    import_process_id: account.processId,
    operations_team_id: account.teamId,
    document: JSON.stringify(account.payload),
    created_at: account.now,
  }),
};

/** The tables whose rows point at their account (account_id), which the writers fill in. */
export type ChildTableName = {
  [T in keyof Database]: 'account_id' extends keyof Database[T] ? T : never;
}[keyof Database];

export interface ChildTable<T extends ChildTableName = ChildTableName> extends TableDeclaration<
  T,
  'account_id'
> {
  rows(account: NewAccount): RowOf<T, 'account_id'>[];
}

const childTable = <T extends ChildTableName>(declaration: ChildTable<T>): ChildTable =>
  declaration as unknown as ChildTable;

/** The child tables, written after the account's row, in this order. */
export const CHILD_TABLES: readonly ChildTable[] = [
  childTable({
    table: 'account_keys',
    columns: { kind: 'text', value: 'text' },
    rows: (account) => accountKeys(account.payload),
  }),
  childTable({
    table: 'account_claims',
    columns: { supplier_id: 'bigint', kind: 'text', namespace: 'text', value: 'text' },
    rows: ({ payload, supplier }) =>
      claimRows(payload).map((claim) => ({ supplier_id: supplier.id, ...claim })),
  }),
  childTable({
    table: 'account_documents',
    columns: { source: 'text', path: 'text', location: 'text' },
    rows: ({ payload, documentBucket, supplier }) =>
      collectDocuments(payload).map(({ source, path }) => ({
        source,
        path,
        location: resolveDocumentLocation(documentBucket, supplier.document_root, path),
      })),
  }),
  childTable({
    table: 'email_outbox',
    columns: {
      customer_position: 'integer',
      email: 'text',
      template: 'text',
      status: 'text',
      created_at: 'bigint',
    },
    rows: migrationEmails,
  }),
  childTable({
    table: 'meter_point_registrations',
    columns: {
      mpxn: 'text',
      supply_type: 'text',
      status: 'text',
      detail: 'text',
      updated_at: 'bigint',
    },
    rows: ({ payload, supplier, now }) => meterPointRegistrations(payload, supplier, now),
  }),
];

/** One migration e-mail per customer with an e-mail address, if the supplier sends them. */
function migrationEmails(account: NewAccount): RowOf<'email_outbox', 'account_id'>[] {
  if (account.supplier.customer_emails !== 1) return [];
  return (account.payload.customers ?? []).flatMap((customer, position) =>
    customer.email === undefined || customer.email === null
      ? []
      : [
          {
            customer_position: position,
            email: customer.email,
            template: MIGRATION_EMAIL_TEMPLATE,
            status: 'queued',
            created_at: account.now,
          },
        ],
  );
}

/** The rows an account is stored as: its own and each child table's, in CHILD_TABLES order. */
export interface AccountRows {
  account: RowOf<'accounts'>;
  children: Record<string, unknown>[][];
}

export function accountRows(account: NewAccount): AccountRows {
  return {
    account: ACCOUNT_TABLE.row(account),
    children: CHILD_TABLES.map((table) => table.rows(account)),
  };
}
