/**
 * Every table, typed once. Times are Unix epoch milliseconds (bigint columns), booleans are
 * 0/1 integers and JSON documents are text: the one representation both SQLite and PostgreSQL
 * store and return identically.
 */
import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Storage } from './storage.js';

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
}

export interface AccountsTable {
  id: Generated<number>;
  number: string;
  supplier_id: number;
  external_account_number: string;
  import_process_id: number;
  operations_team_id: number;
  account_type: string;
  business_type: string | null;
  company_number: string | null;
  billing_name: string | null;
  billing_email: string | null;
  /** The billing address, structured or legacy lines, as given. */
  billing_address: string;
  communication_preference: string;
  language_preference: string;
  document_accessibility: string | null;
  transfer_balance: string | null;
  last_billed_to_date: string | null;
  date_of_sale: string | null;
  unknown_occupier: number;
  /** Payment instructions, statements, notes, consents, references and metadata. */
  details: string;
  created_at: number;
}

export interface CustomersTable {
  id: Generated<number>;
  account_id: number;
  position: number;
  given_name: string;
  family_name: string;
  title: string | null;
  salutation: string | null;
  email: string | null;
  mobile: string | null;
  landline: string | null;
  date_of_birth: string | null;
  is_primary: number;
  /** Consents and priority-services register entries. */
  details: string;
}

export interface SupplyAddressesTable {
  id: Generated<number>;
  account_id: number;
  position: number;
  lines: string;
  postcode: string;
  from_date: string;
  to_date: string | null;
  is_landlord: number;
}

export interface MeterPointsTable {
  id: Generated<number>;
  account_id: number;
  supply_address_id: number;
  supply_type: string;
  identifier: string;
  supply_start_date: string;
  mpid: string | null;
}

export interface MetersTable {
  id: Generated<number>;
  meter_point_id: number;
  serial_number: string;
  installed_on: string | null;
  /** Registers and transfer readings. */
  details: string;
}

export interface AgreementsTable {
  id: Generated<number>;
  meter_point_id: number;
  tariff_code: string;
  effective_from: string;
  effective_to: string | null;
}

export interface AccountDocumentsTable {
  id: Generated<number>;
  account_id: number;
  /** Dot path of the payload field the document came from, e.g. statements.0.statement_path. */
  source: string;
  path: string;
  location: string;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  account_id: number;
  customer_id: number;
  email: string;
  template: string;
  status: string;
  created_at: number;
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
  customers: CustomersTable;
  supply_addresses: SupplyAddressesTable;
  meter_points: MeterPointsTable;
  meters: MetersTable;
  agreements: AgreementsTable;
  account_documents: AccountDocumentsTable;
  email_outbox: EmailOutboxTable;
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
] as const satisfies readonly (keyof ImportSupplier)[];
export type OperationsTeam = Selectable<OperationsTeamsTable>;
export type ImportProcess = Selectable<ImportProcessesTable>;
export type NewImportProcess = Insertable<ImportProcessesTable>;

export type Dialect = 'sqlite' | 'postgres';

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
  'customers',
  'supply_addresses',
  'meter_points',
  'meters',
  'agreements',
  'account_documents',
  'email_outbox',
];

/** The database, or a transaction on it: what a statement runs on. */
export type Executor = Kysely<Database> | Transaction<Database>;
