/** The whole first schema: operator data, tokens, import processes and created accounts. */
import { sql, type Kysely } from 'kysely';
import { idType } from './dialect.js';

const TABLES_NEWEST_FIRST = [
  'email_outbox',
  'account_documents',
  'agreements',
  'meters',
  'meter_points',
  'supply_addresses',
  'customers',
  'accounts',
  'import_process_versions',
  'import_processes',
  'refresh_tokens',
  'skip_marks',
  'operations_teams',
  'organisation_suppliers',
  'import_suppliers',
  'organisations',
  'settings',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = idType(db);
  const schema = db.schema;

  await schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await schema
    .createTable('organisations')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('key_id', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('key_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await schema
    .createTable('import_suppliers')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sqlIn('status', ['Ongoing', 'Paused', 'Complete'])),
    )
    .addColumn('document_root', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('customer_emails', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone_region', 'text', (c) => c.notNull().defaultTo('GB'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await schema
    .createTable('organisation_suppliers')
    .addColumn('organisation_id', 'bigint', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('supplier_id', 'bigint', (c) =>
      c.notNull().references('import_suppliers.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('organisation_suppliers_pk', ['organisation_id', 'supplier_id'])
    .execute();

  await schema
    .createTable('operations_teams')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await schema
    .createTable('skip_marks')
    .addColumn('supplier_id', 'bigint', (c) => c.notNull().references('import_suppliers.id'))
    .addColumn('external_account_number', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('skip_marks_pk', ['supplier_id', 'external_account_number'])
    .execute();

  await schema
    .createTable('refresh_tokens')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('organisation_id', 'bigint', (c) =>
      c.notNull().references('organisations.id').onDelete('cascade'),
    )
    .addColumn('key_version', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await schema
    .createIndex('refresh_tokens_family_idx')
    .on('refresh_tokens')
    .column('family_id')
    .execute();

  await schema
    .createTable('import_processes')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('supplier_id', 'bigint', (c) => c.notNull().references('import_suppliers.id'))
    .addColumn('external_account_number', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sqlIn('state', ['pending', 'in_progress', 'completed'])),
    )
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('first_staged_at', 'bigint', (c) => c.notNull())
    .addColumn('last_staged_at', 'bigint', (c) => c.notNull())
    .addColumn('claim_id', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('account_id', 'bigint')
    .addColumn('service_account_number', 'text')
    .addColumn('account_created_at', 'bigint')
    .addColumn('last_failure_code', 'text')
    .addColumn('last_failure_detail', 'text')
    .addColumn('last_failure_at', 'bigint')
    .addUniqueConstraint('import_processes_supplier_external_uq', [
      'supplier_id',
      'external_account_number',
    ])
    .execute();
  await schema
    .createIndex('import_processes_order_idx')
    .on('import_processes')
    .columns(['supplier_id', 'first_staged_at', 'external_account_number'])
    .execute();
  // Partial indexes: each row sits in the list index of its kind only, and only live claims
  // sit in the lease index, so staging touches fewer b-trees than one index per query would.
  await schema
    .createIndex('import_processes_pending_order_idx')
    .on('import_processes')
    .columns(['supplier_id', 'first_staged_at', 'external_account_number'])
    .where(sql.ref('state'), '<>', 'completed')
    .execute();
  await schema
    .createIndex('import_processes_imported_order_idx')
    .on('import_processes')
    .columns(['supplier_id', 'first_staged_at', 'external_account_number'])
    .where(sql.ref('state'), '=', 'completed')
    .execute();
  await schema
    .createIndex('import_processes_claims_idx')
    .on('import_processes')
    .column('lease_until')
    .where(sql.ref('state'), '=', 'in_progress')
    .execute();

  await schema
    .createTable('import_process_versions')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('process_id', 'bigint', (c) => c.notNull().references('import_processes.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('organisation_id', 'bigint', (c) => c.notNull().references('organisations.id'))
    .addColumn('staged_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('import_process_versions_uq', ['process_id', 'version'])
    .execute();

  await schema
    .createTable('accounts')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('supplier_id', 'bigint', (c) => c.notNull().references('import_suppliers.id'))
    .addColumn('external_account_number', 'text', (c) => c.notNull())
    .addColumn('import_process_id', 'bigint', (c) =>
      c.notNull().unique().references('import_processes.id'),
    )
    .addColumn('operations_team_id', 'bigint', (c) => c.notNull().references('operations_teams.id'))
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('business_type', 'text')
    .addColumn('company_number', 'text')
    .addColumn('billing_name', 'text')
    .addColumn('billing_email', 'text')
    .addColumn('billing_address', 'text', (c) => c.notNull())
    .addColumn('communication_preference', 'text', (c) => c.notNull())
    .addColumn('language_preference', 'text', (c) => c.notNull())
    .addColumn('document_accessibility', 'text')
    .addColumn('transfer_balance', 'text')
    .addColumn('last_billed_to_date', 'text')
    .addColumn('date_of_sale', 'text')
    .addColumn('unknown_occupier', 'integer', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('accounts_supplier_external_uq', [
      'supplier_id',
      'external_account_number',
    ])
    .execute();

  await schema
    .createTable('customers')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('given_name', 'text', (c) => c.notNull())
    .addColumn('family_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('salutation', 'text')
    .addColumn('email', 'text')
    .addColumn('mobile', 'text')
    .addColumn('landline', 'text')
    .addColumn('date_of_birth', 'text')
    .addColumn('is_primary', 'integer', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await schema.createIndex('customers_account_idx').on('customers').column('account_id').execute();

  await schema
    .createTable('supply_addresses')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('postcode', 'text', (c) => c.notNull())
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('to_date', 'text')
    .addColumn('is_landlord', 'integer', (c) => c.notNull())
    .execute();
  await schema
    .createIndex('supply_addresses_account_idx')
    .on('supply_addresses')
    .column('account_id')
    .execute();

  await schema
    .createTable('meter_points')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('supply_address_id', 'bigint', (c) => c.notNull().references('supply_addresses.id'))
    .addColumn('supply_type', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('supply_start_date', 'text', (c) => c.notNull())
    .addColumn('mpid', 'text')
    .execute();
  await schema
    .createIndex('meter_points_account_idx')
    .on('meter_points')
    .column('account_id')
    .execute();

  await schema
    .createTable('meters')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('meter_point_id', 'bigint', (c) => c.notNull().references('meter_points.id'))
    .addColumn('serial_number', 'text', (c) => c.notNull())
    .addColumn('installed_on', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await schema.createIndex('meters_point_idx').on('meters').column('meter_point_id').execute();

  await schema
    .createTable('agreements')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('meter_point_id', 'bigint', (c) => c.notNull().references('meter_points.id'))
    .addColumn('tariff_code', 'text', (c) => c.notNull())
    .addColumn('effective_from', 'text', (c) => c.notNull())
    .addColumn('effective_to', 'text')
    .execute();
  await schema
    .createIndex('agreements_point_idx')
    .on('agreements')
    .column('meter_point_id')
    .execute();

  await schema
    .createTable('account_documents')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .execute();
  await schema
    .createIndex('account_documents_account_idx')
    .on('account_documents')
    .column('account_id')
    .execute();

  await schema
    .createTable('email_outbox')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await schema
    .createIndex('email_outbox_status_idx')
    .on('email_outbox')
    .columns(['status', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES_NEWEST_FIRST) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

function sqlIn(column: string, values: string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}
