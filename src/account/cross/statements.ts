/**
 * Rules on the account's statements and money, run together on the account in this order for
 * every statement scope (./statement-scopes.ts): dates (./statement-dates.ts), balances
 * (./balances.ts) and transaction fields; then across scopes, ledgers and what names them
 * (./ledgers.ts) and where billing starts. The readings taken are in each module's header.
 * Here also: a statement needs a `statement_path` (the publication has no `pdf_context` field,
 * so the alternative cannot be sent).
 */
import { fail } from '../../payload/validators.js';
import { checkBalances, lineItem, supplyCharge } from './balances.js';
import {
  checkLedgers,
  checkPaymentPreferences,
  checkPlansAndSchedules,
  checkTransactionIds,
} from './ledgers.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { holdsData } from './shared.js';
import { checkBillingStart, checkDates, checkTransactionFields } from './statement-dates.js';
import { scopesOf, supplyOf } from './statement-scopes.js';

const energyAccount: ObjectRule = {
  codes: [
    'active_new_payment_preference_invalid_instruction_identifier',
    'balance_mismatch_on_transfer_balance',
    'billing_document_identifier_not_allowed_for_current_statement_transactions',
    'cannot_determine_responsible_for_billing_from_date',
    'current_statement_transaction_before_current_statement_opening_date',
    'current_statement_transaction_before_last_billed_to_date',
    'duplicate_identifiers_entries_found',
    'duplicate_ledger_entries_found',
    'duplicate_ledger_in_payment_preferences',
    'duplicate_transaction_ids',
    'historical_statement_billing_document_identifier_mismatch',
    'historical_statement_billing_document_identifier_missing',
    'historical_statement_period_end_in_future',
    'historical_statement_transaction_after_current_statement_transaction',
    'historical_statement_transaction_after_last_statement_closing_date',
    'historical_statement_transactions_balance_mismatch',
    'historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date',
    'invalid_payment_preference_ledger_identifier',
    'last_statement_issued_before_closing_date',
    'ledger_balances_not_equal_to_transfer_balance',
    'payment_plan_and_payment_schedule_not_allowed_on_same_ledger',
    'transactions_target_non_initialised_prepay_meter',
    'unknown_ledger_identifiers',
  ],
  check: (out, prefix, run, input) => {
    const supply = supplyOf(out);
    const scopes = scopesOf(out, input);
    for (const scope of scopes) {
      checkDates(scope, supply, prefix, run);
      checkBalances(scope, prefix, run);
      checkTransactionFields(scope, supply, prefix, run);
    }
    checkTransactionIds(scopes, prefix, run);
    checkLedgers(out, scopes, supply, prefix, run);
    checkPaymentPreferences(out, prefix, run);
    checkPlansAndSchedules(out, prefix, run);
    checkBillingStart(scopes, supply, prefix, run);
  },
};

const statement: ObjectRule = {
  codes: ['missing_statement_path_or_pdf_context'],
  check: (out, prefix, run, input) => {
    if (out.statement_path === undefined && !holdsData(input.statement_path)) {
      fail(
        run,
        `${prefix}statement_path`,
        'missing_statement_path_or_pdf_context',
        'A statement needs the path of its document.',
      );
    }
  },
};

export const STATEMENT_RULES: ObjectRules = {
  EnergyAccount: energyAccount,
  EnergySupplyCharge: supplyCharge,
  LineItem: lineItem,
  Statement: statement,
};
