import { getCountries } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { FIELD_RULES } from '../../src/account/field-rules.js';
import { OBJECT_RULES } from '../../src/account/object-rules.js';
import { FIELD_ERROR_CODES, externalAccountNumberProblem } from '../../src/payload/codes.js';
import { COUNTRY_CODES } from '../../src/payload/rules/countries.js';
import { SCHEDULE_FIELD_CODES } from '../../src/schedules/schedules.service.js';
import { IMPORT_ERROR_CODES } from '../../src/post-import/transactions/transactions.service.js';

// The codes of the first payload's list ("Error codes used by the field rules" of
// ACCOUNT_PAYLOAD.md) that the published account still reports; the others (customers_required,
// note_body_or_documents_required) gave way to published codes.
const DOCUMENTED = `required null blank invalid_type max_length min_length invalid_choice min_value
  max_value invalid_date invalid_datetime invalid_decimal invalid_email possible_test_email_address
  invalid_phone_number invalid_postcode invalid_country invalid_supply_point_identifier
  invalid_document_path unknown_field too_many_items date_in_future start_date_later_than_end_date
  duplicate_meter_points_provided duplicate_statement_ids customer_with_unknown_occupier
  billing_address_not_provided billing_address_new_style_and_legacy
  supply_type_not_recognised import_supplier_not_found
  invalid_external_account_number`.split(/\s+/);

const ADDED = ['invalid_format', 'invalid_character', 'invalid_cursor', 'too_many_errors'];

// The codes the published account's rules report (src/account).
const ACCOUNT_RULES = [
  ...Object.values(FIELD_RULES).flatMap((rules) => Object.values(rules)),
  ...Object.values(OBJECT_RULES),
].flatMap((rule) => rule.codes);

// Published codes of values an account holds alone, checked against the created accounts
// (src/accounts/account-claims.ts) rather than by a rule of the payload.
const CLAIMED = ['reference_already_exists', 'cais_reference_already_in_use_on_another_account'];

// Published codes of the process request's own rules (src/imports/creation/creation.service.ts).
const PROCESS_REQUEST = ['operations_team_should_be_provided'];
// Published codes checked against what a created account holds (src/post-import/).
const ADDED_TO_ACCOUNTS = ['historical_statement_already_exists'];

describe('the field error catalogue', () => {
  it('lists every documented code, the added ones and the account rules ones, each with a meaning', () => {
    const expected = new Set([
      ...DOCUMENTED,
      ...ADDED,
      ...ACCOUNT_RULES,
      ...CLAIMED,
      ...PROCESS_REQUEST,
      ...ADDED_TO_ACCOUNTS,
      ...SCHEDULE_FIELD_CODES,
      // The reasons of a TRANSACTION_IMPORT_ERROR (transactions/create).
      ...IMPORT_ERROR_CODES,
    ]);
    expect(Object.keys(FIELD_ERROR_CODES).sort()).toEqual([...expected].sort());
    for (const meaning of Object.values(FIELD_ERROR_CODES))
      expect(meaning.length).toBeGreaterThan(10);
  });
});

describe('externalAccountNumberProblem', () => {
  it.each(['A', 'A-1', 'x'.repeat(128), '😀'.repeat(128), 'Ä.ß_~:;@!$&*+=,'])(
    'accepts %j',
    (value) => {
      expect(externalAccountNumberProblem(value)).toBe(false);
    },
  );
  it.each([
    '',
    ' A',
    'A B',
    'A\tB',
    'A/B',
    'A?B',
    'A#B',
    'A%20B',
    'A\u0085B',
    'A\u2028B',
    'A\ud800',
    '\udc00A',
    'x'.repeat(129),
    '😀'.repeat(129),
  ])('refuses %j', (value) => {
    expect(externalAccountNumberProblem(value)).toBe(true);
  });
});

describe('country codes', () => {
  it('are the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    const notIso = new Set(['AC', 'TA', 'XK']);
    for (const code of getCountries())
      expect(COUNTRY_CODES.has(code) || notIso.has(code)).toBe(true);
    for (const code of ['AQ', 'BV', 'HM', 'GS', 'UM', 'TF'])
      expect(COUNTRY_CODES.has(code)).toBe(true);
  });
});
