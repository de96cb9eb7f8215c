/**
 * The account graph as stored, column by column: SQLite writes it one statement per table,
 * PostgreSQL in one statement (src/accounts/postgres-graph.ts). Both must store exactly the rows
 * accountGraph maps the payload onto, each child under its own parent, in payload order.
 */
import { beforeAll, expect, it } from 'vitest';
import { accountGraph, type AccountGraph } from '../../src/accounts/accounts.repository.js';
import { validateAccountPayload } from '../../src/payload/account.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService, processDemoAccount, updateSupplier } from '../helpers/app.js';
import {
  buildAccount,
  buildCustomer,
  buildGasMeterPoint,
  buildMeterPoint,
  buildStatement,
  buildSupplyAddress,
  mpanWithCheckDigit,
} from '../payload/factory.js';

/** Every optional field set on some rows and absent on others, no two values alike. */
const PAYLOAD = buildAccount({
  external_account_number: 'GRAPH-1',
  business_type: undefined,
  customers: [
    buildCustomer({ is_primary: true, salutation: 'Dear Ada' }),
    buildCustomer({
      given_name: 'Charles',
      family_name: 'Babbage',
      title: undefined,
      email: undefined,
      mobile: undefined,
      landline: '020 7946 0019',
      date_of_birth: undefined,
      consents: undefined,
    }),
    buildCustomer({ given_name: 'Grace', family_name: 'Hopper', email: 'grace@hopper.co.uk' }),
  ],
  supply_addresses: [
    buildSupplyAddress({
      meter_points: [
        buildMeterPoint({
          meters: [
            { meter_serial_number: 'S-ONE', installed_on: '2019-06-01' },
            { meter_serial_number: 'S-TWO' },
          ],
          agreements: [
            { tariff_code: 'T-1', effective_from: '2022-11-01', effective_to: '2023-10-31' },
            { tariff_code: 'T-2', effective_from: '2023-11-01' },
          ],
        }),
      ],
    }),
    buildSupplyAddress({
      supply_address1: '221B Baker Street',
      supply_address2: undefined,
      supply_postcode: 'NW1 6XE',
      customer_at_supply_address_from_date: '2022-05-01',
      customer_at_supply_address_to_date: '2024-05-01',
      is_landlord: true,
      meter_points: [
        buildMeterPoint({ identifier: mpanWithCheckDigit('200012345678'), mpid: undefined }),
        buildGasMeterPoint({ identifier: '7654321', agreements: [] }),
      ],
    }),
  ],
  statements: [buildStatement(1), buildStatement(2)],
});

await describeEachDialect('account graph as stored', (dialect) => {
  const service = useTestService(dialect);
  beforeAll(async () => {
    await updateSupplier(service, 'DEMO', { customer_emails: 1 });
  });

  /** The graph read back from the database, in the shape accountGraph builds it. */
  async function storedGraph(number: string): Promise<AccountGraph> {
    const db = service.db.kysely;
    const { id, ...account } = await db
      .selectFrom('accounts')
      .selectAll()
      .where('number', '=', number)
      .executeTakeFirstOrThrow();
    const customers = await db
      .selectFrom('customers')
      .selectAll()
      .where('account_id', '=', id)
      .orderBy('id')
      .execute();
    const addresses = await db
      .selectFrom('supply_addresses')
      .selectAll()
      .where('account_id', '=', id)
      .orderBy('id')
      .execute();
    const points = await db
      .selectFrom('meter_points')
      .selectAll()
      .where('account_id', '=', id)
      .orderBy('id')
      .execute();
    const pointIds = points.map((p) => p.id);
    const identifierOf = (pointId: number) => points.find((p) => p.id === pointId)?.identifier;
    const meters = await db
      .selectFrom('meters')
      .selectAll()
      .where('meter_point_id', 'in', pointIds)
      .orderBy('id')
      .execute();
    const agreements = await db
      .selectFrom('agreements')
      .selectAll()
      .where('meter_point_id', 'in', pointIds)
      .orderBy('id')
      .execute();
    const documents = await db
      .selectFrom('account_documents')
      .selectAll()
      .where('account_id', '=', id)
      .orderBy('id')
      .execute();
    return {
      account: { ...account },
      customers: customers.map(({ id: _id, account_id: _account, ...row }) => row),
      emailCustomers: true,
      addresses: addresses.map(({ id: _id, account_id: _account, ...row }) => row),
      meterPoints: points.map(({ id: _id, account_id: _account, supply_address_id, ...row }) => ({
        address_position: addresses.find((a) => a.id === supply_address_id)?.position as number,
        ...row,
      })),
      meters: meters.map(({ id: _id, meter_point_id, ...row }) => ({
        point_identifier: identifierOf(meter_point_id) as string,
        ...row,
      })),
      agreements: agreements.map(({ id: _id, meter_point_id, ...row }) => ({
        point_identifier: identifierOf(meter_point_id) as string,
        ...row,
      })),
      documents: documents.map(({ id: _id, account_id: _account, ...row }) => row),
    };
  }

  it('creates an account with more meters than one statement can bind (9,000), whole or not at all', async () => {
    let point = 0;
    const payload = buildAccount({
      external_account_number: 'GRAPH-LARGE',
      supply_addresses: Array.from({ length: 10 }, () =>
        buildSupplyAddress({
          meter_points: Array.from({ length: 20 }, () => {
            point += 1;
            return buildMeterPoint({
              identifier: mpanWithCheckDigit(String(200_000_000_000 + point)),
              meters: Array.from({ length: 45 }, (_, m) => ({
                meter_serial_number: `S-${point}-${m}`,
              })),
            });
          }),
        }),
      ),
    });
    const staged = await service.request({ method: 'POST', url: PATHS.stage, payload });
    expect(staged.statusCode).toBe(201);
    const dryRun = await processDemoAccount(service, 'GRAPH-LARGE', { dry_run: true });
    expect(dryRun.statusCode).toBe(400);
    expect(dryRun.json().code).toBe('dry_run_rolled_back');
    const created = await processDemoAccount(service, 'GRAPH-LARGE');
    expect(created.statusCode).toBe(201);
    const stored = await storedGraph(created.json().service_account_number);
    expect(stored.meterPoints).toHaveLength(200);
    expect(stored.meters).toHaveLength(9_000);
    expect(stored.meters.at(-1)).toMatchObject({
      point_identifier: mpanWithCheckDigit('200000000200'),
      serial_number: 'S-200-44',
    });
  });

  it('stores every row and column of the graph under its own parent, in payload order', async () => {
    const staged = await service.request({ method: 'POST', url: PATHS.stage, payload: PAYLOAD });
    expect(staged.statusCode).toBe(201);
    const created = await processDemoAccount(service, 'GRAPH-1');
    expect(created.statusCode).toBe(201);
    const number: string = created.json().service_account_number;

    const db = service.db.kysely;
    const supplier = await db
      .selectFrom('import_suppliers')
      .selectAll()
      .where('code', '=', 'DEMO')
      .executeTakeFirstOrThrow();
    const { id: teamId } = await db
      .selectFrom('operations_teams')
      .select('id')
      .where('name', '=', 'Migrations')
      .executeTakeFirstOrThrow();
    const process = await db
      .selectFrom('import_processes')
      .select(['id', 'account_id', 'account_created_at'])
      .where('external_account_number', '=', 'GRAPH-1')
      .executeTakeFirstOrThrow();
    const validated = validateAccountPayload(PAYLOAD, {
      phoneRegion: supplier.phone_region,
      supplierFound: true,
    });
    if (!validated.ok) throw new Error('the test payload must be valid');
    const expected = accountGraph({
      number,
      supplier,
      teamId,
      processId: process.id,
      payload: validated.value,
      documentBucket: service.config.documentBucket,
      now: process.account_created_at as number,
    });
    // The fixture exercises what the comparison relies on.
    expect(expected.customers).toHaveLength(3);
    expect(expected.meterPoints).toHaveLength(3);
    expect(expected.meters.length).toBeGreaterThan(3);
    expect(expected.agreements.length).toBeGreaterThan(2);
    expect(expected.documents.length).toBeGreaterThan(1);
    expect(expected.emailCustomers).toBe(true);

    expect(await storedGraph(number)).toEqual(expected);
    const emails = await db
      .selectFrom('email_outbox as e')
      .innerJoin('customers as c', 'c.id', 'e.customer_id')
      .select(['e.email', 'c.email as customer_email', 'e.template', 'e.status'])
      .where('e.account_id', '=', process.account_id as number)
      .orderBy('e.id')
      .execute();
    expect(emails).toEqual(
      ['ada@lovelace.co.uk', 'grace@hopper.co.uk'].map((email) => ({
        email,
        customer_email: email,
        template: 'account_migrated',
        status: 'queued',
      })),
    );
  });
});
