/**
 * The account payloads the request scenarios send: one typical account (2 customers, 2 supply
 * addresses with meter points, 3 statements, 2 notes), and the published full example for the
 * `-full` scenarios. Each is serialised once. Only the external account number changes per
 * request, spliced into the pre-serialised text so the load generator spends no time on JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const NUMBER_MARK = '__EXTERNAL_ACCOUNT_NUMBER__';

function customer(given: string, family: string, mobile: string, primary: boolean) {
  return {
    title: primary ? 'Ms' : 'Mr',
    given_name: given,
    family_name: family,
    email: `${given.toLowerCase()}@${family.toLowerCase()}.co.uk`,
    mobile,
    date_of_birth: primary ? '1985-12-10' : '1981-12-26',
    consents: [{ type: 'MARKETING_EMAIL', value: 'ACCEPTED', signed_at: '2023-03-01T10:00:00Z' }],
  };
}

/** An electricity meter point billed to the account's last billed to date (2024-03-28). */
function electricity(identifier: string, serial: string) {
  return {
    supply_type: 'ELECTRICITY',
    identifier,
    supply_start_date: '2021-04-01',
    mpid: 'LOND',
    agreements: [{ tariff_code: 'E-1R-VAR-22-11-01-C', effective_from: '2022-11-01' }],
    eac_history: [{ effective_from: '2024-01-01', tpr: '00001', consumption: '2900' }],
    meters: [
      {
        meter_serial_number: serial,
        installed_on: '2019-06-01',
        registers: [{ register_id: '1', tpr: '00001', number_of_digits: 5 }],
        transfer_readings: [
          {
            register_id: '1',
            reading_date: '2024-03-28',
            reading_value: '12345.6',
            reading_type: 'CUSTOMER',
          },
        ],
      },
    ],
  };
}

/** A gas meter point billed to the account's last billed to date (2024-03-28). */
function gas(identifier: string, serial: string) {
  return {
    supply_type: 'GAS',
    identifier,
    supply_start_date: '2021-04-01',
    mpid: 'BGT',
    shipper_mpid: 'TCL',
    agreements: [{ tariff_code: 'G-1R-VAR-22-11-01-C', effective_from: '2022-11-01' }],
    aq_history: [{ effective_from: '2024-01-01', consumption: '11000' }],
    meters: [
      {
        meter_serial_number: serial,
        installed_on: '2018-02-14',
        gas_number_of_digits: 5,
        transfer_readings: [
          { reading_date: '2024-03-28', reading_value: '4321', reading_type: 'CUSTOMER' },
        ],
      },
    ],
  };
}

function statement(n: number) {
  const month = String(n).padStart(2, '0');
  return {
    statement_id: `S-${n}`,
    bill_period_from_date: `2024-${month}-01`,
    bill_period_to_date: `2024-${month}-28`,
    issued_date: `2024-${month}-28`,
    gross_amount: 8450 + n,
    statement_path: `/statements/2024/S-${n}.pdf`,
  };
}

/**
 * `BENCH_ACCOUNT=big` triples the account's records (6 customers, 4 supply addresses, 9
 * statements, 6 notes…), about 7 kB: the size of a whole account of the published schema, to
 * measure how storage costs grow with the account.
 */
const BIG = process.env.BENCH_ACCOUNT === 'big';

/** `records` and two copies of them, `renumber` making each copy's keys unique. */
function tripled<T>(records: T[], renumber: (record: T, copy: number) => T): T[] {
  const copies = [...records, ...records].map((record, i) => renumber(record, i));
  return [...records, ...copies];
}

function gasAddress(n: number) {
  return {
    supply_address1: `${n} Gas Street`,
    supply_postcode: 'SW1A 2AA',
    customer_at_supply_address_from_date: '2020-01-01',
    meter_points: [gas(`32408655${10 + n}`, `G4A0020${n}`)],
  };
}

/** The account as an object, for `supplier`, with the number placeholder. */
export function benchAccount(supplier: string, externalAccountNumber = NUMBER_MARK) {
  return BIG
    ? bigAccount(benchAccountOf(supplier, externalAccountNumber))
    : benchAccountOf(supplier, externalAccountNumber);
}

function bigAccount(account: ReturnType<typeof benchAccountOf>) {
  return {
    ...account,
    customers: tripled(account.customers, (c, i) => ({
      ...c,
      given_name: `${c.given_name}${i}`,
    })),
    supply_addresses: [...account.supply_addresses, gasAddress(1), gasAddress(2)],
    payment_instructions: tripled(account.payment_instructions, (p, i) => ({
      ...p,
      reference: `MD-100${i}`,
    })),
    statements: tripled(account.statements, (_, i) => statement(4 + i)),
    notes: tripled(account.notes, (n) => n),
    references: tripled(account.references, (r, i) => ({ ...r, value: `${r.value}-${i}` })),
    metadata: tripled(account.metadata, (m, i) => ({ ...m, key: `source-${i}` })),
  };
}

function benchAccountOf(supplier: string, externalAccountNumber: string) {
  return {
    import_supplier: supplier,
    external_account_number: externalAccountNumber,
    account_type: 'DOMESTIC',
    communication_preference: 'ONLINE',
    language_preference: 'en-gb',
    billing_name: 'Ada Lovelace',
    billing_email: 'billing@lovelace.co.uk',
    billing_address: {
      country: 'GB',
      street_address: 'Flat 2\n12 Acacia Avenue',
      locality: 'London',
      postal_code: 'EC1A 1BB',
    },
    transfer_balance: '-12.34',
    last_billed_to_date: '2024-03-28',
    customers: [
      customer('Ada', 'Lovelace', '07400 123456', true),
      customer('Charles', 'Babbage', '07400 123457', false),
    ],
    supply_addresses: [
      {
        supply_address1: '10 Downing Street',
        supply_address2: 'Westminster',
        supply_address3: 'London',
        supply_postcode: 'SW1A 2AA',
        customer_at_supply_address_from_date: '2020-01-01',
        meter_points: [electricity('1200023305967', 'S12A345678'), gas('3240865509', 'G4A00123')],
      },
      {
        supply_address1: '221B Baker Street',
        supply_address2: 'Marylebone',
        supply_postcode: 'NW1 6XE',
        customer_at_supply_address_from_date: '2022-05-01',
        meter_points: [electricity('2000123456780', 'S12A345679')],
      },
    ],
    payment_instructions: [{ type: 'DIRECT_DEBIT', vendor: 'STRIPE', reference: 'MD-0001' }],
    statements: [statement(1), statement(2), statement(3)],
    notes: [
      {
        body: 'Customer prefers calls after 5pm.',
        created_at: '2024-02-01T17:30:00Z',
        is_pinned: true,
      },
      { document_paths: [{ document_path: '/notes/2024/letter-1.pdf' }] },
    ],
    // A reference belongs to one account of a supplier.
    references: [{ namespace: 'legacy-crm', value: `CRM-${externalAccountNumber}` }],
    metadata: [{ key: 'source', value: { system: 'legacy', batch: 7 } }],
  };
}

/** Builds the JSON body of the account numbered `externalAccountNumber`, without re-serialising. */
export type BodyFor = (externalAccountNumber: string) => string;

/** The body template of `account`, whose external account number is the placeholder. */
function bodyTemplate(account: object): BodyFor {
  const parts = JSON.stringify(account).split(NUMBER_MARK);
  return (externalAccountNumber) => parts.join(externalAccountNumber);
}

/** The typical account's body (the big one with `BENCH_ACCOUNT=big`). */
export function accountBodyTemplate(supplier: string): BodyFor {
  return bodyTemplate(benchAccount(supplier));
}

const DAY_MS = 86_400_000;

/**
 * The v2 schedule of the typical account (team Migrations): its body wraps the account,
 * `{"payload": …, "task_params": {…}}`. The window opens a day from now, so that the service's
 * worker pool creates none of them while scheduling is measured: the scenario compares the
 * scheduling request with a stage, and creation has a benchmark of its own (bench:schedules).
 */
export function scheduleBodyTemplate(supplier: string): BodyFor {
  const account = { ...benchAccount(supplier), operations_team_name: 'Migrations' };
  const start = Date.now() + DAY_MS;
  const task_params = {
    schedule_window_start: new Date(start).toISOString(),
    schedule_window_end: new Date(start + DAY_MS).toISOString(),
  };
  return bodyTemplate({ payload: account, task_params });
}

/**
 * The published examples: `ACCOUNT_REFERENCE_DIR`, or `../shared/reference` beside the
 * repository. npm runs the scripts from the repository root (node_modules may be a link to
 * another tree's), so the working directory is the root.
 */
export const FULL_ACCOUNT_FILE = join(
  process.env.ACCOUNT_REFERENCE_DIR ?? join(process.cwd(), '..', 'shared', 'reference'),
  'examples',
  'full-account.json',
);

/** The file's text, read at most once; null when it is absent. */
let fullAccountText: string | null | undefined;

function readFullAccount(): string | null {
  if (fullAccountText === undefined) {
    try {
      fullAccountText = readFileSync(FULL_ACCOUNT_FILE, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      fullAccountText = null;
    }
  }
  return fullAccountText;
}

/** A year after today (UTC): the published dunning path starts in the past, which is refused. */
function dunningStart(): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The published full account (about 6 kB as compact JSON) as `supplier` sends it: its supplier
 * and number set, its dunning path starting in the future. Undefined when the reference is
 * absent.
 */
export function publishedFullAccount(
  supplier: string,
  externalAccountNumber = NUMBER_MARK,
): Record<string, unknown> | undefined {
  const text = readFullAccount();
  if (text === null) return undefined;
  const account = JSON.parse(text) as Record<string, unknown>;
  account.import_supplier = supplier;
  account.external_account_number = externalAccountNumber;
  // Its reference made the account's own: a reference belongs to one account.
  account.references = (account.references as { namespace: string }[]).map((r) => ({
    ...r,
    value: externalAccountNumber,
  }));
  account.dunning_path = { ...(account.dunning_path as object), start_date: dunningStart() };
  return account;
}

/** The published full account's body; undefined when the reference is absent. */
export function fullAccountBodyTemplate(supplier: string): BodyFor | undefined {
  const account = publishedFullAccount(supplier);
  return account && bodyTemplate(account);
}
