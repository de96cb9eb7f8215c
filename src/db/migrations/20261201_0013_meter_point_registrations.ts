/**
 * The registration status of each meter point of a created account, and the outbox of the
 * registration flows to send (src/accounts/registration-lifecycle.ts).
 *
 * `up` gives the meter points of the accounts already created the status a creation gives them
 * now: PRE_REGISTRATION when their supplier sends registration flows, ON_SUPPLY otherwise (read
 * from the supplier's rule settings as the migration runs), since the time the account was
 * created. Accounts are carried over 500 at a time; a meter point an account lists twice (which
 * the rules refuse) gets one row.
 */
import { sql, type Kysely } from 'kysely';
import { idType } from './dialect.js';

const BATCH = 500;

type Json = Record<string, unknown>;

const objects = (list: unknown): Json[] =>
  Array.isArray(list)
    ? list.filter((item): item is Json => typeof item === 'object' && item !== null)
    : [];

/** The meter points of a stored document, as src/accounts/ read them when this was written. */
function meterPointsOf(document: Json): { mpxn: string; supplyType: string }[] {
  return objects(document.supply_addresses).flatMap((address) =>
    objects(address.meter_points).flatMap(({ identifier, supply_type: supplyType }) =>
      typeof identifier === 'string' && typeof supplyType === 'string'
        ? [{ mpxn: identifier, supplyType }]
        : [],
    ),
  );
}

function sendsFlows(ruleSettings: string): boolean {
  try {
    return (JSON.parse(ruleSettings) as Json).send_registration_flows === true;
  } catch {
    return false;
  }
}

async function carryOverMeterPoints(db: Kysely<unknown>): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{
      id: number;
      document: string;
      created_at: number;
      rule_settings: string;
    }>`select a.id, a.document, a.created_at, s.rule_settings
      from accounts a join import_suppliers s on s.id = a.supplier_id
      where a.id > ${after} order by a.id limit ${BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const status = sendsFlows(row.rule_settings) ? 'PRE_REGISTRATION' : 'ON_SUPPLY';
      for (const { mpxn, supplyType } of meterPointsOf(JSON.parse(row.document) as Json)) {
        await sql`insert into meter_point_registrations
            (account_id, mpxn, supply_type, status, detail, updated_at)
          values (${row.id}, ${mpxn}, ${supplyType}, ${status}, null, ${Number(row.created_at)})
          on conflict (account_id, mpxn) do nothing`.execute(db);
      }
    }
    after = Number(rows.at(-1)?.id);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('meter_point_registrations')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('mpxn', 'text', (c) => c.notNull())
    .addColumn('supply_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('meter_point_registrations_key', ['account_id', 'mpxn'])
    .execute();
  // `registration record MPXN` finds a meter point by its MPXN alone.
  await db.schema
    .createIndex('meter_point_registrations_mpxn')
    .on('meter_point_registrations')
    .column('mpxn')
    .execute();
  await db.schema
    .createTable('registration_outbox')
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
    .addColumn('mpxn', 'text', (c) => c.notNull())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  // The adapter reads the flows still to send, oldest first.
  await db.schema
    .createIndex('registration_outbox_unsent')
    .on('registration_outbox')
    .columns(['sent_at', 'id'])
    .execute();
  await carryOverMeterPoints(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registration_outbox').execute();
  await db.schema.dropTable('meter_point_registrations').execute();
}
