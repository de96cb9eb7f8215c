/**
 * The loader's post-import kinds end to end (`--kind transactions`): each record posted to its
 * endpoint, failures reported, a run started again skipping what the journal holds; against a
 * real service on SQLite and on PostgreSQL, and through the built CLI.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runLoad, type LoadSummary } from '../../src/loader/load.js';
import type { Failure } from '../../src/loader/report.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  SUPPLIER,
  TEAM,
  startLoad,
  startLoaderService,
  writeSampleFile,
  type LoaderService,
} from './loader-service.js';

type Json = Record<string, unknown>;

const credit = (id: string, amount: string): Json => ({
  type: 'CREDIT',
  transaction_id: id,
  transaction_date: '2024-05-01',
  amount,
  reason: 'IMPORTED_CREDIT',
});

const failuresIn = (path: string): Failure[] =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Failure);

await describeEachDialect('loader --kind transactions', (dialect) => {
  let service: LoaderService;
  let dir: string;
  let external: string;
  let accountId: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loader-kinds-'));
    service = await startLoaderService(dialect);
    const accounts = join(dir, 'accounts.ndjson');
    const [line] = writeSampleFile(accounts, { count: 1, seed: 21 });
    external = String(line?.payload.external_account_number);
    const loaded = await runLoad({
      file: accounts,
      url: service.url,
      apiKey: service.apiKey,
      team: TEAM,
    });
    expect(loaded.summary.created).toBe(1);
    const row = await service.db.kysely
      .selectFrom('accounts')
      .select('id')
      .where('external_account_number', '=', external)
      .executeTakeFirstOrThrow();
    accountId = Number(row.id);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const body = (account: string, transactions: Json[]) =>
    JSON.stringify({ import_supplier: SUPPLIER, external_account_number: account, transactions });

  const transactionCount = async () =>
    (
      await service.db.kysely
        .selectFrom('account_transactions')
        .select('transaction_id')
        .where('account_id', '=', accountId)
        .where('source', '=', 'added')
        .execute()
    ).length;

  it('posts each record, reports the failed ones, and skips the journal on a second run', async () => {
    const file = join(dir, 'transactions.ndjson');
    const report = join(dir, 'transactions.report.ndjson');
    writeFileSync(
      file,
      [
        body(external, [credit('L-1', '1.00'), credit('L-2', '2.00')]),
        body('NOT-THERE', [credit('L-3', '1.00')]),
        body(external, [credit('L-4', '1.00'), credit('L-4', '1.00')]),
        body(external, [
          credit('L-5', '4.00'),
          {
            type: 'SUPPLY_CHARGE',
            transaction_id: 'L-6',
            transaction_date: '2024-05-01',
            amount: '1.00',
            product_code: 'NOPE',
            supply_point_identifier: 'NOT-A-METER-POINT',
            line_items: [],
          },
        ]),
        '{not json',
      ].join('\n'),
    );
    const base = { file, url: service.url, apiKey: service.apiKey, report };

    const dry = await runLoad({ ...base, kind: 'transactions', dryRun: true });
    expect(dry.summary).toMatchObject({ kind: 'transactions', dry_run_ok: 1, added: 0 });
    expect(await transactionCount()).toBe(0);

    const first = await runLoad({ ...base, kind: 'transactions' });
    expect(first.summary).toMatchObject({
      kind: 'transactions',
      mode: 'create',
      total: 5,
      added: 1,
      failed: 4,
      failed_by_step: { parse: 1, post: 3 },
    });
    const failures = failuresIn(report).sort((a, b) => a.line - b.line);
    expect(failures.map(({ line, step, status }) => ({ line, step, status }))).toEqual([
      { line: 2, step: 'post', status: 404 },
      { line: 3, step: 'post', status: 400 },
      { line: 4, step: 'post', status: 400 },
      { line: 5, step: 'parse', status: null },
    ]);
    expect(failures[0]?.errors[0]?.code).toBe('import_process_does_not_exist');
    expect(failures[1]?.errors.map((e) => [e.attr, e.code])).toEqual([
      ['transactions.1.transaction_id', 'duplicate_transaction_ids'],
    ]);
    expect(failures[2]?.errors.map((e) => e.code)).toContain('product_code_does_not_exist');
    expect(await transactionCount()).toBe(2);
    expect(existsSync(join(dir, 'transactions.transactions.done'))).toBe(true);

    // The record taken is skipped; the others are sent, and fail, again.
    const second = await runLoad({ ...base, kind: 'transactions' });
    expect(second.summary).toMatchObject({ skipped_completed: 1, added: 0, failed: 4 });
    expect(await transactionCount()).toBe(2);
  });

  it('reports the transactions of a record the service could not add, through the CLI', async () => {
    const file = join(dir, 'points.ndjson');
    const report = join(dir, 'points.report.ndjson');
    const meterPoint = await service.db.kysely
      .selectFrom('account_keys')
      .select('value')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'meter_point')
      .executeTakeFirstOrThrow();
    const supplyCharge = (id: string, point: string) => ({
      type: 'SUPPLY_CHARGE',
      transaction_id: id,
      transaction_date: '2024-05-01',
      amount: '0',
      product_code: 'VAR-22-11-01',
      supply_point_identifier: point,
      line_items: [],
    });
    writeFileSync(
      file,
      `${body(external, [supplyCharge('P-1', meterPoint.value), supplyCharge('P-2', 'ELSEWHERE')])}\n`,
    );
    const run = startLoad(service, file, '--kind', 'transactions', '--report', report, '--json');
    const { code, stdout } = await run.done;
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as LoadSummary;
    expect(summary).toMatchObject({ kind: 'transactions', added: 0, failed: 1 });
    expect(failuresIn(report)).toEqual([
      {
        line: 1,
        external_account_number: external,
        step: 'post',
        status: 201,
        errors: [
          {
            code: 'supply_point_not_on_account',
            attr: 'transactions.1.supply_point_identifier',
            detail: expect.any(String) as string,
          },
        ],
      },
    ]);
    // The transaction that could be added was.
    expect(await transactionCount()).toBe(3);
  });
});
