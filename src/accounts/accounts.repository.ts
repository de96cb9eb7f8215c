/**
 * A whole account (customers, addresses, meter points, documents, e-mails): the rows a payload
 * maps onto, and their inserts, one statement per table, inside the caller's atomic write.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { compiledInsert, compiledQuery, type Params } from '../db/compiled.js';
import type { Database, ImportSupplier } from '../db/database.js';
import type { AccountPayload } from '../payload/account.js';
import { collectDocuments, resolveDocumentLocation } from './documents.js';

export const MIGRATION_EMAIL_TEMPLATE = 'account_migrated';

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
  payload: AccountPayload;
  documentBucket: string;
  now: number;
}

const json = (value: unknown): string => JSON.stringify(value ?? null);

// The graph's statements, compiled once (per row count) instead of on every account.
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
const supplyAddressInsert = compiledInsert(
  'supply_addresses',
  ['account_id', 'position', 'lines', 'postcode', 'from_date', 'to_date', 'is_landlord'],
  ['id', 'position'],
);
const meterPointInsert = compiledInsert(
  'meter_points',
  ['account_id', 'supply_address_id', 'supply_type', 'identifier', 'supply_start_date', 'mpid'],
  ['id', 'identifier'],
);
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

/** A row of `table` as the graph writes it: without its id, and without the columns in `Omit`. */
type GraphRow<T extends keyof Database, Omitted extends string = never> = Omit<
  Insertable<Database[T]>,
  'id' | Omitted
>;

/**
 * The rows of one account's graph, before the database gives them ids. A child row names its
 * parent by a natural key: a meter point its supply address's position, a meter or agreement
 * its meter point's identifier (unique within an account).
 */
export interface AccountGraph {
  account: GraphRow<'accounts'>;
  customers: GraphRow<'customers', 'account_id'>[];
  /** Whether every customer with an e-mail address is sent the migration e-mail. */
  emailCustomers: boolean;
  addresses: GraphRow<'supply_addresses', 'account_id'>[];
  meterPoints: (GraphRow<'meter_points', 'account_id' | 'supply_address_id'> & {
    address_position: number;
  })[];
  meters: (GraphRow<'meters', 'meter_point_id'> & { point_identifier: string })[];
  agreements: (GraphRow<'agreements', 'meter_point_id'> & { point_identifier: string })[];
  documents: GraphRow<'account_documents', 'account_id'>[];
}

/** Maps the payload onto the rows of its account graph (both dialects write these rows). */
export function accountGraph(account: NewAccount): AccountGraph {
  const p = account.payload;
  const addresses = p.supply_addresses ?? [];
  const points = addresses.flatMap((a, position) =>
    a.meter_points.map((point) => ({ point, position })),
  );
  return {
    account: {
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
    customers: p.customers.map((c, position) => ({
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
    emailCustomers: account.supplier.customer_emails === 1 && p.customers.some((c) => c.email),
    addresses: addresses.map((a, position) => ({
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
    meterPoints: points.map(({ point, position }) => ({
      address_position: position,
      supply_type: point.supply_type,
      identifier: point.identifier,
      supply_start_date: point.supply_start_date,
      mpid: point.mpid ?? null,
    })),
    meters: points.flatMap(({ point }) =>
      (point.meters ?? []).map((m) => ({
        point_identifier: point.identifier,
        serial_number: m.meter_serial_number,
        installed_on: m.installed_on ?? null,
        details: json({
          registers: m.registers ?? [],
          transfer_readings: m.transfer_readings ?? [],
        }),
      })),
    ),
    agreements: points.flatMap(({ point }) =>
      (point.agreements ?? []).map((g) => ({
        point_identifier: point.identifier,
        tariff_code: g.tariff_code,
        effective_from: g.effective_from,
        effective_to: g.effective_to ?? null,
      })),
    ),
    documents: collectDocuments(p).map((d) => ({
      source: d.source,
      path: d.path,
      location: resolveDocumentLocation(
        account.documentBucket,
        account.supplier.document_root,
        d.path,
      ),
    })),
  };
}

/**
 * Inserts the account graph one statement per table; must run inside the caller's atomic
 * write. Returns the account id. (PostgreSQL writes it in one statement: postgres-graph.ts.)
 */
export async function insertAccount(trx: Kysely<Database>, graph: AccountGraph): Promise<number> {
  const inserted = await accountInsert(trx, [graph.account]);
  const accountId = Number(inserted.rows[0]?.id);
  const children = <Row>(rows: Row[]) => rows.map((row) => ({ ...row, account_id: accountId }));
  if (graph.customers.length > 0) {
    await customerInsert(trx, children(graph.customers));
    if (graph.emailCustomers) await emailsQueued(trx, { accountId, now: graph.account.created_at });
  }
  await insertSupplyAddresses(trx, accountId, graph);
  if (graph.documents.length > 0) await documentInsert(trx, children(graph.documents));
  return accountId;
}

/** One migration e-mail per customer with an e-mail address, in the creating write. */
interface QueuedFor {
  accountId: number;
  now: number;
}

const emailsQueued = compiledQuery((db, { accountId, now }: Params<QueuedFor>) =>
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

/**
 * Set-based: one statement per table, and the generated ids returned with natural keys, so the
 * statement count does not grow with the number of addresses and meter points.
 */
async function insertSupplyAddresses(
  trx: Kysely<Database>,
  accountId: number,
  graph: AccountGraph,
): Promise<void> {
  if (graph.addresses.length === 0) return;
  const addresses = await supplyAddressInsert(
    trx,
    graph.addresses.map((row) => ({ ...row, account_id: accountId })),
  );
  if (graph.meterPoints.length === 0) return;
  const addressId = idsBy(addresses.rows, 'position');
  const points = await meterPointInsert(
    trx,
    graph.meterPoints.map(({ address_position, ...row }) => ({
      ...row,
      account_id: accountId,
      supply_address_id: addressId.get(address_position) as number,
    })),
  );
  const pointId = idsBy(points.rows, 'identifier');
  const ofPoint = <Row extends { point_identifier: string }>(rows: Row[]) =>
    rows.map(({ point_identifier, ...row }) => ({
      ...row,
      meter_point_id: pointId.get(point_identifier) as number,
    }));
  if (graph.meters.length > 0) await meterInsert(trx, ofPoint(graph.meters));
  if (graph.agreements.length > 0) await agreementInsert(trx, ofPoint(graph.agreements));
}

/** The ids an insert returned, by the natural key it returned with them. */
function idsBy(rows: readonly Record<string, unknown>[], key: string): Map<unknown, number> {
  return new Map(rows.map((row) => [row[key], row.id as number]));
}
