/**
 * Migration 0007's two mappings between an account's document and the normalised rows it was
 * kept in before: rows to document (up) and document to rows (down). Frozen with the migration,
 * as the schema it maps from and to is.
 *
 * The rows did not keep everything the document does, so a document rebuilt from them differs
 * from the account's payload where the rows could not tell: a section stored as an empty list
 * is left out of the document (the rows kept an absent list and an empty one alike), and a
 * supply address's lines are numbered from 1 in the order kept (the rows kept the lines given,
 * without their numbers).
 */
type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

const parse = (text: unknown): Json => JSON.parse(String(text)) as Json;

/** The fields whose value is not null (a null column was an absent field). */
function present(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

/** The lists that are not empty (an empty list was kept for an absent one). */
function nonEmpty(lists: Json): Json {
  return Object.fromEntries(
    Object.entries(lists).filter(([, value]) => Array.isArray(value) && value.length > 0),
  );
}

const LEGACY_BILLING = /^billing_(address[1-5]|postcode)$/;

/** The billing address column held the structured address, or the legacy fields given. */
function billingFields(stored: unknown): Json {
  const address = parse(stored);
  const legacy = Object.keys(address).every((key) => LEGACY_BILLING.test(key));
  return legacy ? address : { billing_address: address };
}

export interface KeptAccount {
  account: Row & { supplier_code: string };
  customers: Row[];
  addresses: Row[];
  points: Row[];
  meters: Row[];
  agreements: Row[];
}

/** The account's document, from its rows (each list in id order). */
export function documentOf(kept: KeptAccount): Json {
  const { account: a } = kept;
  const ofPoint = (rows: Row[], point: Row) => rows.filter((r) => r.meter_point_id === point.id);
  const point = (p: Row) => ({
    ...present({
      supply_type: p.supply_type,
      identifier: p.identifier,
      supply_start_date: p.supply_start_date,
      mpid: p.mpid,
    }),
    ...nonEmpty({
      agreements: ofPoint(kept.agreements, p).map((g) =>
        present({
          tariff_code: g.tariff_code,
          effective_from: g.effective_from,
          effective_to: g.effective_to,
        }),
      ),
      meters: ofPoint(kept.meters, p).map((m) => ({
        ...present({ meter_serial_number: m.serial_number, installed_on: m.installed_on }),
        ...nonEmpty(parse(m.details)),
      })),
    }),
  });
  const address = (s: Row) => ({
    ...Object.fromEntries(
      (JSON.parse(String(s.lines)) as string[]).map((line, i) => [`supply_address${i + 1}`, line]),
    ),
    ...present({
      supply_postcode: s.postcode,
      customer_at_supply_address_from_date: s.from_date,
      customer_at_supply_address_to_date: s.to_date,
    }),
    is_landlord: Number(s.is_landlord) === 1,
    meter_points: kept.points.filter((p) => p.supply_address_id === s.id).map(point),
  });
  const customer = (c: Row) => ({
    ...present({
      given_name: c.given_name,
      family_name: c.family_name,
      title: c.title,
      salutation: c.salutation,
      email: c.email,
      mobile: c.mobile,
      landline: c.landline,
      date_of_birth: c.date_of_birth,
    }),
    is_primary: Number(c.is_primary) === 1,
    ...nonEmpty(parse(c.details)),
  });
  return {
    import_supplier: a.supplier_code,
    ...present({
      external_account_number: a.external_account_number,
      account_type: a.account_type,
      business_type: a.business_type,
      company_number: a.company_number,
      date_of_sale: a.date_of_sale,
      communication_preference: a.communication_preference,
      document_accessibility: a.document_accessibility,
      language_preference: a.language_preference,
      billing_name: a.billing_name,
      billing_email: a.billing_email,
      transfer_balance: a.transfer_balance,
      last_billed_to_date: a.last_billed_to_date,
    }),
    unknown_occupier: Number(a.unknown_occupier) === 1,
    ...billingFields(a.billing_address),
    customers: kept.customers.map(customer),
    ...nonEmpty({ supply_addresses: kept.addresses.map(address) }),
    ...nonEmpty(parse(a.details)),
  };
}

const json = (value: unknown): string => JSON.stringify(value ?? null);
const orNull = (value: unknown): unknown => value ?? null;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

const ACCOUNT_SECTIONS = [
  'payment_instructions',
  'statements',
  'notes',
  'consents',
  'references',
  'metadata',
];
const LEGACY_FIELDS = [1, 2, 3, 4, 5].map((n) => `billing_address${n}`).concat('billing_postcode');

/** The account's own columns, from its document (the values accounts kept before 0007). */
export function accountColumnsOf(d: Json): Row {
  return {
    account_type: d.account_type,
    business_type: orNull(d.business_type),
    company_number: orNull(d.company_number),
    billing_name: orNull(d.billing_name),
    billing_email: orNull(d.billing_email),
    billing_address: json(
      d.billing_address ?? Object.fromEntries(LEGACY_FIELDS.map((field) => [field, d[field]])),
    ),
    communication_preference: d.communication_preference,
    language_preference: d.language_preference,
    document_accessibility: orNull(d.document_accessibility),
    transfer_balance: orNull(d.transfer_balance),
    last_billed_to_date: orNull(d.last_billed_to_date),
    date_of_sale: orNull(d.date_of_sale),
    unknown_occupier: d.unknown_occupier === true ? 1 : 0,
    details: json(Object.fromEntries(ACCOUNT_SECTIONS.map((name) => [name, list(d[name])]))),
  };
}

export const customerRows = (d: Json): Row[] =>
  list(d.customers).map((c, position) => ({
    position,
    given_name: c.given_name,
    family_name: c.family_name,
    title: orNull(c.title),
    salutation: orNull(c.salutation),
    email: orNull(c.email),
    mobile: orNull(c.mobile),
    landline: orNull(c.landline),
    date_of_birth: orNull(c.date_of_birth),
    is_primary: c.is_primary === true ? 1 : 0,
    details: json({ consents: list(c.consents), psr: list(c.psr) }),
  }));

export const addressRows = (d: Json): Row[] =>
  list(d.supply_addresses).map((a, position) => ({
    position,
    lines: json([1, 2, 3, 4, 5].map((n) => a[`supply_address${n}`]).filter((l) => l !== undefined)),
    postcode: a.supply_postcode,
    from_date: a.customer_at_supply_address_from_date,
    to_date: orNull(a.customer_at_supply_address_to_date),
    is_landlord: a.is_landlord === true ? 1 : 0,
  }));

/** The meter points of each supply address (by position), with their meters and agreements. */
export const pointsOf = (d: Json): { position: number; point: Json }[] =>
  list(d.supply_addresses).flatMap((a, position) =>
    list(a.meter_points).map((point) => ({ position, point })),
  );

export const pointRow = (p: Json): Row => ({
  supply_type: p.supply_type,
  identifier: p.identifier,
  supply_start_date: p.supply_start_date,
  mpid: orNull(p.mpid),
});

export const meterRows = (p: Json): Row[] =>
  list(p.meters).map((m) => ({
    serial_number: m.meter_serial_number,
    installed_on: orNull(m.installed_on),
    details: json({ registers: list(m.registers), transfer_readings: list(m.transfer_readings) }),
  }));

export const agreementRows = (p: Json): Row[] =>
  list(p.agreements).map((g) => ({
    tariff_code: g.tariff_code,
    effective_from: g.effective_from,
    effective_to: orNull(g.effective_to),
  }));

/** The keys account_keys holds for the document (as src/accounts/account-keys.ts had them). */
export const keyRows = (d: Json): { kind: string; value: unknown }[] => [
  ...pointsOf(d).map(({ point }) => ({ kind: 'meter_point', value: point.identifier })),
  ...list(d.statements).map((s) => ({ kind: 'statement', value: s.statement_id })),
  ...list(d.references).map((r) => ({ kind: `reference:${String(r.namespace)}`, value: r.value })),
];
