/**
 * Statement dates of each scope: closing and issue dates, historical and current transactions
 * against them and against the last billed-to dates; the fields of the transactions (prepay
 * meters, billing document identifiers); and where billing starts from. Readings:
 *
 * - The inferred closing date, when a scope gives none, is the earliest last billed-to date of
 *   the account and its meter points; meters and registers count only for the rule that names
 *   them (`current_statement_transaction_before_last_billed_to_date`), which takes the earliest.
 * - The current statement opens the day after the closing date (given or inferred). A current
 *   transaction reported as opening too early is not reported again against the billed-to date.
 * - A historical transaction on the same day as the earliest current one is not "after" it.
 * - Billing document identifiers: with the platform's flag read as on, historical transactions
 *   of one scope carry one all or none (`_missing` at each without), the same one throughout
 *   (`_mismatch`).
 * - Billing can start from a last billed-to date (any level), a last statement closing date (any
 *   scope) or an agreement; an account with meter points and none of them is refused (only when
 *   nothing else was reported, as a failed field would look absent).
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import { dayAfter } from '../periods.js';
import { indexed, itemsOf, objectPath, str } from './shared.js';
import {
  CURRENT,
  earliest,
  failed,
  HISTORICAL,
  isPrepay,
  type Scope,
  type Supply,
} from './statement-scopes.js';

export function checkDates(scope: Scope, supply: Supply, prefix: string, run: Run): void {
  const { fields } = scope;
  const at = `${prefix}${scope.at}`;
  const current = itemsOf(fields[CURRENT]);
  const historical = itemsOf(fields[HISTORICAL]);
  if (failed(scope, 'last_statement_closing_date')) return;
  const closing = str(fields.last_statement_closing_date);
  const inferred = closing ?? earliest(supply.billedTo);
  const dateOf = (tx: Parent) => str(tx.transaction_date);

  // The period ends on the closing date, or else on the latest historical transaction.
  let end = closing;
  let latest = -1;
  if (closing === undefined) {
    for (const [i, tx] of indexed(historical)) {
      const date = dateOf(tx);
      if (date !== undefined && (end === undefined || date > end)) [end, latest] = [date, i];
    }
  }
  if (end !== undefined && end > run.today) {
    const field =
      latest < 0 ? 'last_statement_closing_date' : `${HISTORICAL}.${latest}.transaction_date`;
    fail(
      run,
      `${at}${field}`,
      'historical_statement_period_end_in_future',
      'The last statement cannot close after today.',
    );
  }
  if (historical.length > 0 && inferred === undefined) {
    fail(
      run,
      `${at}${HISTORICAL}`,
      'historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date',
      'Historical transactions need a last statement closing date or a last billed-to date.',
    );
  }
  const issued = str(fields.last_statement_issue_date);
  if (issued !== undefined && inferred !== undefined && issued < inferred) {
    fail(
      run,
      `${at}last_statement_issue_date`,
      'last_statement_issued_before_closing_date',
      'The last statement cannot be issued before it closed.',
    );
  }

  const firstCurrent = earliest([...indexed(current)].flatMap(([, tx]) => dateOf(tx) ?? []));
  for (const [i, tx] of indexed(historical)) {
    const date = dateOf(tx);
    if (date === undefined) continue;
    if (inferred !== undefined && date > inferred) {
      fail(
        run,
        `${at}${HISTORICAL}.${i}.transaction_date`,
        'historical_statement_transaction_after_last_statement_closing_date',
        'A historical transaction cannot be dated after the last statement closed.',
      );
    } else if (firstCurrent !== undefined && date > firstCurrent) {
      fail(
        run,
        `${at}${HISTORICAL}.${i}.transaction_date`,
        'historical_statement_transaction_after_current_statement_transaction',
        'A historical transaction cannot be dated after a current one.',
      );
    }
  }

  const opening = inferred === undefined ? undefined : dayAfter(inferred);
  const billedTo = earliest(supply.billedToAnyLevel);
  for (const [i, tx] of indexed(current)) {
    const date = dateOf(tx);
    if (date === undefined) continue;
    if (opening !== undefined && date < opening && !isPrepay(tx)) {
      fail(
        run,
        `${at}${CURRENT}.${i}.transaction_date`,
        'current_statement_transaction_before_current_statement_opening_date',
        'A current transaction cannot be dated before the current statement opened.',
      );
    } else if (billedTo !== undefined && date < billedTo) {
      fail(
        run,
        `${at}${CURRENT}.${i}.transaction_date`,
        'current_statement_transaction_before_last_billed_to_date',
        'A current transaction cannot be dated before the last billed-to date.',
      );
    }
  }
}

export function checkTransactionFields(
  scope: Scope,
  supply: Supply,
  prefix: string,
  run: Run,
): void {
  const at = `${prefix}${scope.at}`;
  const historical = itemsOf(scope.fields[HISTORICAL]);
  for (const name of [CURRENT, HISTORICAL]) {
    for (const [i, tx] of indexed(itemsOf(scope.fields[name]))) {
      const serial = str(tx.to_prepay_meter_serial_number);
      if (serial !== undefined && !supply.prepaySerials.has(serial.toUpperCase())) {
        fail(
          run,
          `${at}${name}.${i}.to_prepay_meter_serial_number`,
          'transactions_target_non_initialised_prepay_meter',
          'No meter with prepayment details has this serial number.',
        );
      }
      if (name === CURRENT && tx.billing_document_identifier !== undefined) {
        fail(
          run,
          `${at}${name}.${i}.billing_document_identifier`,
          'billing_document_identifier_not_allowed_for_current_statement_transactions',
          'Only historical transactions carry a billing document identifier.',
        );
      }
    }
  }
  const identified = [...indexed(historical)].filter(
    ([, tx]) => tx.billing_document_identifier !== undefined,
  );
  const first = identified[0]?.[1].billing_document_identifier;
  if (first === undefined) return;
  for (const [i, tx] of indexed(historical)) {
    const identifier = tx.billing_document_identifier;
    if (identifier === undefined) {
      fail(
        run,
        `${at}${HISTORICAL}.${i}.billing_document_identifier`,
        'historical_statement_billing_document_identifier_missing',
        'Every historical transaction needs the billing document identifier the others carry.',
      );
    } else if (identifier !== first) {
      fail(
        run,
        `${at}${HISTORICAL}.${i}.billing_document_identifier`,
        'historical_statement_billing_document_identifier_mismatch',
        'The historical transactions carry different billing document identifiers.',
      );
    }
  }
}

/**
 * Billing starts from a last billed-to date, a closing date or an agreement. Their absence is
 * only told apart from their failure when nothing else was reported.
 */
export function checkBillingStart(
  scopes: readonly Scope[],
  supply: Supply,
  prefix: string,
  run: Run,
) {
  const closed = scopes.some((scope) => scope.fields.last_statement_closing_date !== undefined);
  if (
    run.errors.length === 0 &&
    supply.meterPoints > 0 &&
    supply.billedToAnyLevel.length === 0 &&
    !closed &&
    supply.agreements === 0
  ) {
    fail(
      run,
      objectPath(prefix),
      'cannot_determine_responsible_for_billing_from_date',
      'Billing cannot start: no last billed-to date, last statement closing date or agreement.',
    );
  }
}
