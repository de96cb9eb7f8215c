/** Writes a whole account (customers, addresses, meter points, documents, e-mails) in a transaction. */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { compiledInsert, compiledQuery } from '../db/compiled.js';
import type { Database, ImportSupplier } from '../db/database.js';
import type { AccountPayload } from '../payload/account.js';
import { collectDocuments, resolveDocumentLocation } from './documents.js';

export const MIGRATION_EMAIL_TEMPLATE = 'account_migrated';

/** `A-` and 8 random upper-case hex characters; uniqueness is enforced by the accounts table. */
export function newAccountNumber(): string {
  return `A-${randomBytes(4).toString('hex').toUpperCase()}`;
}

export interface NewAccount {
  number: string;
  supplier: ImportSupplier;
  teamId: number;
  processId: number;
  payload: AccountPayload;
  documentBucket: string;
  now: number;
}

const json = (value: unknown): string => JSON.stringify(value ?? null);

// The graph's statements, compiled once (per dialect and row count) instead of on every account.
const accountInsert = compiledInsert(
  'accounts',
  [
    'number',
    'supplier_id',
    'external_account_number',
    'import_process_id',
    'operations_team_id',
    'account_type',
    'business_type',
    'company_number',
    'billing_name',
    'billing_email',
    'billing_address',
    'communication_preference',
    'language_preference',
    'document_accessibility',
    'transfer_balance',
    'last_billed_to_date',
    'date_of_sale',
    'unknown_occupier',
    'details',
    'created_at',
  ],
  ['id'],
);
const customerInsert = compiledInsert('customers', [
  'account_id',
  'position',
  'given_name',
  'family_name',
  'title',
  'salutation',
  'email',
  'mobile',
  'landline',
  'date_of_birth',
  'is_primary',
  'details',
]);
const documentInsert = compiledInsert('account_documents', [
  'account_id',
  'source',
  'path',
  'location',
]);
const supplyAddressInsert = compiledInsert('supply_addresses', [
  'account_id',
  'position',
  'lines',
  'postcode',
  'from_date',
  'to_date',
  'is_landlord',
]);
const meterPointInsert = compiledInsert('meter_points', [
  'account_id',
  'supply_address_id',
  'supply_type',
  'identifier',
  'supply_start_date',
  'mpid',
]);
const meterInsert = compiledInsert('meters', [
  'meter_point_id',
  'serial_number',
  'installed_on',
  'details',
]);
const agreementInsert = compiledInsert('agreements', [
  'meter_point_id',
  'tariff_code',
  'effective_from',
  'effective_to',
]);
const addressIdsOf = compiledQuery(1, (db, accountId: number) =>
  db.selectFrom('supply_addresses').select(['id', 'position']).where('account_id', '=', accountId),
);
const meterPointIdsOf = compiledQuery(1, (db, accountId: number) =>
  db.selectFrom('meter_points').select(['id', 'identifier']).where('account_id', '=', accountId),
);

function billingAddress(p: AccountPayload): unknown {
  if (p.billing_address) return p.billing_address;
  return {
    billing_address1: p.billing_address1,
    billing_address2: p.billing_address2,
    billing_address3: p.billing_address3,
    billing_address4: p.billing_address4,
    billing_address5: p.billing_address5,
    billing_postcode: p.billing_postcode,
  };
}

/** Inserts the account graph; must run inside the caller's atomic write. Returns the account id. */
export async function insertAccount(trx: Kysely<Database>, account: NewAccount): Promise<number> {
  const p = account.payload;
  const inserted = await accountInsert(trx, [
    {
      number: account.number,
      supplier_id: account.supplier.id,
      external_account_number: p.external_account_number,
      import_process_id: account.processId,
      operations_team_id: account.teamId,
      account_type: p.account_type,
      business_type: p.business_type ?? null,
      company_number: p.company_number ?? null,
      billing_name: p.billing_name ?? null,
      billing_email: p.billing_email ?? null,
      billing_address: json(billingAddress(p)),
      communication_preference: p.communication_preference,
      language_preference: p.language_preference,
      document_accessibility: p.document_accessibility ?? null,
      transfer_balance: p.transfer_balance ?? null,
      last_billed_to_date: p.last_billed_to_date ?? null,
      date_of_sale: p.date_of_sale ?? null,
      unknown_occupier: p.unknown_occupier ? 1 : 0,
      details: json({
        payment_instructions: p.payment_instructions ?? [],
        statements: p.statements ?? [],
        notes: p.notes ?? [],
        consents: p.consents ?? [],
        references: p.references ?? [],
        metadata: p.metadata ?? [],
      }),
      created_at: account.now,
    },
  ]);
  const accountId = Number(inserted.rows[0]?.id);

  if (p.customers.length > 0) {
    await customerInsert(
      trx,
      p.customers.map((c, position) => ({
        account_id: accountId,
        position,
        given_name: c.given_name,
        family_name: c.family_name,
        title: c.title ?? null,
        salutation: c.salutation ?? null,
        email: c.email ?? null,
        mobile: c.mobile ?? null,
        landline: c.landline ?? null,
        date_of_birth: c.date_of_birth ?? null,
        is_primary: c.is_primary ? 1 : 0,
        details: json({ consents: c.consents ?? [], psr: c.psr ?? [] }),
      })),
    );
    if (account.supplier.customer_emails === 1 && p.customers.some((c) => c.email)) {
      await queueMigrationEmails(trx, accountId, account.now);
    }
  }
  await insertSupplyAddresses(trx, accountId, p.supply_addresses ?? []);

  const documents = collectDocuments(p);
  if (documents.length > 0) {
    await documentInsert(
      trx,
      documents.map((d) => ({
        account_id: accountId,
        source: d.source,
        path: d.path,
        location: resolveDocumentLocation(
          account.documentBucket,
          account.supplier.document_root,
          d.path,
        ),
      })),
    );
  }
  return accountId;
}

/** One migration e-mail per customer with an e-mail address, in the creating write. */
async function queueMigrationEmails(
  trx: Kysely<Database>,
  accountId: number,
  now: number,
): Promise<void> {
  await emailsQueued(trx, accountId, now);
}

const emailsQueued = compiledQuery(2, (db, accountId: number, now: number) =>
  db
    .insertInto('email_outbox')
    .columns(['account_id', 'customer_id', 'email', 'template', 'status', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('customers')
        .select((inner) => [
          'account_id',
          'id',
          'email',
          inner.val(MIGRATION_EMAIL_TEMPLATE).as('template'),
          inner.val('queued').as('status'),
          inner.val(now).as('created_at'),
        ])
        .where('account_id', '=', accountId)
        .where('email', 'is not', null)
        .orderBy('position'),
    ),
);

type SupplyAddress = NonNullable<AccountPayload['supply_addresses']>[number];

/**
 * Set-based: one statement per table, and the generated ids read back by natural keys
 * (address position; meter point identifiers are unique within an account), so the statement
 * count does not grow with the number of addresses and meter points.
 */
async function insertSupplyAddresses(
  trx: Kysely<Database>,
  accountId: number,
  addresses: SupplyAddress[],
): Promise<void> {
  if (addresses.length === 0) return;
  await supplyAddressInsert(
    trx,
    addresses.map((a, position) => ({
      account_id: accountId,
      position,
      lines: json(
        [
          a.supply_address1,
          a.supply_address2,
          a.supply_address3,
          a.supply_address4,
          a.supply_address5,
        ].filter((line) => line !== undefined),
      ),
      postcode: a.supply_postcode,
      from_date: a.customer_at_supply_address_from_date,
      to_date: a.customer_at_supply_address_to_date ?? null,
      is_landlord: a.is_landlord ? 1 : 0,
    })),
  );
  const addressIds = (await addressIdsOf(trx, accountId)).rows;
  const addressId = new Map(addressIds.map((row) => [row.position, row.id]));
  const points = addresses.flatMap((a, position) =>
    a.meter_points.map((point) => ({ point, addressId: addressId.get(position) as number })),
  );
  if (points.length === 0) return;
  await meterPointInsert(
    trx,
    points.map(({ point, addressId: supplyAddressId }) => ({
      account_id: accountId,
      supply_address_id: supplyAddressId,
      supply_type: point.supply_type,
      identifier: point.identifier,
      supply_start_date: point.supply_start_date,
      mpid: point.mpid ?? null,
    })),
  );
  const pointIds = (await meterPointIdsOf(trx, accountId)).rows;
  const pointId = new Map(pointIds.map((row) => [row.identifier, row.id]));
  const meters = points.flatMap(({ point }) =>
    (point.meters ?? []).map((m) => ({
      meter_point_id: pointId.get(point.identifier) as number,
      serial_number: m.meter_serial_number,
      installed_on: m.installed_on ?? null,
      details: json({ registers: m.registers ?? [], transfer_readings: m.transfer_readings ?? [] }),
    })),
  );
  if (meters.length > 0) await meterInsert(trx, meters);
  const agreements = points.flatMap(({ point }) =>
    (point.agreements ?? []).map((g) => ({
      meter_point_id: pointId.get(point.identifier) as number,
      tariff_code: g.tariff_code,
      effective_from: g.effective_from,
      effective_to: g.effective_to ?? null,
    })),
  );
  if (agreements.length > 0) await agreementInsert(trx, agreements);
}
