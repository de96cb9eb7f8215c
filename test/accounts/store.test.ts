/**
 * The account store: a created account reads back as its normalised payload, and its child
 * rows (keys, documents, e-mails) are written under it in payload order, on both databases.
 */
import { beforeAll, expect, it } from 'vitest';
import { readAccount } from '../../src/accounts/account-store.js';
import { validateEnergyAccount } from '../../src/account/account.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  createDemoAccount,
  PATHS,
  useTestService,
  processDemoAccount,
  rowCounts,
  updateSupplier,
} from '../helpers/app.js';
import {
  buildAccount,
  buildCustomer,
  buildGasMeterPoint,
  buildMeterPoint,
  buildStatement,
  buildSupplyAddress,
  mpanWithCheckDigit,
} from '../account/factory.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

const meterOf = (point: Record<string, unknown>) =>
  (point.meters as Record<string, unknown>[])[0] as Record<string, unknown>;

/** A meter point's fields once its supply ended on 2024-03-20, read and billed to that day. */
const finalReading = (meter: Record<string, unknown>) => {
  const read = (meter.transfer_readings as Record<string, unknown>[])[0];
  return {
    supply_end_date: '2024-03-20',
    last_billed_to_date: '2024-03-21',
    meters: [
      {
        ...meter,
        transfer_readings: [{ ...read, reading_date: '2024-03-21' }],
        reading_history: [{ ...read, reading_date: '2024-03-20', billed: true }],
      },
    ],
  };
};

/** Every optional field set on some records and absent (or null, where published) on others. */
const PAYLOAD = buildAccount({
  external_account_number: 'STORE-1',
  business_type: undefined,
  customers: [
    buildCustomer({ salutation: 'Dear Ada' }),
    buildCustomer({
      given_name: 'Charles',
      family_name: 'Babbage',
      title: null,
      // A published customer's e-mail may be null: no migration e-mail is sent to it.
      email: null,
      mobile: undefined,
      landline: '020 7946 0019',
      date_of_birth: undefined,
      consents: undefined,
    }),
    buildCustomer({ given_name: 'Grace', family_name: 'Hopper', email: 'grace@hopper.co.uk' }),
    buildCustomer({ given_name: 'Alan', family_name: 'Turing', email: undefined }),
  ],
  supply_addresses: [
    buildSupplyAddress({
      meter_points: [
        buildMeterPoint({
          meters: [
            { ...meterOf(buildMeterPoint()), meter_serial_number: 'SONE' },
            { meter_serial_number: 'STWO', removed_on: '2019-05-31' },
          ],
          agreements: [
            {
              tariff_code: 'E-1R-FIX-12M',
              effective_from: '2022-11-01',
              effective_to: '2023-10-31',
            },
            { tariff_code: 'E-1R-VAR', effective_from: '2023-11-01' },
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
        // Off supply before the last billed to date: no agreement needs to cover that date.
        buildMeterPoint({
          identifier: mpanWithCheckDigit('200012345678'),
          agreements: undefined,
          ...finalReading(meterOf(buildMeterPoint())),
        }),
        buildGasMeterPoint({
          identifier: '7654321',
          agreements: [],
          ...finalReading(meterOf(buildGasMeterPoint())),
        }),
      ],
    }),
  ],
  // The second path is written as the published examples write them, without a leading slash.
  statements: [buildStatement(1), buildStatement(2, { statement_path: 'statements/2024/S-2.pdf' })],
  notes: [
    { body: 'Customer prefers calls after 5pm.', created_at: '2024-02-01T17:30:00+01:00' },
    { document_paths: [{ document_path: 'notes/2024/letter-1.pdf' }] },
  ],
  references: [
    { namespace: 'legacy-crm', value: 'CRM-42' },
    { namespace: 'allpay-client-reference-number', value: 'B-7' },
  ],
});

await describeEachDialect('account store', (dialect) => {
  const service = useTestService(dialect);
  beforeAll(async () => {
    await updateSupplier(service, 'DEMO', { customer_emails: 1, document_root: '/root' });
  });

  const childRows = (table: 'account_keys' | 'account_documents' | 'email_outbox', id: number) =>
    service.db.kysely
      .selectFrom(table)
      .selectAll()
      .where('account_id', '=', id)
      .orderBy('id')
      .execute();

  it('reads a created account back as its normalised payload, by id and by number', async () => {
    const number = await createDemoAccount(service, PAYLOAD);
    const supplier = await service.db.kysely
      .selectFrom('import_suppliers')
      .selectAll()
      .where('code', '=', 'DEMO')
      .executeTakeFirstOrThrow();
    const validated = validateEnergyAccount(PAYLOAD, {
      ...TEST_ACCOUNT_CONTEXT,
      phoneRegion: supplier.phone_region,
    });
    if (!validated.ok) throw new Error('the test payload must be valid');
    const team = await service.db.kysely
      .selectFrom('operations_teams')
      .select('id')
      .where('name', '=', 'Migrations')
      .executeTakeFirstOrThrow();
    const process = await service.db.kysely
      .selectFrom('import_processes')
      .select(['id', 'account_id', 'account_created_at'])
      .where('external_account_number', '=', 'STORE-1')
      .executeTakeFirstOrThrow();

    const stored = await readAccount(service.db, number);
    expect(stored).toEqual({
      id: process.account_id,
      number,
      supplierId: supplier.id,
      externalAccountNumber: 'STORE-1',
      processId: process.id,
      teamId: team.id,
      createdAt: process.account_created_at,
      payload: validated.value,
    });
    // Normalisation changed the payload (phone numbers, datetimes, document paths, defaults),
    // and the store kept the normalised one.
    expect(validated.value).not.toEqual(PAYLOAD);
    expect(stored?.payload.notes?.[0]?.created_at).toBe('2024-02-01T16:30:00Z');
    expect(await readAccount(service.db, process.account_id as number)).toEqual(stored);
    expect(await readAccount(service.db, 'A-NOTHERE')).toBeUndefined();
  });

  it("writes the keys, documents and e-mails of the account under it, in the kept account's order", async () => {
    // References of its own: a reference belongs to one account.
    const number = await createDemoAccount(service, {
      ...PAYLOAD,
      external_account_number: 'STORE-2',
      references: [
        { namespace: 'legacy-crm', value: 'CRM-43' },
        { namespace: 'allpay-client-reference-number', value: 'B-8' },
      ],
    });
    const { id } = (await readAccount(service.db, number)) ?? { id: 0 };
    const keys = await childRows('account_keys', id);
    expect(keys.map(({ kind, value }) => ({ kind, value }))).toEqual([
      { kind: 'meter_point', value: buildMeterPoint().identifier },
      { kind: 'meter_point', value: mpanWithCheckDigit('200012345678') },
      { kind: 'meter_point', value: '7654321' },
      { kind: 'statement', value: 'S-1' },
      { kind: 'statement', value: 'S-2' },
      { kind: 'reference:legacy-crm', value: 'CRM-43' },
      { kind: 'reference:allpay-client-reference-number', value: 'B-8' },
    ]);
    // What the account holds alone across the platform.
    const claims = await service.db.kysely
      .selectFrom('account_claims')
      .select(['kind', 'namespace', 'value'])
      .where('account_id', '=', id)
      .orderBy('id')
      .execute();
    expect(claims).toEqual([
      { kind: 'reference', namespace: 'legacy-crm', value: 'CRM-43' },
      { kind: 'reference', namespace: 'allpay-client-reference-number', value: 'B-8' },
    ]);
    const documents = await childRows('account_documents', id);
    expect(documents.map(({ source, path, location }) => ({ source, path, location }))).toEqual([
      {
        source: 'notes.1.document_paths.0.document_path',
        path: '/notes/2024/letter-1.pdf',
        location: 'account-documents/root/notes/2024/letter-1.pdf',
      },
      {
        source: 'statements.0.statement_path',
        path: '/statements/2024/S-1.pdf',
        location: 'account-documents/root/statements/2024/S-1.pdf',
      },
      {
        source: 'statements.1.statement_path',
        path: '/statements/2024/S-2.pdf',
        location: 'account-documents/root/statements/2024/S-2.pdf',
      },
    ]);
    const emails = await childRows('email_outbox', id);
    expect(
      emails.map(({ customer_position, email, template, status }) => ({
        customer_position,
        email,
        template,
        status,
      })),
    ).toEqual([
      {
        customer_position: 0,
        email: 'ada@lovelace.co.uk',
        template: 'account_migrated',
        status: 'queued',
      },
      {
        customer_position: 2,
        email: 'grace@hopper.co.uk',
        template: 'account_migrated',
        status: 'queued',
      },
    ]);
  });

  it('writes more rows of a table than one statement can bind (9,000 documents), whole or not at all', async () => {
    const payload = buildAccount({
      external_account_number: 'STORE-LARGE',
      statements: undefined,
      // 90 notes of 100 documents each.
      notes: Array.from({ length: 90 }, (_, n) => ({
        document_paths: Array.from({ length: 100 }, (_, d) => ({
          document_path: `/notes/${n}/${d}.pdf`,
        })),
      })),
    });
    const staged = await service.request({ method: 'POST', url: PATHS.stage, payload });
    expect(staged.statusCode).toBe(201);
    const before = await rowCounts(service.db);
    const dryRun = await processDemoAccount(service, 'STORE-LARGE', { dry_run: true });
    expect(dryRun.statusCode).toBe(400);
    expect(dryRun.json().code).toBe('dry_run_rolled_back');
    expect(await rowCounts(service.db)).toEqual(before);

    const response = await processDemoAccount(service, 'STORE-LARGE');
    expect(response.statusCode).toBe(201);
    const stored = await readAccount(service.db, response.json().service_account_number);
    const documents = await childRows('account_documents', stored?.id ?? 0);
    expect(documents).toHaveLength(9_000);
    expect(documents.at(-1)).toMatchObject({
      source: 'notes.89.document_paths.99.document_path',
      path: '/notes/89/99.pdf',
    });
  });
});
