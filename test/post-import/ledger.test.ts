/** The money of ledgers: balance changes, decimal text, and a created account's opening ledgers. */
import { describe, expect, it } from 'vitest';
import {
  accountMoneyOf,
  balanceChangeOf,
  fromScaled,
  toScaled,
} from '../../src/post-import/transactions/ledger.js';

describe('ledger money', () => {
  it('writes scaled integers as decimals of two to ten places', () => {
    expect(fromScaled(toScaled('-12.5'))).toBe('-12.50');
    expect(fromScaled(toScaled('0'))).toBe('0.00');
    expect(fromScaled(toScaled('9999999999.0000000001'))).toBe('9999999999.0000000001');
    expect(fromScaled(toScaled('-0.001'))).toBe('-0.001');
    expect(fromScaled(toScaled('9999999999.9') * 3n)).toBe('29999999999.70');
  });

  it('credits payments and credits, debits the rest, and leaves prepay vends out', () => {
    const amount = '3.10';
    expect(balanceChangeOf({ type: 'PAYMENT', amount })).toBe(toScaled('3.10'));
    expect(balanceChangeOf({ type: 'CREDIT', amount })).toBe(toScaled('3.10'));
    expect(balanceChangeOf({ type: 'CHARGE', amount })).toBe(toScaled('-3.10'));
    expect(balanceChangeOf({ type: 'REPAYMENT', amount })).toBe(toScaled('-3.10'));
    expect(balanceChangeOf({ type: 'SUPPLY_CHARGE', amount })).toBe(toScaled('-3.10'));
    expect(balanceChangeOf({ type: 'CHARGE', amount, to_prepay_meter_serial_number: 'Z1' })).toBe(
      0n,
    );
  });

  it("opens the coded ledgers at their balances and the account's own at the rest", () => {
    const money = accountMoneyOf({
      transfer_balance: '-20.00',
      current_statement_transactions: [{ transaction_id: 'A' }],
      ledgers: [
        {
          ledger_code: 'L1',
          ledger_balance: '-15.00',
          historical_statement_transactions: [{ transaction_id: 'B' }],
        },
        { ledger_code: 'L2' },
        { ledger_balance: '-5.00', current_statement_transactions: [{ transaction_id: 'C' }] },
      ],
    });
    expect(money.ledgers).toEqual([
      { code: '', balance: toScaled('-5.00') },
      { code: 'L1', balance: toScaled('-15.00') },
      { code: 'L2', balance: 0n },
    ]);
    expect(money.transactions.map((t) => [t.ledgerCode, t.transaction.transaction_id])).toEqual([
      ['', 'A'],
      ['L1', 'B'],
      ['', 'C'],
    ]);
  });

  it('opens an account without a transfer balance at zero', () => {
    expect(accountMoneyOf({}).ledgers).toEqual([{ code: '', balance: 0n }]);
  });
});
