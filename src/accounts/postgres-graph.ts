/**
 * The account graph on PostgreSQL, written in one statement. Data-modifying CTEs insert the
 * account and every child row. Each table's rows arrive as one array per column (`unnest`), so
 * the SQL text is the same for every account, whatever its number of rows, and is prepared
 * once per connection. A child finds its parent's new id by the natural key the graph gives it
 * (accountGraph). Per-table statements inside a transaction took 13 round trips per account;
 * this takes one.
 *
 * The same statement completes the claimed process. Its UPDATE runs first, and the account is
 * inserted only from the row it returns: a claim taken over in the meantime completes nothing
 * and writes nothing. A statement is atomic on its own, so a creation needs no transaction. The
 * account's id comes from its sequence first, so that the process can point at the account in
 * the same UPDATE.
 */
import { sql, type Kysely } from 'kysely';
import { compiledQuery, type Params } from '../db/compiled.js';
import type { Database } from '../db/database.js';
import { MIGRATION_EMAIL_TEMPLATE, type AccountGraph } from './accounts.repository.js';

/** The statement's parameters, by name. */
type GraphParameters = ReturnType<typeof graphParameters>;

const writeGraph = compiledQuery((db: Kysely<Database>, v: Params<GraphParameters>) => {
  const query = sql<{ id: number }>`with new_account as (
      select nextval('accounts_id_seq') as id
    ), completed as (
      update import_processes set
        state = 'completed',
        claim_id = null,
        lease_until = null,
        account_id = (select id from new_account),
        service_account_number = ${v.number}::text,
        account_created_at = ${v.now}::bigint,
        last_failure_code = null,
        last_failure_detail = null,
        last_failure_at = null
      where ${v.fenced}::boolean and id = ${v.processId}::bigint
        and claim_id = ${v.claimId}::text and state = 'in_progress'
      returning id
    ), account as (
      insert into accounts (id, number, supplier_id, external_account_number, import_process_id,
        operations_team_id, account_type, business_type, company_number, billing_name,
        billing_email, billing_address, communication_preference, language_preference,
        document_accessibility, transfer_balance, last_billed_to_date, date_of_sale,
        unknown_occupier, details, created_at)
      select id, ${v.number}::text, ${v.supplierId}::bigint, ${v.external}::text,
        ${v.processId}::bigint, ${v.teamId}::bigint, ${v.accountType}::text,
        ${v.businessType}::text, ${v.companyNumber}::text, ${v.billingName}::text,
        ${v.billingEmail}::text, ${v.billingAddress}::text, ${v.communicationPreference}::text,
        ${v.languagePreference}::text, ${v.documentAccessibility}::text,
        ${v.transferBalance}::text, ${v.lastBilledToDate}::text, ${v.dateOfSale}::text,
        ${v.unknownOccupier}::integer, ${v.details}::text, ${v.now}::bigint
      from new_account
      where not ${v.fenced}::boolean or exists (select from completed)
      returning id
    ), customer as (
      insert into customers (account_id, position, given_name, family_name, title, salutation,
        email, mobile, landline, date_of_birth, is_primary, details)
      select account.id, c.position, c.given_name, c.family_name, c.title, c.salutation,
        c.email, c.mobile, c.landline, c.date_of_birth, c.is_primary, c.details
      from account, unnest(${v.customerPositions}::integer[], ${v.givenNames}::text[],
          ${v.familyNames}::text[], ${v.titles}::text[], ${v.salutations}::text[],
          ${v.emails}::text[], ${v.mobiles}::text[], ${v.landlines}::text[],
          ${v.datesOfBirth}::text[], ${v.primaries}::integer[], ${v.customerDetails}::text[])
        with ordinality as c(position, given_name, family_name, title, salutation, email,
          mobile, landline, date_of_birth, is_primary, details, ord)
      order by c.ord
      returning id, position, email
    ), email as (
      insert into email_outbox (account_id, customer_id, email, template, status, created_at)
      select account.id, customer.id, customer.email, ${MIGRATION_EMAIL_TEMPLATE}::text,
        'queued', ${v.now}::bigint
      from account, customer
      where ${v.emailCustomers}::boolean and customer.email is not null
      order by customer.position
    ), address as (
      insert into supply_addresses (account_id, position, lines, postcode, from_date, to_date,
        is_landlord)
      select account.id, a.position, a.lines, a.postcode, a.from_date, a.to_date, a.is_landlord
      from account, unnest(${v.addressPositions}::integer[], ${v.addressLines}::text[],
          ${v.postcodes}::text[], ${v.fromDates}::text[], ${v.toDates}::text[],
          ${v.landlords}::integer[])
        with ordinality as a(position, lines, postcode, from_date, to_date, is_landlord, ord)
      order by a.ord
      returning id, position
    ), point as (
      insert into meter_points (account_id, supply_address_id, supply_type, identifier,
        supply_start_date, mpid)
      select account.id, address.id, p.supply_type, p.identifier, p.supply_start_date, p.mpid
      from account, unnest(${v.pointAddressPositions}::integer[], ${v.supplyTypes}::text[],
          ${v.identifiers}::text[], ${v.supplyStartDates}::text[], ${v.mpids}::text[])
        with ordinality as p(address_position, supply_type, identifier, supply_start_date,
          mpid, ord)
        join address on address.position = p.address_position
      order by p.ord
      returning id, identifier
    ), meter as (
      insert into meters (meter_point_id, serial_number, installed_on, details)
      select point.id, m.serial_number, m.installed_on, m.details
      from unnest(${v.meterPoints}::text[], ${v.serialNumbers}::text[],
          ${v.installedOn}::text[], ${v.meterDetails}::text[])
        with ordinality as m(point_identifier, serial_number, installed_on, details, ord)
        join point on point.identifier = m.point_identifier
      order by m.ord
    ), agreement as (
      insert into agreements (meter_point_id, tariff_code, effective_from, effective_to)
      select point.id, g.tariff_code, g.effective_from, g.effective_to
      from unnest(${v.agreementPoints}::text[], ${v.tariffCodes}::text[],
          ${v.effectiveFrom}::text[], ${v.effectiveTo}::text[])
        with ordinality as g(point_identifier, tariff_code, effective_from, effective_to, ord)
        join point on point.identifier = g.point_identifier
      order by g.ord
    ), document as (
      insert into account_documents (account_id, source, path, location)
      select account.id, d.source, d.path, d.location
      from account, unnest(${v.documentSources}::text[], ${v.documentPaths}::text[],
          ${v.documentLocations}::text[])
        with ordinality as d(source, path, location, ord)
      order by d.ord
    )
    select id from account`;
  return { compile: () => query.compile(db) };
});

/** The statement's arguments for the graph: each table's rows as one array per column. */
function graphParameters(graph: AccountGraph, claimId: string | undefined) {
  const { account, customers, addresses, meterPoints, meters, agreements, documents } = graph;
  return {
    fenced: claimId !== undefined,
    processId: account.import_process_id,
    claimId: claimId ?? '',
    number: account.number,
    supplierId: account.supplier_id,
    external: account.external_account_number,
    teamId: account.operations_team_id,
    accountType: account.account_type,
    businessType: account.business_type,
    companyNumber: account.company_number,
    billingName: account.billing_name,
    billingEmail: account.billing_email,
    billingAddress: account.billing_address,
    communicationPreference: account.communication_preference,
    languagePreference: account.language_preference,
    documentAccessibility: account.document_accessibility,
    transferBalance: account.transfer_balance,
    lastBilledToDate: account.last_billed_to_date,
    dateOfSale: account.date_of_sale,
    unknownOccupier: account.unknown_occupier,
    details: account.details,
    now: account.created_at,
    customerPositions: customers.map((c) => c.position),
    givenNames: customers.map((c) => c.given_name),
    familyNames: customers.map((c) => c.family_name),
    titles: customers.map((c) => c.title),
    salutations: customers.map((c) => c.salutation),
    emails: customers.map((c) => c.email),
    mobiles: customers.map((c) => c.mobile),
    landlines: customers.map((c) => c.landline),
    datesOfBirth: customers.map((c) => c.date_of_birth),
    primaries: customers.map((c) => c.is_primary),
    customerDetails: customers.map((c) => c.details),
    emailCustomers: graph.emailCustomers,
    addressPositions: addresses.map((a) => a.position),
    addressLines: addresses.map((a) => a.lines),
    postcodes: addresses.map((a) => a.postcode),
    fromDates: addresses.map((a) => a.from_date),
    toDates: addresses.map((a) => a.to_date),
    landlords: addresses.map((a) => a.is_landlord),
    pointAddressPositions: meterPoints.map((p) => p.address_position),
    supplyTypes: meterPoints.map((p) => p.supply_type),
    identifiers: meterPoints.map((p) => p.identifier),
    supplyStartDates: meterPoints.map((p) => p.supply_start_date),
    mpids: meterPoints.map((p) => p.mpid),
    meterPoints: meters.map((m) => m.point_identifier),
    serialNumbers: meters.map((m) => m.serial_number),
    installedOn: meters.map((m) => m.installed_on),
    meterDetails: meters.map((m) => m.details),
    agreementPoints: agreements.map((g) => g.point_identifier),
    tariffCodes: agreements.map((g) => g.tariff_code),
    effectiveFrom: agreements.map((g) => g.effective_from),
    effectiveTo: agreements.map((g) => g.effective_to),
    documentSources: documents.map((d) => d.source),
    documentPaths: documents.map((d) => d.path),
    documentLocations: documents.map((d) => d.location),
  };
}

/**
 * Writes the graph in one statement and returns the account's id. With `claimId`, the statement
 * also completes the account's process, held by that claim, and writes nothing (returning
 * undefined) when the claim is no longer held. Without it (a dry run), the process is left as it
 * is, and the caller's transaction rolls the account back.
 */
export async function writeAccountGraph(
  db: Kysely<Database>,
  graph: AccountGraph,
  claimId?: string,
): Promise<number | undefined> {
  const { rows } = await writeGraph(db, graphParameters(graph, claimId));
  const id = rows[0]?.id;
  return id === undefined ? undefined : Number(id);
}
