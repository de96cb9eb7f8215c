/**
 * What the statement rules share: the account's statement scopes (its own statement fields and
 * each ledger's) and what they need to know of the supply addresses.
 *
 * A "statement scope" is the account's own statement fields or one ledger's: the same field
 * names, with `transfer_balance` or `ledger_balance` as the balance.
 */
import { isObject, type Parent } from '../../payload/validators.js';
import type { Items } from '../rules.js';
import { holdsData, indexed, itemsOf, scaled, str } from './shared.js';

export const earliest = (dates: Iterable<string>) => {
  let min: string | undefined;
  for (const date of dates) if (min === undefined || date < min) min = date;
  return min;
};

/** What the statement rules need to know of the supply addresses. */
export interface Supply {
  /** Last billed-to dates of the account and its meter points. */
  readonly billedTo: string[];
  /** Those plus the meters' and registers'. */
  readonly billedToAnyLevel: string[];
  readonly prepaySerials: Set<string>;
  readonly meterPointIds: Set<string>;
  meterPoints: number;
  agreements: number;
}

export function supplyOf(account: Parent): Supply {
  const supply: Supply = {
    billedTo: [],
    billedToAnyLevel: [],
    prepaySerials: new Set(),
    meterPointIds: new Set(),
    meterPoints: 0,
    agreements: 0,
  };
  const billed = (item: Parent, anyLevelOnly: boolean) => {
    const date = str(item.last_billed_to_date);
    if (date === undefined) return;
    supply.billedToAnyLevel.push(date);
    if (!anyLevelOnly) supply.billedTo.push(date);
  };
  billed(account, false);
  for (const [, address] of indexed(itemsOf(account.supply_addresses))) {
    for (const [, point] of indexed(itemsOf(address.meter_points))) {
      supply.meterPoints++;
      supply.agreements += itemsOf(point.agreements).length;
      const id = str(point.identifier);
      if (id !== undefined) supply.meterPointIds.add(id);
      billed(point, false);
      for (const [, meter] of indexed(itemsOf(point.meters))) {
        billed(meter, true);
        for (const [, register] of indexed(itemsOf(meter.registers))) billed(register, true);
        const serial = str(meter.meter_serial_number);
        if (serial !== undefined && meter.prepay_details !== undefined) {
          supply.prepaySerials.add(serial.toUpperCase());
        }
      }
    }
  }
  return supply;
}

/** The account's statement fields or one ledger's, and where they sit below the account. */
export interface Scope {
  /** The fields that passed their own checks. */
  readonly fields: Parent;
  /** The fields as sent. */
  readonly sent: Parent;
  readonly at: string;
  readonly balance: 'transfer_balance' | 'ledger_balance';
}

export function scopesOf(account: Parent, input: Parent): Scope[] {
  const scopes: Scope[] = [{ fields: account, sent: input, at: '', balance: 'transfer_balance' }];
  const sent = Array.isArray(input.ledgers) ? (input.ledgers as unknown[]) : [];
  for (const [i, ledger] of indexed(itemsOf(account.ledgers))) {
    const raw = sent[i];
    scopes.push({
      fields: ledger,
      sent: isObject(raw) ? raw : {},
      at: `ledgers.${i}.`,
      balance: 'ledger_balance',
    });
  }
  return scopes;
}

/** The field was sent but failed its own checks: the rules that read it stay silent. */
export const failed = (scope: Scope, name: string) =>
  holdsData(scope.sent[name]) && scope.fields[name] === undefined;

export const CURRENT = 'current_statement_transactions';
export const HISTORICAL = 'historical_statement_transactions';
export const ADDING = new Set(['PAYMENT', 'CREDIT']);

export const isPrepay = (tx: Parent) => tx.to_prepay_meter_serial_number !== undefined;

/**
 * The signed sum of the transactions that are not prepay vends, at SCALE places; undefined when
 * one of them failed its own checks.
 */
export function balanceOf(transactions: Items<Parent>): bigint | undefined {
  let sum = 0n;
  for (const tx of transactions) {
    const amount = str(tx?.amount);
    if (tx === undefined || amount === undefined) return undefined;
    if (isPrepay(tx)) continue;
    sum += ADDING.has(String(tx.type)) ? scaled(amount) : -scaled(amount);
  }
  return sum;
}
