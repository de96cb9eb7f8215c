/**
 * The published object rules of a transactions request (`Transactions`, the body of
 * transactions/create): its transaction ids are given and unique, and it names its account by
 * `external_account_number` or the deprecated `account_number`. Readings:
 *
 * - An item without a transaction id has its own field error (`required` or `blank`) at its
 *   `transaction_id`; the request as a whole is also reported once, at `transactions`, with the
 *   published `missing_transaction_id`.
 * - Each repeat of an earlier id is `duplicate_transaction_ids`, at its own `transaction_id`.
 * - Neither account number given is `required` at `external_account_number`.
 */
import { fail } from '../../payload/validators.js';
import { rule, type Check, type ObjectRules } from './object-rule.js';
import { holdsData, listOf, objectsOf } from './shared.js';

const transactionIds: Check = (_out, prefix, run, input) => {
  const seen = new Set<string>();
  let missing = 0;
  for (const [i, tx] of objectsOf(input.transactions).entries()) {
    if (tx === undefined) continue;
    const id = tx.transaction_id;
    if (!holdsData(id)) {
      missing++;
      continue;
    }
    if (typeof id !== 'string') continue;
    const key = id.trim();
    if (seen.has(key)) {
      fail(
        run,
        `${prefix}transactions.${i}.transaction_id`,
        'duplicate_transaction_ids',
        'This transaction id was already given in the request.',
      );
    } else seen.add(key);
  }
  if (missing > 0) {
    const of = listOf(input.transactions).length;
    fail(
      run,
      `${prefix}transactions`,
      'missing_transaction_id',
      `${missing} of the ${of} transactions have no transaction id.`,
    );
  }
};

const accountNamed: Check = (_out, prefix, run, input) => {
  if (holdsData(input.external_account_number) || holdsData(input.account_number)) return;
  fail(
    run,
    `${prefix}external_account_number`,
    'required',
    'Name the account with external_account_number (or the deprecated account_number).',
  );
};

export const TRANSACTION_RULES: ObjectRules = {
  Transactions: rule(
    ['duplicate_transaction_ids', 'missing_transaction_id', 'required'],
    transactionIds,
    accountNamed,
  ),
};
