/**
 * POST /v1/data-import/transactions/create/: results per transaction, the ledger balance they
 * move, dry runs, validation and refusals, on both databases.
 */
import { describe, expect, it } from 'vitest';
import { VALID_MPAN, buildSupplyCharge } from '../account/factory.js';
import { HAS_REFERENCE } from '../account/reference.js';
import { rowCounts, updateSupplier, stageDemoAccount, useTestService } from '../helpers/app.js';
import { securityCases } from '../helpers/auth.js';
import { describeEachDialect } from '../helpers/databases.js';
import { eventCount, expectLastEvent, timeline } from '../helpers/events.js';
import { statementsSentBy } from '../helpers/statements.js';
import { buildAccount } from '../account/factory.js';
import {
  balanceOf,
  charge,
  createdAccount,
  credit,
  postTransactions,
  publishedExample,
  statusesOf,
  transactionRows,
  transactionsBody,
  TRANSACTIONS_PATH,
} from './transactions-helpers.js';

type Result = {
  status: string;
  added_transaction_id?: number;
  transaction_data: Record<string, unknown>;
  error?: { code: string; attr: string | null };
};

const resultsOf = (body: string) => (JSON.parse(body) as { results: Result[] }).results;

const ADDED = 'EVENT_ACCOUNT_IMPORT_PROCESS_TRANSACTIONS_ADDED';

await describeEachDialect('transactions/create', (dialect) => {
  const service = useTestService(dialect);

  it.skipIf(!HAS_REFERENCE)('adds the published example to the account it names', async () => {
    const accountId = await createdAccount(service, 'TX-EXAMPLE');
    const body = {
      ...publishedExample(),
      import_supplier: 'DEMO',
      external_account_number: 'TX-EXAMPLE',
    };
    const response = await postTransactions(service, body);
    expect(statusesOf(response)).toEqual(Array(6).fill('TRANSACTION_ADDED_TO_ACCOUNT'));
    const results = resultsOf(response.body);
    // Amounts written as numbers are read as decimal text; `reference` is kept on a charge.
    expect(results[0]?.transaction_data).toMatchObject({
      transaction_id: '1',
      amount: '10',
      reference: 'charge-reference-1',
    });
    const rows = await transactionRows(service, accountId);
    expect(results.map((r) => r.added_transaction_id)).toEqual(rows.map((row) => row.id));
    // Each transaction is kept as answered.
    expect(rows.map((row) => JSON.parse(row.data) as unknown)).toEqual(
      results.map((r) => r.transaction_data),
    );
    // Opening -12.34; charge -10, prepay charge 0, credit +10, payment +10, repayment -10,
    // supply charge -53.24.
    expect(rows.map((row) => row.balance_change)).toEqual([
      '-10.00',
      '0.00',
      '10.00',
      '10.00',
      '-10.00',
      '-53.24',
    ]);
    expect(await balanceOf(service, accountId)).toBe('-65.58');
  });

  it('answers each status, moves the balance and records the added transactions only', async () => {
    const accountId = await createdAccount(service, 'TX-STATUS');
    const first = await postTransactions(
      service,
      transactionsBody('TX-STATUS', [credit('C-1', '5.50')]),
    );
    expect(statusesOf(first)).toEqual(['TRANSACTION_ADDED_TO_ACCOUNT']);
    expect(await balanceOf(service, accountId)).toBe('-6.84');
    await expectLastEvent(service, 'TX-STATUS', ADDED, { transaction_ids: ['C-1'] }, first);

    const strange = buildSupplyCharge({ transaction_id: 'SC-X', supply_point_identifier: '1' });
    const second = await postTransactions(
      service,
      transactionsBody('TX-STATUS', [
        credit('C-1', '5.50'),
        charge('CH-1', '1.16'),
        strange,
        buildSupplyCharge({ transaction_id: 'SC-1', supply_point_identifier: VALID_MPAN }),
      ]),
    );
    expect(statusesOf(second)).toEqual([
      'TRANSACTION_ALREADY_EXISTS',
      'TRANSACTION_ADDED_TO_ACCOUNT',
      'TRANSACTION_IMPORT_ERROR',
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    const results = resultsOf(second.body);
    expect(results[0]).not.toHaveProperty('added_transaction_id');
    expect(results[2]?.error).toMatchObject({
      code: 'supply_point_not_on_account',
      attr: 'supply_point_identifier',
    });
    // -6.84 - 1.16 - 12.00
    expect(await balanceOf(service, accountId)).toBe('-20.00');
    const rows = await transactionRows(service, accountId);
    expect(rows.map((row) => row.transaction_id)).toEqual(['C-1', 'CH-1', 'SC-1']);
    expect(rows.every((row) => row.source === 'added' && row.ledger_code === '')).toBe(true);
    const data = { transaction_ids: ['CH-1', 'SC-1'] };
    await expectLastEvent(service, 'TX-STATUS', ADDED, data, second);
    // The same request again adds nothing, and records nothing.
    const events = await timeline(service, 'TX-STATUS');
    const again = await postTransactions(
      service,
      transactionsBody('TX-STATUS', [charge('CH-1', '1.16')]),
    );
    expect(statusesOf(again)).toEqual(['TRANSACTION_ALREADY_EXISTS']);
    expect(await timeline(service, 'TX-STATUS')).toEqual(events);
  });

  it('reads an amount sent as a JSON number as its decimal text, without an exponent', async () => {
    const accountId = await createdAccount(service, 'TX-NUMBER');
    // String(1e-7) is "1e-7", which the decimal fields refuse; the string "0.0000001" is taken.
    const response = await postTransactions(
      service,
      transactionsBody('TX-NUMBER', [
        credit('NUM-1', '', { amount: 0.0000001 }),
        charge('NUM-2', '', { amount: 2.5e-8 }),
      ]),
    );
    expect(statusesOf(response)).toEqual(Array(2).fill('TRANSACTION_ADDED_TO_ACCOUNT'));
    const amounts = resultsOf(response.body).map((r) => r.transaction_data.amount);
    expect(amounts).toEqual(['0.0000001', '0.000000025']);
    // -12.34 + 0.0000001 - 0.000000025
    expect(await balanceOf(service, accountId)).toBe('-12.339999925');
  });

  it("counts the original payload's transactions as already on the account", async () => {
    const accountId = await createdAccount(service, 'TX-ORIGINAL', {
      current_statement_transactions: [charge('P-1', '12.34', { transaction_date: '2024-04-01' })],
    });
    const response = await postTransactions(
      service,
      transactionsBody('TX-ORIGINAL', [charge('P-1', '12.34'), credit('N-1', '2.34')]),
    );
    expect(statusesOf(response)).toEqual([
      'TRANSACTION_ALREADY_EXISTS',
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    expect(await balanceOf(service, accountId)).toBe('-10.00');
    const rows = await transactionRows(service, accountId);
    expect(rows.map((row) => [row.transaction_id, row.source, row.balance_change])).toEqual([
      ['P-1', 'payload', '0'],
      ['N-1', 'added', '2.34'],
    ]);
  });

  it('reads the two published query flags, which change nothing, and refuses other values', async () => {
    const accountId = await createdAccount(service, 'TX-FLAGS');
    const body = transactionsBody('TX-FLAGS', [credit('F-1', '1.00')]);
    const flagged = `${TRANSACTIONS_PATH}?check_previously_added=false&force_add_to_current_statement=true`;
    expect(statusesOf(await postTransactions(service, body, flagged))).toEqual([
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    // Never added twice, whatever the flag says.
    expect(statusesOf(await postTransactions(service, body, flagged))).toEqual([
      'TRANSACTION_ALREADY_EXISTS',
    ]);
    expect(await balanceOf(service, accountId)).toBe('-11.34');
    for (const query of ['check_previously_added=maybe', 'force_add_to_current_statement=2']) {
      const refused = await postTransactions(
        service,
        transactionsBody('TX-FLAGS', [credit('F-2', '1.00')]),
        `${TRANSACTIONS_PATH}?${query}`,
      );
      expect([refused.statusCode, refused.json().code]).toEqual([400, 'malformed_request']);
    }
    expect((await transactionRows(service, accountId)).map((row) => row.transaction_id)).toEqual([
      'F-1',
    ]);
  });

  it('takes the deprecated account_number, and the path without its trailing slash', async () => {
    const accountId = await createdAccount(service, 'TX-SLASH');
    const body = { import_supplier: 'DEMO', account_number: 'TX-SLASH', transactions: [] };
    expect(statusesOf(await postTransactions(service, body))).toEqual([]);
    const response = await postTransactions(
      service,
      transactionsBody('TX-SLASH', [credit('S-1')]),
      TRANSACTIONS_PATH.slice(0, -1),
    );
    expect(statusesOf(response)).toEqual(['TRANSACTION_ADDED_TO_ACCOUNT']);
    expect(await balanceOf(service, accountId)).toBe('-2.34');
  });

  it('adds many transactions in one request, an earlier one among them', async () => {
    const accountId = await createdAccount(service, 'TX-MANY');
    await postTransactions(service, transactionsBody('TX-MANY', [credit('M-77', '0.01')]));
    const many = Array.from({ length: 131 }, (_, i) => credit(`M-${i}`, '0.01'));
    const response = await postTransactions(service, transactionsBody('TX-MANY', many));
    const statuses = statusesOf(response);
    expect(statuses.filter((s) => s === 'TRANSACTION_ADDED_TO_ACCOUNT')).toHaveLength(130);
    expect(statuses[77]).toBe('TRANSACTION_ALREADY_EXISTS');
    // -12.34 + 131 × 0.01
    expect(await balanceOf(service, accountId)).toBe('-11.03');
    const rows = await transactionRows(service, accountId);
    expect(new Set(rows.map((row) => row.transaction_id)).size).toBe(131);
    const ids = resultsOf(response.body).map((r) => r.added_transaction_id);
    expect(ids.filter((id) => id !== undefined)).toEqual(rows.slice(1).map((row) => row.id));
    const added = many.map((tx) => tx.transaction_id).filter((id) => id !== 'M-77');
    await expectLastEvent(service, 'TX-MANY', ADDED, { transaction_ids: added }, response);
  });

  it('answers the same results on a dry run and keeps nothing, nor records it', async () => {
    const accountId = await createdAccount(service, 'TX-DRY');
    const before = await rowCounts(service.db);
    const events = await timeline(service, 'TX-DRY');
    const body = transactionsBody('TX-DRY', [credit('D-1'), charge('D-2')], { dry_run: true });
    const dry = await postTransactions(service, body);
    expect(statusesOf(dry)).toEqual([
      'TRANSACTION_ADDED_TO_ACCOUNT',
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    expect(resultsOf(dry.body)[0]).not.toHaveProperty('added_transaction_id');
    expect(await rowCounts(service.db)).toEqual(before);
    expect(await balanceOf(service, accountId)).toBeUndefined();
    expect(await timeline(service, 'TX-DRY')).toEqual(events);

    await postTransactions(service, transactionsBody('TX-DRY', [credit('D-1')]));
    const again = await postTransactions(service, body);
    expect(statusesOf(again)).toEqual([
      'TRANSACTION_ALREADY_EXISTS',
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    expect(await balanceOf(service, accountId)).toBe('-2.34');
    expect(await transactionRows(service, accountId)).toHaveLength(1);
    const recorded = (await timeline(service, 'TX-DRY')).filter((e) => e.event === ADDED);
    expect(recorded.map((e) => e.data)).toEqual([{ transaction_ids: ['D-1'] }]);
  });

  // On SQLite the event is one more insert in the process (no round trip); a SQLite write's
  // COMMIT is sent after its answer, so its statements are not counted per request here.
  it.runIf(dialect === 'postgres')(
    'writes its event in the statement that adds the transactions (no round trip)',
    async () => {
      await createdAccount(service, 'TX-COUNT');
      await postTransactions(service, transactionsBody('TX-COUNT', [credit('W-1')]));
      // A dry run sends the same statements, ending with ROLLBACK for COMMIT, and no event.
      const sent = (id: string, extra = {}) =>
        statementsSentBy(() =>
          postTransactions(service, transactionsBody('TX-COUNT', [credit(id)], extra)),
        );
      const dry = await sent('W-2', { dry_run: true });
      expect(await sent('W-3')).toBe(dry);
      const last = (await timeline(service, 'TX-COUNT')).at(-1);
      expect(last).toMatchObject({ event: ADDED, data: { transaction_ids: ['W-3'] } });
    },
  );

  it('is in the OpenAPI document, with the published body and transactions', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    type Doc = { paths: Record<string, { post: Record<string, unknown> }> };
    const operation = (response.json() as Doc).paths[TRANSACTIONS_PATH]?.post;
    expect(operation).toMatchObject({
      operationId: 'createTransactions',
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Transactions' } } },
      },
    });
    const created = JSON.stringify((operation?.responses as Record<string, unknown>)['201']);
    expect(created).toContain('#/components/schemas/EnergyTransaction');
    expect(created).toContain('TRANSACTION_ALREADY_EXISTS');
  });

  describe('refuses, changing nothing', () => {
    async function expectRefused(
      payload: unknown,
      status: number,
      code: string,
      errors?: { attr: string | null; code: string }[],
    ) {
      const before = await rowCounts(service.db);
      const events = await eventCount(service);
      const response = await postTransactions(service, payload);
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json() as { code: string; errors: { attr: string; code: string }[] };
      expect(body.code).toBe(code);
      if (errors) {
        expect(body.errors.map(({ attr, code: c }) => ({ attr, code: c }))).toEqual(errors);
      }
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await eventCount(service)).toBe(events);
    }

    it('a transaction id given twice, with every other error', async () => {
      await createdAccount(service, 'TX-BAD');
      await expectRefused(
        transactionsBody('TX-BAD', [
          credit('B-1'),
          credit('B-1'),
          credit('B-2', '1.2.3'),
          charge('B-3', '1.00', { colour: 'red' }),
        ]),
        400,
        'account_failed_validation',
        [
          { attr: 'transactions.2.amount', code: 'invalid_decimal' },
          { attr: 'transactions.3.colour', code: 'unknown_field' },
          { attr: 'transactions.1.transaction_id', code: 'duplicate_transaction_ids' },
        ],
      );
    });

    it('an amount sent as a number with more digits than a string may have', async () => {
      await createdAccount(service, 'TX-DIGITS');
      await expectRefused(
        transactionsBody('TX-DIGITS', [
          credit('D-1', '', { amount: 1e-11 }),
          credit('D-2', '', { amount: 1e21 }),
          credit('D-3', '0.00000000001'),
        ]),
        400,
        'account_failed_validation',
        [0, 1, 2].map((i) => ({ attr: `transactions.${i}.amount`, code: 'invalid_decimal' })),
      );
    });

    it('a transaction without an id', async () => {
      await createdAccount(service, 'TX-NOID');
      const { transaction_id: _id, ...withoutId } = credit('X');
      await expectRefused(
        transactionsBody('TX-NOID', [withoutId, credit('N-1')]),
        400,
        'account_failed_validation',
        [
          { attr: 'transactions.0.transaction_id', code: 'required' },
          { attr: 'transactions', code: 'missing_transaction_id' },
        ],
      );
    });

    it('a body naming no account, or not an object', async () => {
      await expectRefused({ transactions: [] }, 400, 'account_failed_validation', [
        { attr: 'import_supplier', code: 'required' },
        { attr: 'external_account_number', code: 'required' },
      ]);
      await expectRefused([1], 400, 'malformed_request');
    });

    it('an unknown supplier or one of another organisation', async () => {
      await expectRefused(
        { ...transactionsBody('X-1', [credit('U-1')]), import_supplier: 'NOPE' },
        404,
        'import_supplier_not_found',
      );
      await expectRefused(
        { ...transactionsBody('X-1', [credit('U-1')]), import_supplier: 'OTHER' },
        404,
        'import_supplier_not_found',
      );
    });

    it('a supplier that is not Ongoing', async () => {
      await createdAccount(service, 'TX-PAUSED');
      await updateSupplier(service, 'DEMO', { status: 'Paused' });
      try {
        await expectRefused(
          transactionsBody('TX-PAUSED', [credit('P-1')]),
          400,
          'import_supplier_migration_not_ongoing',
        );
      } finally {
        await updateSupplier(service, 'DEMO', { status: 'Ongoing' });
      }
    });

    it('an account never staged, or staged and not created', async () => {
      await expectRefused(
        transactionsBody('TX-NEVER', [credit('N-1')]),
        404,
        'import_process_does_not_exist',
      );
      await stageDemoAccount(service, buildAccount({ external_account_number: 'TX-STAGED' }));
      await expectRefused(transactionsBody('TX-STAGED', [credit('N-1')]), 404, 'account_not_found');
    });
  });

  describe('security', () => {
    securityCases(
      () => ({
        app: service.app,
        ctx: service.ctx,
        method: 'POST',
        url: TRANSACTIONS_PATH,
        payload: transactionsBody('TX-STATUS', [credit('SEC-1')]),
      }),
      { ungranted: { status: 404, code: 'import_supplier_not_found' }, readsBody: true },
    );
  });
});
