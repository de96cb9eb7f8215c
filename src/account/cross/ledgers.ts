/**
 * Ledgers and what names them: transaction ids across scopes, ledger codes and identifiers, the
 * ledgers' balances against the transfer balance, payment preferences, and payment plans beside
 * schedules. Readings:
 *
 * - `ledger_balance` sums are checked when `transfer_balance` and at least one `ledger_balance`
 *   are given (a ledger without one counts as zero).
 * - A payment plan has no ledger of its own, so it is on the ledger of the schedules that name
 *   none: such schedules beside a payment plan are refused.
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import { indexed, itemsOf, scaled, str } from './shared.js';
import { CURRENT, failed, HISTORICAL, type Scope, type Supply } from './statement-scopes.js';

/** Transaction ids are unique across every scope and both lists. */
export function checkTransactionIds(scopes: readonly Scope[], prefix: string, run: Run): void {
  const seen = new Set<string>();
  for (const scope of scopes) {
    for (const name of [CURRENT, HISTORICAL]) {
      for (const [i, tx] of indexed(itemsOf(scope.fields[name]))) {
        const id = str(tx.transaction_id);
        if (id === undefined) continue;
        if (seen.has(id)) {
          fail(
            run,
            `${prefix}${scope.at}${name}.${i}.transaction_id`,
            'duplicate_transaction_ids',
            'This transaction id was already given.',
          );
        } else seen.add(id);
      }
    }
  }
}

export function checkLedgers(
  account: Parent,
  scopes: readonly Scope[],
  supply: Supply,
  prefix: string,
  run: Run,
): void {
  const ledgers = itemsOf(account.ledgers);
  const codes = new Set<string>();
  const identifiers = new Set<string>();
  let sum = 0n;
  let balances = 0;
  for (const [i, ledger] of indexed(ledgers)) {
    const code = str(ledger.ledger_code);
    if (code !== undefined) {
      if (codes.has(code)) {
        fail(
          run,
          `${prefix}ledgers.${i}.ledger_code`,
          'duplicate_ledger_entries_found',
          'This ledger code was already given.',
        );
      } else codes.add(code);
    }
    const identifier = str(ledger.ledger_identifier);
    if (identifier !== undefined) {
      if (identifiers.has(identifier)) {
        fail(
          run,
          `${prefix}ledgers.${i}.ledger_identifier`,
          'duplicate_identifiers_entries_found',
          'This ledger identifier was already given.',
        );
      } else if (!supply.meterPointIds.has(identifier)) {
        fail(
          run,
          `${prefix}ledgers.${i}.ledger_identifier`,
          'unknown_ledger_identifiers',
          'No meter point of the account has this identifier.',
        );
      }
      identifiers.add(identifier);
    }
    const balance = str(ledger.ledger_balance);
    if (balance !== undefined) {
      sum += scaled(balance);
      balances++;
    }
  }
  const transfer = str(account.transfer_balance);
  const complete =
    !ledgers.includes(undefined) && !scopes.some((scope) => failed(scope, 'ledger_balance'));
  if (transfer !== undefined && complete && balances > 0 && sum !== scaled(transfer)) {
    fail(
      run,
      `${prefix}transfer_balance`,
      'ledger_balances_not_equal_to_transfer_balance',
      'The transfer balance is not the sum of the ledger balances.',
    );
  }
}

export function checkPaymentPreferences(account: Parent, prefix: string, run: Run): void {
  const ledgers = new Set(
    [...indexed(itemsOf(account.ledgers))].flatMap(
      ([, ledger]) => str(ledger.ledger_identifier) ?? [],
    ),
  );
  const instructions = new Set(
    [...indexed(itemsOf(account.payment_instructions))].flatMap(
      ([, instruction]) => str(instruction.instruction_identifier) ?? [],
    ),
  );
  const referenced = new Set<string>();
  for (const [i, preference] of indexed(itemsOf(account.payment_preferences))) {
    const at = `${prefix}payment_preferences.${i}.`;
    const ledger = str(preference.ledger_identifier);
    if (ledger !== undefined) {
      if (!ledgers.has(ledger)) {
        fail(
          run,
          `${at}ledger_identifier`,
          'invalid_payment_preference_ledger_identifier',
          'No ledger of the account has this identifier.',
        );
      } else if (referenced.has(ledger)) {
        fail(
          run,
          `${at}ledger_identifier`,
          'duplicate_ledger_in_payment_preferences',
          'An earlier payment preference already names this ledger.',
        );
      }
      referenced.add(ledger);
    }
    const params = preference.instruction_reference_params as Parent | undefined;
    const instruction = str(params?.instruction_identifier);
    if (
      preference.type === 'ACTIVE_NEW' &&
      instruction !== undefined &&
      !instructions.has(instruction)
    ) {
      fail(
        run,
        `${at}instruction_reference_params.instruction_identifier`,
        'active_new_payment_preference_invalid_instruction_identifier',
        'No payment instruction has this instruction identifier.',
      );
    }
  }
}

export function checkPlansAndSchedules(account: Parent, prefix: string, run: Run): void {
  if (itemsOf(account.payment_plans).length > 0) {
    for (const [i, schedule] of indexed(itemsOf(account.payment_schedules))) {
      if (schedule.ledger_code === undefined) {
        fail(
          run,
          `${prefix}payment_schedules.${i}`,
          'payment_plan_and_payment_schedule_not_allowed_on_same_ledger',
          'A payment plan already makes the schedule of this ledger.',
        );
      }
    }
  }
}
