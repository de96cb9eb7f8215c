/**
 * The money of an account's ledgers: what a transaction moves its ledger's balance by, and the
 * ledgers (with their opening balances) and transactions of a created account's document.
 *
 * Balances read as the account's rules read them (src/account/cross/balances.ts): positive is
 * in credit. Payments and credits add to it; charges, repayments and supply charges take from
 * it; a prepay transaction (one with `to_prepay_meter_serial_number`) is on its meter and moves
 * no ledger. Amounts are exact: decimal strings, summed as integers of ten decimal places.
 */
import { DECIMAL_SCALE, scaled } from '../../account/cross/shared.js';
import { ADDING, CURRENT, HISTORICAL } from '../../account/cross/statement-scopes.js';

/** The account's own ledger: its account-level statements, transactions and transfer balance. */
export const MAIN_LEDGER = '';

type Json = Record<string, unknown>;

/** A decimal string as an integer of ten places. */
export const toScaled = (decimal: string): bigint => scaled(decimal);

/** An integer of ten places as a decimal string with two to ten places (`-12.50`). */
export function fromScaled(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(DECIMAL_SCALE + 1, '0');
  const whole = digits.slice(0, -DECIMAL_SCALE);
  const fraction = digits.slice(-DECIMAL_SCALE).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** What the transaction moves its ledger's balance by, at ten places (see the header). */
export function balanceChangeOf(transaction: Json): bigint {
  if (typeof transaction.amount !== 'string') return 0n;
  if (transaction.to_prepay_meter_serial_number !== undefined) return 0n;
  const amount = scaled(transaction.amount);
  return ADDING.has(String(transaction.type)) ? amount : -amount;
}

/** A ledger of a created account, as it opens. */
export interface OpeningLedger {
  code: string;
  balance: bigint;
}

/** A transaction of a created account's original payload, with the ledger it is on. */
export interface PayloadTransaction {
  ledgerCode: string;
  transaction: Json;
}

/** What an account's document says of its ledgers and transactions. */
export interface AccountMoney {
  ledgers: OpeningLedger[];
  transactions: PayloadTransaction[];
}

const objects = (list: unknown): Json[] =>
  Array.isArray(list)
    ? list.filter((item): item is Json => typeof item === 'object' && item !== null)
    : [];

const decimal = (value: unknown): bigint => (typeof value === 'string' ? scaled(value) : 0n);

const transactionsOf = (scope: Json, ledgerCode: string): PayloadTransaction[] =>
  [...objects(scope[CURRENT]), ...objects(scope[HISTORICAL])].map((transaction) => ({
    ledgerCode,
    transaction,
  }));

/**
 * The ledgers and transactions of a created account's document. Each coded ledger of `ledgers`
 * opens at its `ledger_balance` (0 without one); the account's own ledger at the rest of the
 * `transfer_balance` (0 without one), so that the ledgers add up to the transfer balance. A
 * ledger without a code is part of the account's own ledger. The original transactions are
 * already in these balances.
 */
export function accountMoneyOf(document: Json): AccountMoney {
  const ledgers: OpeningLedger[] = [];
  const transactions = transactionsOf(document, MAIN_LEDGER);
  let coded = 0n;
  for (const ledger of objects(document.ledgers)) {
    const code = typeof ledger.ledger_code === 'string' ? ledger.ledger_code : MAIN_LEDGER;
    transactions.push(...transactionsOf(ledger, code));
    if (code === MAIN_LEDGER || ledgers.some((known) => known.code === code)) continue;
    const balance = decimal(ledger.ledger_balance);
    coded += balance;
    ledgers.push({ code, balance });
  }
  const transfer = document.transfer_balance;
  const main = typeof transfer === 'string' ? scaled(transfer) - coded : 0n;
  return { ledgers: [{ code: MAIN_LEDGER, balance: main }, ...ledgers], transactions };
}
