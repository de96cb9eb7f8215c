/**
 * The tables that kept a created account's parts, as migration 0001 created them: dropped by
 * migration 0007, which keeps the account as a document, and created again by its `down`.
 */
import type { Kysely } from 'kysely';
import { idType } from './dialect.js';

export const NORMALISED_TABLES_NEWEST_FIRST = [
  'agreements',
  'meters',
  'meter_points',
  'supply_addresses',
  'customers',
];

export async function createNormalisedTables(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema;
  const id = idType(db);
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
}
