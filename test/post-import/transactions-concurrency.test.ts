/**
 * Concurrent identical transactions requests move the balance once, whether the account is
 * opened by one of them or was opened before; on both databases.
 */
import { expect, it } from 'vitest';
import { useTestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import {
  balanceOf,
  charge,
  createdAccount,
  credit,
  postTransactions,
  statusesOf,
  transactionRows,
  transactionsBody,
} from './transactions-helpers.js';

const REQUESTS = 12;

await describeEachDialect('concurrent transactions requests', (dialect) => {
  const service = useTestService(dialect);

  async function sendAtOnce(external: string, ids: string[]) {
    const body = transactionsBody(external, [
      ...ids.map((id) => credit(id, '1.25')),
      charge(`${ids[0]}-charge`, '0.50'),
    ]);
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, () => postTransactions(service, body)),
    );
    return responses.map(statusesOf);
  }

  /** Each transaction was added by exactly one of the responses. */
  function expectAddedOnce(statuses: string[][], count: number) {
    for (let i = 0; i < count; i++) {
      const added = statuses.filter((s) => s[i] === 'TRANSACTION_ADDED_TO_ACCOUNT');
      const existing = statuses.filter((s) => s[i] === 'TRANSACTION_ALREADY_EXISTS');
      expect(added).toHaveLength(1);
      expect(existing).toHaveLength(REQUESTS - 1);
    }
  }

  it('opens the account once and adds each transaction once', async () => {
    const accountId = await createdAccount(service, 'TX-RACE-OPEN');
    const statuses = await sendAtOnce('TX-RACE-OPEN', ['R-1', 'R-2', 'R-3']);
    expectAddedOnce(statuses, 4);
    // -12.34 + 3 × 1.25 - 0.50
    expect(await balanceOf(service, accountId)).toBe('-9.09');
    expect(await transactionRows(service, accountId)).toHaveLength(4);
  });

  it('adds each transaction once to an account opened before', async () => {
    const accountId = await createdAccount(service, 'TX-RACE');
    await postTransactions(service, transactionsBody('TX-RACE', [credit('FIRST', '2.34')]));
    expect(await balanceOf(service, accountId)).toBe('-10.00');
    const statuses = await sendAtOnce('TX-RACE', ['Q-1', 'Q-2']);
    expectAddedOnce(statuses, 3);
    // -10.00 + 2 × 1.25 - 0.50
    expect(await balanceOf(service, accountId)).toBe('-8.00');
    expect(await transactionRows(service, accountId)).toHaveLength(4);
  });

  it('adds every one of concurrent requests with different transactions', async () => {
    const accountId = await createdAccount(service, 'TX-RACE-MANY');
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        postTransactions(service, transactionsBody('TX-RACE-MANY', [credit(`M-${i}`, '1.01')])),
      ),
    );
    for (const response of responses) {
      expect(statusesOf(response)).toEqual(['TRANSACTION_ADDED_TO_ACCOUNT']);
    }
    // -12.34 + 12 × 1.01: no request's change is lost to another's.
    expect(await balanceOf(service, accountId)).toBe('-0.22');
  });
});
