/**
 * Compares the ledger with what the database holds after the faults: nothing acknowledged is
 * lost, no account exists twice, no account is half-written.
 */
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../../src/db/database.js';
import { SUPPLIER } from './fixture.js';
import { markerSeq, type Ledger } from './ledger.js';

export interface Verdict {
  /** Acknowledged stage versions missing from import_process_versions. */
  lostStages: string[];
  /** Accounts whose current staged data is older than their latest acknowledged version. */
  staleData: string[];
  /** Acknowledged accounts missing, or holding another number than the one returned. */
  lostAccounts: string[];
  /** External numbers or account numbers present more than once. */
  duplicates: string[];
  /** Accounts without their completed process (or the reverse), or with missing parts. */
  halfWritten: string[];
  /** Processes still claimed in the database (their lease decides what the API reports). */
  claimed: string[];
  /** Rows whose organisation, supplier or team does not exist. */
  dangling: string[];
  figures: { processes: number; versions: number; accounts: number };
}

interface ProcessRow {
  id: number;
  external_account_number: string;
  state: string;
  /** The payload of its current version; null if that version row is missing. */
  data: string | null;
  account_id: number | null;
  service_account_number: string | null;
}

/** How many keys of `kind` each account has. */
async function countKeys(db: Db, kind: string) {
  const rows = await db.kysely
    .selectFrom('account_keys')
    .select(['account_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('kind', '=', kind)
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.account_id), Number(row.n)]));
}

interface Payload {
  billing_name?: string;
  customers?: unknown[];
  supply_addresses?: { meter_points?: unknown[] }[];
}

/**
 * The references PostgreSQL holds without foreign keys (migration 0004), checked here because
 * only the service's own writes keep them true there.
 */
async function danglingReferences(db: Db): Promise<string[]> {
  const { rows } = await sql<{ what: string }>`
    select 'version ' || v.id || ': organisation ' || v.organisation_id as what
    from import_process_versions v left join organisations o on o.id = v.organisation_id
    where o.id is null
    union all
    select 'process ' || p.id || ': supplier ' || p.supplier_id
    from import_processes p left join import_suppliers s on s.id = p.supplier_id
    where s.id is null
    union all
    select 'account ' || a.id || ': supplier ' || a.supplier_id
    from accounts a left join import_suppliers s on s.id = a.supplier_id
    where s.id is null
    union all
    select 'account ' || a.id || ': team ' || a.operations_team_id
    from accounts a left join operations_teams t on t.id = a.operations_team_id
    where t.id is null`.execute(db.kysely);
  return rows.map((row) => row.what);
}

export async function verifyLedger(db: Db, ledger: Ledger): Promise<Verdict> {
  const supplier = await db.kysely
    .selectFrom('import_suppliers')
    .select('id')
    .where('code', '=', SUPPLIER)
    .executeTakeFirstOrThrow();
  const processes: ProcessRow[] = await db.kysely
    .selectFrom('import_processes as p')
    .leftJoin('import_process_versions as v', (join) =>
      join.onRef('v.process_id', '=', 'p.id').onRef('v.version', '=', 'p.version'),
    )
    .select([
      'p.id',
      'p.external_account_number',
      'p.state',
      'v.data',
      'p.account_id',
      'p.service_account_number',
    ])
    .where('p.supplier_id', '=', supplier.id)
    .execute();
  const versions = await db.kysely
    .selectFrom('import_process_versions')
    .innerJoin('import_processes', 'import_processes.id', 'import_process_versions.process_id')
    .select(['import_process_versions.process_id', 'import_process_versions.data'])
    .where('import_processes.supplier_id', '=', supplier.id)
    .execute();
  const accounts = await db.kysely
    .selectFrom('accounts')
    .select(['id', 'number', 'external_account_number', 'import_process_id', 'document'])
    .where('supplier_id', '=', supplier.id)
    .execute();
  const documentOf = (account: { document: string } | undefined) =>
    JSON.parse(account?.document ?? '{}') as Payload;
  const meterPointKeys = await countKeys(db, 'meter_point');

  const verdict: Verdict = {
    lostStages: [],
    staleData: [],
    lostAccounts: [],
    duplicates: [],
    halfWritten: [],
    claimed: [],
    dangling: await danglingReferences(db),
    figures: { processes: processes.length, versions: versions.length, accounts: accounts.length },
  };

  const processByExternal = new Map(processes.map((p) => [p.external_account_number, p]));
  const seqsByProcess = new Map<number, Set<number>>();
  for (const version of versions) {
    const seq = markerSeq((JSON.parse(version.data) as Payload).billing_name);
    if (seq === undefined) continue;
    const seqs = seqsByProcess.get(Number(version.process_id)) ?? new Set<number>();
    seqs.add(seq);
    seqsByProcess.set(Number(version.process_id), seqs);
  }
  const accountsByExternal = new Map<string, (typeof accounts)[number][]>();
  for (const account of accounts) {
    const list = accountsByExternal.get(account.external_account_number) ?? [];
    list.push(account);
    accountsByExternal.set(account.external_account_number, list);
  }

  // 1. Every acknowledged stage version is kept, and the current data is that one or later.
  for (const [external, seqs] of ledger.stages) {
    const process = processByExternal.get(external);
    if (!process) {
      verdict.lostStages.push(`${external}: no import process at all`);
      continue;
    }
    const kept = seqsByProcess.get(process.id) ?? new Set<number>();
    for (const seq of seqs) if (!kept.has(seq)) verdict.lostStages.push(`${external} #${seq}`);
    const latest = Math.max(...seqs);
    if (process.data === null) {
      verdict.lostStages.push(`${external}: the current version's row is missing`);
      continue;
    }
    const current = markerSeq((JSON.parse(process.data) as Payload).billing_name) ?? 0;
    if (current < latest)
      verdict.staleData.push(`${external}: data #${current}, acknowledged #${latest}`);
    const account = accountsByExternal.get(external)?.[0];
    const created = markerSeq(documentOf(account).billing_name) ?? latest;
    if (created < latest) {
      verdict.staleData.push(`${external}: account made from #${created}, acknowledged #${latest}`);
    }
  }

  // 2. Every account a 201 returned (or a refusal reported) exists with that number.
  for (const [external, number] of [...ledger.accounts, ...ledger.reported]) {
    const found = accountsByExternal.get(external) ?? [];
    const process = processByExternal.get(external);
    if (found.length === 0) verdict.lostAccounts.push(`${external} (${number}): no account`);
    else if (found[0]?.number !== number) {
      verdict.lostAccounts.push(`${external}: ${number} returned, ${found[0]?.number} stored`);
    }
    if (process?.state !== 'completed' || process.service_account_number !== number) {
      verdict.lostAccounts.push(
        `${external}: process ${process?.state} ${process?.service_account_number}`,
      );
    }
  }

  // 3. No account twice: per external number, and per account number.
  for (const [external, list] of accountsByExternal) {
    if (list.length > 1) verdict.duplicates.push(`${external}: ${list.length} accounts`);
  }
  const numbers = new Set<string>();
  for (const account of accounts) {
    if (numbers.has(account.number)) verdict.duplicates.push(`number ${account.number} twice`);
    numbers.add(account.number);
  }

  // 4. Nothing half-written: account ⇔ completed process, and every part of the account.
  const processById = new Map(processes.map((p) => [p.id, p]));
  for (const account of accounts) {
    const process = processById.get(Number(account.import_process_id));
    if (
      process?.state !== 'completed' ||
      Number(process.account_id) !== Number(account.id) ||
      process.service_account_number !== account.number
    ) {
      verdict.halfWritten.push(
        `${account.external_account_number}: account without its completed process`,
      );
    }
    const parts = (payload: Payload) => ({
      customers: payload.customers?.length ?? 0,
      addresses: payload.supply_addresses?.length ?? 0,
      meterPoints: (payload.supply_addresses ?? []).reduce(
        (n, a) => n + (a.meter_points?.length ?? 0),
        0,
      ),
    });
    const expected = parts(JSON.parse(process?.data ?? '{}') as Payload);
    // The document is written with its row; its meter points' keys are rows of their own.
    const actual = {
      ...parts(documentOf(account)),
      meterPoints: meterPointKeys.get(Number(account.id)) ?? 0,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      verdict.halfWritten.push(
        `${account.external_account_number}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
      );
    }
  }
  for (const process of processes) {
    if (process.state === 'completed' && !accountsByExternal.has(process.external_account_number)) {
      verdict.halfWritten.push(`${process.external_account_number}: completed without an account`);
    }
    if (process.state === 'in_progress') verdict.claimed.push(process.external_account_number);
  }
  return verdict;
}

/**
 * Asserts the verdict found nothing lost, stale, duplicated, half-written, still claimed or
 * pointing at a missing row.
 */
export function expectIntact(verdict: Verdict): void {
  expect(verdict.lostStages).toEqual([]);
  expect(verdict.staleData).toEqual([]);
  expect(verdict.lostAccounts).toEqual([]);
  expect(verdict.duplicates).toEqual([]);
  expect(verdict.halfWritten).toEqual([]);
  expect(verdict.claimed).toEqual([]);
  expect(verdict.dangling).toEqual([]);
}
