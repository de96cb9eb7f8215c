/**
 * Every table, typed once. Times are Unix epoch milliseconds (bigint columns), booleans are
 * 0/1 integers and JSON documents are text: the one representation both SQLite and PostgreSQL
 * store and return identically.
 */
import type {
  Generated,
  Insertable,
  Kysely,
  Selectable,
  SelectQueryBuilder,
  Transaction,
} from 'kysely';

export type SupplierStatus = 'Ongoing' | 'Paused' | 'Complete';
export type ProcessState = 'pending' | 'in_progress' | 'completed';

export interface SettingsTable {
  key: string;
  value: string;
}

export interface OrganisationsTable {
  id: Generated<number>;
  name: string;
  enabled: number;
  key_id: string;
  key_hash: string;
  key_version: number;
  created_at: number;
}

export interface ImportSuppliersTable {
  id: Generated<number>;
  code: string;
  status: SupplierStatus;
  document_root: string;
  customer_emails: number;
  phone_region: string;
  created_at: number;
  /** The supplier's rule settings as JSON text (src/settings/settings.declared.ts); `{}` by default. */
  rule_settings: Generated<string>;
}

export interface OrganisationSuppliersTable {
  organisation_id: number;
  supplier_id: number;
}

export interface OperationsTeamsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface SkipMarksTable {
  supplier_id: number;
  external_account_number: string;
  reason: string | null;
  created_at: number;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  token_hash: string;
  family_id: string;
  organisation_id: number;
  key_version: number;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ImportProcessesTable {
  id: Generated<number>;
  supplier_id: number;
  external_account_number: string;
  state: ProcessState;
  /** The latest staged version; its payload is that version's row in import_process_versions. */
  version: number;
  first_staged_at: number;
  last_staged_at: number;
  claim_id: string | null;
  lease_until: number | null;
  account_id: number | null;
  service_account_number: string | null;
  account_created_at: number | null;
  last_failure_code: string | null;
  last_failure_detail: string | null;
  last_failure_at: number | null;
}

export interface ImportProcessVersionsTable {
  id: Generated<number>;
  process_id: number;
  version: number;
  data: string;
  organisation_id: number;
  staged_at: number;
  /** What the payload was validated with (src/account/validation-stamp.ts); null: unknown. */
  checked_with: string | null;
}

export interface AccountsTable {
  id: Generated<number>;
  number: string;
  supplier_id: number;
  external_account_number: string;
  import_process_id: number;
  operations_team_id: number;
  /** The whole account as created: its normalised payload, as JSON. */
  document: string;
  created_at: number;
}

/** What an account is found by across accounts: meter point identifiers, statement ids… */
export interface AccountKeysTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  value: string;
}

/**
 * A value an account holds alone within its import supplier: an account reference (kind
 * `reference`) or a debt's CAIS reference (kind `cais`, namespace ''); unique by supplier,
 * kind, namespace and value.
 */
export interface AccountClaimsTable {
  id: Generated<number>;
  account_id: number;
  /** The import supplier of the account: a value is held alone within one supplier's book. */
  supplier_id: number;
  kind: string;
  namespace: string;
  value: string;
}

/**
 * An item a post-import request added to a created account (src/post-import/): its kind
 * (`statement`, `note`, `payment_instruction`), its identity within that kind on the account,
 * and the item as validated, as JSON.
 */
export interface AccountAdditionsTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  key: string;
  data: string;
  created_at: number;
}

export interface AccountDocumentsTable {
  id: Generated<number>;
  account_id: number;
  /** Dot path of the payload field the document came from, e.g. statements.0.statement_path. */
  source: string;
  path: string;
  location: string;
}

/**
 * A ledger of a created account and its balance, once a transactions request opened the account
 * (src/post-import/transactions/). Balances are exact decimal strings, in credit when positive.
 */
export interface AccountLedgerBalancesTable {
  account_id: number;
  /** '' for the account's own ledger; else the code of one of its `ledgers`. */
  ledger_code: string;
  opening_balance: string;
  balance: string;
}

/** A transaction on a created account: of its original payload, or added since. */
export interface AccountTransactionsTable {
  id: Generated<number>;
  account_id: number;
  ledger_code: string;
  transaction_id: string;
  /** The normalised transaction, as JSON. */
  data: string;
  /** What it moved its ledger's balance by, an exact decimal string. */
  balance_change: string;
  source: 'payload' | 'added';
  created_at: number;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  account_id: number;
  /** The customer's position in the account's customers. */
  customer_position: number;
  email: string;
  template: string;
  status: string;
  created_at: number;
}

/**
 * The registration status of each meter point of a created account (src/accounts/
 * registration-lifecycle.ts); unique by account and MPXN.
 */
export interface MeterPointRegistrationsTable {
  id: Generated<number>;
  account_id: number;
  mpxn: string;
  /** ELECTRICITY or GAS, as the account gives it. */
  supply_type: string;
  /** A published meter point status (GbrMeterPointStatus). */
  status: string;
  /** What the adapter said with the status it reported last, if anything. */
  detail: string | null;
  updated_at: number;
}

/**
 * A registration flow to send, written with the meter point's move to REGISTRATION_REQUESTED;
 * the industry adapter sends it and sets sent_at.
 */
export interface RegistrationOutboxTable {
  id: Generated<number>;
  account_id: number;
  mpxn: string;
  /** What to send: `electricity_registration` or `gas_registration`. */
  flow: string;
  created_at: number;
  sent_at: number | null;
}

/**
 * An entry of the platform's reference data: its kind (tariff, market_participant…), its code
 * and the attributes its kind declares, as JSON (src/reference/reference.kinds.ts).
 */
export interface ReferenceEntriesTable {
  kind: string;
  code: string;
  attributes: string;
  /** When the entry was added or its attributes last changed. */
  updated_at: number;
}

/** Something that happened to an account of a supplier (src/events/). */
export interface AccountEventsTable {
  id: Generated<number>;
  supplier_id: number;
  external_account_number: string;
  /** `EVENT_ACCOUNT_IMPORT_PROCESS_…` (src/events/event-names.ts). */
  event: string;
  occurred_at: number;
  /** The event's details as JSON, or null. */
  data: string | null;
  /** The X-Request-Id of the request that caused it; null for workers and the CLI. */
  request_id: string | null;
  /** PostgreSQL: the writing transaction's id (set by the database); SQLite: null. */
  transaction_id: Generated<number | null>;
}

/** The v2 statuses of a scheduled creation (published `ImportStatusResponse.status`). */
export const SCHEDULE_STATUSES = [
  'PENDING',
  'IN_PROGRESS',
  'PROCESSED',
  'ERRORED',
  'CANCELLED',
  'DRY_RUN_SUCCEEDED',
  'DRY_RUN_ERRORED',
] as const;

export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** A staged account's current v2 schedule (src/schedules/). */
export interface CreationSchedulesTable {
  /** The account's process: its one schedule's key. */
  process_id: number;
  supplier_id: number;
  external_account_number: string;
  status: ScheduleStatus;
  is_dry_run: number;
  /** Epoch ms: not created before window_start, ERRORED if not started by window_end. */
  window_start: number;
  window_end: number;
  team_id: number | null;
  /** The worker's claim while IN_PROGRESS, and until when it holds. */
  claim_id: string | null;
  lease_until: number | null;
  attempts: Generated<number>;
  error_code: string | null;
  error_detail: string | null;
  error_domain: string | null;
  service_account_number: string | null;
  created_at: number;
  modified_at: number;
}

export interface Database {
  settings: SettingsTable;
  organisations: OrganisationsTable;
  import_suppliers: ImportSuppliersTable;
  organisation_suppliers: OrganisationSuppliersTable;
  operations_teams: OperationsTeamsTable;
  skip_marks: SkipMarksTable;
  refresh_tokens: RefreshTokensTable;
  import_processes: ImportProcessesTable;
  import_process_versions: ImportProcessVersionsTable;
  accounts: AccountsTable;
  account_documents: AccountDocumentsTable;
  email_outbox: EmailOutboxTable;
  account_keys: AccountKeysTable;
  reference_entries: ReferenceEntriesTable;
  account_claims: AccountClaimsTable;
  account_events: AccountEventsTable;
  creation_schedules: CreationSchedulesTable;
  meter_point_registrations: MeterPointRegistrationsTable;
  registration_outbox: RegistrationOutboxTable;
  account_additions: AccountAdditionsTable;
  account_ledger_balances: AccountLedgerBalancesTable;
  account_transactions: AccountTransactionsTable;
}

export type Organisation = Selectable<OrganisationsTable>;
export type ImportSupplier = Selectable<ImportSuppliersTable>;

/** Every column of a supplier, for queries that read one alongside other rows. */
export const SUPPLIER_COLUMNS = [
  'id',
  'code',
  'status',
  'document_root',
  'customer_emails',
  'phone_region',
  'created_at',
  'rule_settings',
] as const satisfies readonly (keyof ImportSupplier)[];
export type OperationsTeam = Selectable<OperationsTeamsTable>;
export type ImportProcess = Selectable<ImportProcessesTable>;
export type NewImportProcess = Insertable<ImportProcessesTable>;

export type Dialect = 'sqlite' | 'postgres';

/*
 * The storage strategy's types (its implementations and helpers are in storage.ts and the
 * per-dialect files): declared here, beside Db, so that the two modules do not import each other.
 */

/** A write's work, given the executor its statements must use. */
export type Work<T> = (executor: Kysely<Database>) => Promise<T>;

/** One value for each dialect: a statement, a query's strategy, a function. */
export type PerDialect<T> = Readonly<Record<Dialect, T>>;

/** A unique constraint, as each engine names it in a violation. */
export interface UniqueConstraint {
  /** PostgreSQL's name of it. */
  name: string;
  table: string;
  /** Its columns, in the constraint's order (SQLite names them). */
  columns: readonly string[];
}

export interface Storage {
  /**
   * One atomic write: on SQLite in the group commit of this turn of the event loop
   * (group-commit.ts), on PostgreSQL in a transaction of its own (pooled connections commit
   * side by side).
   */
  atomicWrite<T>(db: Kysely<Database>, work: Work<T>): Promise<T>;

  /**
   * A write of one statement, atomic by itself: on SQLite it still joins the turn's group
   * commit, like every write on the request path; on PostgreSQL it runs as it is.
   */
  statementWrite<T>(db: Kysely<Database>, work: Work<T>): Promise<T>;

  /**
   * An atomic write that no other write holding the same lock runs beside, so that it may
   * count what those writes change: SQLite's write lock serialises every write already; on
   * PostgreSQL a transaction-scoped advisory lock on `lock` does.
   */
  exclusiveWrite<T>(db: Kysely<Database>, lock: number, work: Work<T>): Promise<T>;

  /**
   * The query, reading rows that the atomic write it runs in depends on, so that no write
   * changes them before it ends: FOR SHARE on PostgreSQL; on SQLite the write lock, taken
   * when the write began, already holds every other writer off.
   */
  sharingRows<TB extends keyof Database, O>(
    query: SelectQueryBuilder<Database, TB, O>,
  ): SelectQueryBuilder<Database, TB, O>;

  /** Whether `error` is a violation of the unique constraint. */
  isUniqueViolation(error: unknown, constraint: UniqueConstraint): boolean;

  /** Whether `error` means the database cannot be reached now (503), not a bug. */
  isUnavailable(error: unknown): boolean;

  /** The variant for this dialect. */
  pick<T>(variants: PerDialect<T>): T;
}

/** The open database: the query builder plus what callers need to know about the engine. */
export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  /** What differs between the engines: chosen once, when the database is opened. */
  readonly storage: Storage;
  close(): Promise<void>;
}

/** Tables in creation order; tests and tools walk them in this order. */
export const TABLES: readonly (keyof Database)[] = [
  'settings',
  'organisations',
  'import_suppliers',
  'organisation_suppliers',
  'operations_teams',
  'skip_marks',
  'refresh_tokens',
  'import_processes',
  'import_process_versions',
  'accounts',
  'account_documents',
  'email_outbox',
  'account_keys',
  'reference_entries',
  'account_claims',
  'meter_point_registrations',
  'registration_outbox',
  'account_events',
  'creation_schedules',
  'account_additions',
  'account_ledger_balances',
  'account_transactions',
];

/** The database, or a transaction on it: what a statement runs on. */
export type Executor = Kysely<Database> | Transaction<Database>;
