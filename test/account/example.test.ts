/**
 * The published example account (../shared/reference/examples/full-account.json): valid as
 * published, normalised, and each kind of problem reported with its code at its path.
 */
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import {
  context,
  customerOf,
  errorsOf,
  fullAccount,
  meterPointOf,
  type Json,
} from './full-account.js';
import { HAS_REFERENCE } from './reference.js';

describe.skipIf(!HAS_REFERENCE)('the published example', () => {
  it('validates the published full account with no error', () => {
    expect(errorsOf(fullAccount())).toEqual([]);
  });

  it('normalises phones, postcodes, datetimes and fills in published defaults', () => {
    const account = fullAccount();
    customerOf(account).mobile = '07400 123456';
    account.billing_postcode = 'w1f9de';
    const result = validateEnergyAccount(account, context);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const customer = result.value.customers?.[0];
    expect(customer?.mobile).toBe('+447400123456');
    expect(customer?.landline).toBe('+442072343456');
    expect(customer?.psr?.[0]?.effective_from).toBe('2012-01-01T00:00:00Z');
    expect(customer?.unable_to_read_meters).toBe(false);
    expect(result.value.billing_postcode).toBe('W1F 9DE');
    // An empty optional string is absent, as in v1.
    expect(result.value).not.toHaveProperty('billing_address2');
    const gas = result.value.supply_addresses?.[0]?.meter_points?.[1];
    expect(gas).toMatchObject({ supply_type: 'GAS', shipper_mpid: 'TCL' });
    expect(result.value.ledgers?.[0]?.ledger_balance).toBe('30.00');
  });

  it('reports type-level problems with the catalogue codes', () => {
    const account = fullAccount();
    delete account.external_account_number;
    account.smart_read_cycle_day = 'ten';
    account.transfer_balance = '1.2.3';
    account.document_accessibility = 'HUGE';
    customerOf(account).title = 'x'.repeat(21);
    customerOf(account).credit_score = 10_000;
    meterPointOf(account, 0).supply_start_date = '2019-02-30';
    expect(errorsOf(account)).toEqual([
      { attr: 'customers.0.credit_score', code: 'max_value' },
      { attr: 'customers.0.title', code: 'max_length' },
      { attr: 'document_accessibility', code: 'invalid_choice' },
      { attr: 'external_account_number', code: 'required' },
      { attr: 'smart_read_cycle_day', code: 'invalid_type' },
      { attr: 'supply_addresses.0.meter_points.0.supply_start_date', code: 'invalid_date' },
      { attr: 'transfer_balance', code: 'invalid_decimal' },
    ]);
  });

  it('reports field rules with the published codes', () => {
    const account = fullAccount();
    customerOf(account).email = 'test@anywhere.co.uk';
    customerOf(account).psr = [{ elec_industry_code: '1', effective_from: '2012-01-01' }];
    account.billing_delivery_point_identifier = 'ab12';
    account.last_payment_review_date = '2026-11-27';
    account.dunning_path = { path_name: 'standard_domestic', start_date: '2026-11-25' };
    meterPointOf(account, 0).identifier = '1200060176721';
    meterPointOf(account, 0).mpid = 'tent';
    meterPointOf(account, 1).shipper_mpid = 'T-L';
    const registers = ((meterPointOf(account, 0).meters as Json[])[0] as Json).registers as Json[];
    (registers[0] as Json).tpr = '1';
    const ledger = (account.ledgers as Json[])[0] as Json;
    ((ledger.current_statement_transactions as Json[])[0] as Json).transaction_date = '2026-12-01';
    (account.warm_home_discount as Json[])[0] = { tax_year: '2017', account_type: 'CREDIT' };
    account.metadata = [
      { key: 'a', value: 1 },
      { key: 'a', value: 2 },
    ];
    expect(errorsOf(account)).toEqual([
      { attr: 'billing_delivery_point_identifier', code: 'invalid_delivery_point_identifier' },
      { attr: 'customers.0.email', code: 'possible_test_email_address' },
      { attr: 'customers.0.psr.0.elec_industry_code', code: 'psr_invalid_industry_code' },
      { attr: 'dunning_path.start_date', code: 'date_in_past' },
      { attr: 'last_payment_review_date', code: 'last_payment_review_date_is_future_dated' },
      {
        attr: 'ledgers.0.current_statement_transactions.0.transaction_date',
        code: 'transaction_in_future',
      },
      { attr: 'metadata.1.key', code: 'metadata_has_duplicate_keys' },
      {
        attr: 'supply_addresses.0.meter_points.0.identifier',
        code: 'invalid_supply_point_identifier',
      },
      {
        attr: 'supply_addresses.0.meter_points.0.meters.0.registers.0.tpr',
        code: 'tpr_not_found',
      },
      { attr: 'supply_addresses.0.meter_points.0.mpid', code: 'market_participant_not_found' },
      {
        attr: 'supply_addresses.0.meter_points.1.shipper_mpid',
        code: 'market_participant_not_found',
      },
      { attr: 'warm_home_discount.0.tax_year', code: 'incorrect_format_for_tax_year' },
    ]);
  });

  it('chooses the variant of a union by its discriminator', () => {
    const account = fullAccount();
    meterPointOf(account, 1).supply_type = 'WATER';
    const ledger = (account.ledgers as Json[])[0] as Json;
    ((ledger.historical_statement_transactions as Json[])[0] as Json).type = undefined;
    // A gas field on an electricity meter point is unknown there.
    meterPointOf(account, 0).shipper_mpid = 'TCL';
    expect(errorsOf(account)).toEqual([
      { attr: 'ledgers.0.historical_statement_transactions.0.type', code: 'required' },
      { attr: 'supply_addresses.0.meter_points.0.shipper_mpid', code: 'unknown_field' },
      {
        attr: 'supply_addresses.0.meter_points.1.supply_type',
        code: 'supply_type_not_recognised',
      },
    ]);
  });
});
