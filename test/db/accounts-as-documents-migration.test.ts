/**
 * Migration 0007 keeps a created account as its document: accounts created before it must
 * come out of their old rows as the same account (readAccount), with their keys and e-mails,
 * and `down` must give the rows back.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readAccount } from '../../src/accounts/account-store.js';
import type { Db } from '../../src/db/database.js';
import { migrateDown, migrateTo } from '../../src/db/migrate.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const BEFORE = '20261124_0006_byte_order_keys';
const MIGRATION = '20261127_0007_accounts_as_documents';

type Row = Record<string, unknown>;

const json = JSON.stringify;

/** An account as its payload, and as the rows kept before 0007 (ids follow the order given). */
const STRUCTURED = {
  payload: {
    import_supplier: 'S',
    external_account_number: 'E-1',
    account_type: 'DOMESTIC',
    communication_preference: 'ONLINE',
    language_preference: 'en-gb',
    unknown_occupier: false,
    billing_name: 'Ada Lovelace',
    transfer_balance: '-12.34',
    billing_address: { country: 'GB', street_address: '1 Road', postal_code: 'EC1A 1BB' },
    customers: [
      {
        given_name: 'Ada',
        family_name: 'Lovelace',
        email: 'ada@lovelace.co.uk',
        is_primary: true,
        consents: [{ type: 'MARKETING_EMAIL', value: 'ACCEPTED' }],
      },
      { given_name: 'Bob', family_name: 'Babbage', mobile: '+447400123456', is_primary: false },
    ],
    supply_addresses: [
      {
        supply_address1: '10 Downing Street',
        supply_address2: 'London',
        supply_postcode: 'SW1A 2AA',
        customer_at_supply_address_from_date: '2020-01-01',
        is_landlord: false,
        meter_points: [
          {
            supply_type: 'ELECTRICITY',
            identifier: '1200023305967',
            supply_start_date: '2021-04-01',
            mpid: 'LOND',
            agreements: [{ tariff_code: 'T-1', effective_from: '2022-11-01' }],
            meters: [
              {
                meter_serial_number: 'S-1',
                installed_on: '2019-06-01',
                registers: [{ register_id: '1' }],
              },
            ],
          },
          { supply_type: 'GAS', identifier: '3240865509', supply_start_date: '2021-04-01' },
        ],
      },
    ],
    statements: [
      {
        statement_id: 'S-1',
        bill_period_from_date: '2024-01-01',
        bill_period_to_date: '2024-01-28',
      },
    ],
    references: [{ namespace: 'crm', value: 'C-1' }],
  },
  account: {
    account_type: 'DOMESTIC',
    business_type: null,
    company_number: null,
    billing_name: 'Ada Lovelace',
    billing_email: null,
    billing_address: json({ country: 'GB', street_address: '1 Road', postal_code: 'EC1A 1BB' }),
    communication_preference: 'ONLINE',
    language_preference: 'en-gb',
    document_accessibility: null,
    transfer_balance: '-12.34',
    last_billed_to_date: null,
    date_of_sale: null,
    unknown_occupier: 0,
    details: json({
      payment_instructions: [],
      statements: [
        {
          statement_id: 'S-1',
          bill_period_from_date: '2024-01-01',
          bill_period_to_date: '2024-01-28',
        },
      ],
      notes: [],
      consents: [],
      references: [{ namespace: 'crm', value: 'C-1' }],
      metadata: [],
    }),
  },
  customers: [
    {
      position: 0,
      given_name: 'Ada',
      family_name: 'Lovelace',
      title: null,
      salutation: null,
      email: 'ada@lovelace.co.uk',
      mobile: null,
      landline: null,
      date_of_birth: null,
      is_primary: 1,
      details: json({ consents: [{ type: 'MARKETING_EMAIL', value: 'ACCEPTED' }], psr: [] }),
    },
    {
      position: 1,
      given_name: 'Bob',
      family_name: 'Babbage',
      title: null,
      salutation: null,
      email: null,
      mobile: '+447400123456',
      landline: null,
      date_of_birth: null,
      is_primary: 0,
      details: json({ consents: [], psr: [] }),
    },
  ],
  addresses: [
    {
      position: 0,
      lines: json(['10 Downing Street', 'London']),
      postcode: 'SW1A 2AA',
      from_date: '2020-01-01',
      to_date: null,
      is_landlord: 0,
    },
  ],
  points: [
    {
      supply_type: 'ELECTRICITY',
      identifier: '1200023305967',
      supply_start_date: '2021-04-01',
      mpid: 'LOND',
    },
    { supply_type: 'GAS', identifier: '3240865509', supply_start_date: '2021-04-01', mpid: null },
  ],
  meters: [
    {
      serial_number: 'S-1',
      installed_on: '2019-06-01',
      details: json({ registers: [{ register_id: '1' }], transfer_readings: [] }),
    },
  ],
  agreements: [{ tariff_code: 'T-1', effective_from: '2022-11-01', effective_to: null }],
};

/** An unknown occupier with a legacy billing address and nothing else. */
const LEGACY = {
  payload: {
    import_supplier: 'S',
    external_account_number: 'E-2',
    account_type: 'BUSINESS',
    business_type: 'LTD',
    communication_preference: 'PRINT',
    language_preference: 'fr-fr',
    unknown_occupier: true,
    billing_address1: '2 Lane',
    billing_postcode: 'NW1 6XE',
    customers: [],
  },
  account: {
    ...STRUCTURED.account,
    account_type: 'BUSINESS',
    business_type: 'LTD',
    billing_name: null,
    billing_address: json({ billing_address1: '2 Lane', billing_postcode: 'NW1 6XE' }),
    communication_preference: 'PRINT',
    language_preference: 'fr-fr',
    transfer_balance: null,
    unknown_occupier: 1,
    details: json({
      payment_instructions: [],
      statements: [],
      notes: [],
      consents: [],
      references: [],
      metadata: [],
    }),
  },
};

await describeEachDialect('migration 0007: accounts kept as documents', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;

  async function insert(table: string, row: Row): Promise<number> {
    const columns = Object.keys(row);
    const { rows } = await sql<{ id: number }>`insert into ${sql.table(table)}
      (${sql.join(columns.map((c) => sql.id(c)))})
      values (${sql.join(columns.map((c) => sql`${row[c]}`))}) returning id`.execute(db.kysely);
    return Number(rows[0]?.id);
  }

  async function rowsOf(table: string, omit: string[]): Promise<Row[]> {
    const { rows } = await sql<Row>`select * from ${sql.table(table)} order by id`.execute(
      db.kysely,
    );
    return rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([column]) => !omit.includes(column))
          .map(([column, value]) => [column, typeof value === 'bigint' ? Number(value) : value]),
      ),
    );
  }

  /** A database one step before 0007 holding STRUCTURED (id 1) and LEGACY (id 2). */
  beforeEach(async () => {
    ({ db, destroy } = await openTestDb(dialect, BEFORE));
    await insert('import_suppliers', { id: 1, code: 'S', status: 'Ongoing', created_at: 1 });
    await insert('operations_teams', { id: 1, name: 'Migrations', created_at: 1 });
    for (const [i, { account }] of [STRUCTURED, LEGACY].entries()) {
      const id = i + 1;
      await insert('import_processes', {
        id,
        supplier_id: 1,
        external_account_number: `E-${id}`,
        state: 'completed',
        version: 1,
        first_staged_at: 1,
        last_staged_at: 1,
      });
      await insert('accounts', {
        id,
        number: `A-0000000${id}`,
        supplier_id: 1,
        external_account_number: `E-${id}`,
        import_process_id: id,
        operations_team_id: 1,
        ...account,
        created_at: 5,
      });
    }
    const customerIds = [];
    for (const customer of STRUCTURED.customers) {
      customerIds.push(await insert('customers', { account_id: 1, ...customer }));
    }
    const [addressId] = [
      await insert('supply_addresses', { account_id: 1, ...STRUCTURED.addresses[0] }),
    ];
    const pointIds = [];
    for (const point of STRUCTURED.points) {
      pointIds.push(
        await insert('meter_points', { account_id: 1, supply_address_id: addressId, ...point }),
      );
    }
    await insert('meters', { meter_point_id: pointIds[0], ...STRUCTURED.meters[0] });
    await insert('agreements', { meter_point_id: pointIds[0], ...STRUCTURED.agreements[0] });
    await insert('email_outbox', {
      account_id: 1,
      customer_id: customerIds[0],
      email: 'ada@lovelace.co.uk',
      template: 'account_migrated',
      status: 'queued',
      created_at: 5,
    });
  });

  afterEach(() => destroy());

  it('builds each account document from its rows, with its keys and e-mails, and drops the rows', async () => {
    const before = {
      accounts: await rowsOf('accounts', []),
      customers: await rowsOf('customers', ['id']),
      supply_addresses: await rowsOf('supply_addresses', ['id']),
      meter_points: await rowsOf('meter_points', ['id', 'supply_address_id']),
      meters: await rowsOf('meters', ['id', 'meter_point_id']),
      agreements: await rowsOf('agreements', ['id', 'meter_point_id']),
    };
    expect(await migrateTo(db, MIGRATION)).toEqual([`applied ${MIGRATION}`]);

    expect((await readAccount(db, 1))?.payload).toEqual(STRUCTURED.payload);
    expect((await readAccount(db, 'A-00000002'))?.payload).toEqual(LEGACY.payload);
    expect(await rowsOf('account_keys', ['id'])).toEqual([
      { account_id: 1, kind: 'meter_point', value: '1200023305967' },
      { account_id: 1, kind: 'meter_point', value: '3240865509' },
      { account_id: 1, kind: 'statement', value: 'S-1' },
      { account_id: 1, kind: 'reference:crm', value: 'C-1' },
    ]);
    expect(await rowsOf('email_outbox', ['id'])).toEqual([
      {
        account_id: 1,
        customer_position: 0,
        email: 'ada@lovelace.co.uk',
        template: 'account_migrated',
        status: 'queued',
        created_at: 5,
      },
    ]);
    const tables = (await db.kysely.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('customers');
    expect(tables).not.toContain('meter_points');

    expect(await migrateDown(db)).toEqual([`reverted ${MIGRATION}`]);
    expect({
      accounts: await rowsOf('accounts', []),
      customers: await rowsOf('customers', ['id']),
      supply_addresses: await rowsOf('supply_addresses', ['id']),
      meter_points: await rowsOf('meter_points', ['id', 'supply_address_id']),
      meters: await rowsOf('meters', ['id', 'meter_point_id']),
      agreements: await rowsOf('agreements', ['id', 'meter_point_id']),
    }).toEqual(before);
    const { rows } = await sql<Row>`select c.email from email_outbox e
      join customers c on c.id = e.customer_id`.execute(db.kysely);
    expect(rows).toEqual([{ email: 'ada@lovelace.co.uk' }]);
  });
});
