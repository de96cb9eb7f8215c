/**
 * Rules on the account's statements and money: its transactions (at account level and in each
 * ledger), ledgers, balances, payment preferences, statements, supply charges and line items.
 *
 * A "statement scope" is the account's own statement fields or one ledger's: the same field
 * names, with `transfer_balance` or `ledger_balance` as the balance. Readings taken where the
 * publication leaves room (the published full account passes all of them):
 *
 * - The inferred closing date, when a scope gives none, is the earliest last billed-to date of
 *   the account and its meter points; meters and registers count only for the rule that names
 *   them (`current_statement_transaction_before_last_billed_to_date`), which takes the earliest.
 * - The current statement opens the day after the closing date (given or inferred). A current
 *   transaction reported as opening too early is not reported again against the billed-to date.
 * - A historical transaction on the same day as the earliest current one is not "after" it.
 * - Balances are checked when a scope has current transactions or a last statement balance, and
 *   its balance is given; the historical sum only when both the transactions and the balance are
 *   given. Payments and credits add, charges, repayments and supply charges take away; prepay
 *   transactions are left out. `ledger_balance` sums are checked when `transfer_balance` and at
 *   least one `ledger_balance` are given (a ledger without one counts as zero). A ledger's own
 *   balance mismatch is reported with the account's code, at its `ledger_balance`.
 * - Billing document identifiers: with the platform's flag read as on, historical transactions
 *   of one scope carry one all or none (`_missing` at each without), the same one throughout
 *   (`_mismatch`).
 * - A payment plan has no ledger of its own, so it is on the ledger of the schedules that name
 *   none: such schedules beside a payment plan are refused.
 * - Billing can start from a last billed-to date (any level), a last statement closing date (any
 *   scope) or an agreement; an account with meter points and none of them is refused (only when
 *   nothing else was reported, as a failed field would look absent).
 * - A line item's net amount is its price per unit times its units, rounded half away from zero
 *   to the places the net amount is written with (at least two).
 * - A statement needs a `statement_path` (the publication has no `pdf_context` field, so the
 *   alternative cannot be sent).
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { dayAfter } from '../periods.js';
import type { Items } from '../rules.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

const SCALE = 10;

/** A decimal string as an integer of `scale` places (the digits past it are dropped). */
function scaled(s: string, scale = SCALE): bigint {
  const negative = s.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? s.slice(1) : s).split('.');
  const digits = BigInt(`0${whole}${fraction.padEnd(scale, '0').slice(0, scale)}`);
  return negative ? -digits : digits;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): Items<Parent> => (Array.isArray(value) ? value : []);
const objectPath = (prefix: string) => prefix.slice(0, -1);
/** Sent with a value: a field sent with a wrong one counts (its own error says enough). */
const holdsData = (raw: unknown) =>
  raw !== undefined && raw !== null && !(typeof raw === 'string' && raw.trim() === '');

/** The checked items of a list with their indexes. */
function* indexed(items: Items<Parent>): Generator<[number, Parent]> {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item !== undefined) yield [i, item];
  }
}

const earliest = (dates: Iterable<string>) => {
  let min: string | undefined;
  for (const date of dates) if (min === undefined || date < min) min = date;
  return min;
};

/** What the statement rules need to know of the supply addresses. */
interface Supply {
  /** Last billed-to dates of the account and its meter points. */
  readonly billedTo: string[];
  /** Those plus the meters' and registers'. */
  readonly billedToAnyLevel: string[];
  readonly prepaySerials: Set<string>;
  readonly meterPointIds: Set<string>;
  meterPoints: number;
  agreements: number;
}

function supplyOf(account: Parent): Supply {
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
  for (const [, address] of indexed(list(account.supply_addresses))) {
    for (const [, point] of indexed(list(address.meter_points))) {
      supply.meterPoints++;
      supply.agreements += list(point.agreements).length;
      const id = str(point.identifier);
      if (id !== undefined) supply.meterPointIds.add(id);
      billed(point, false);
      for (const [, meter] of indexed(list(point.meters))) {
        billed(meter, true);
        for (const [, register] of indexed(list(meter.registers))) billed(register, true);
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
interface Scope {
  /** The fields that passed their own checks. */
  readonly fields: Parent;
  /** The fields as sent. */
  readonly sent: Parent;
  readonly at: string;
  readonly balance: 'transfer_balance' | 'ledger_balance';
}

function scopesOf(account: Parent, input: Parent): Scope[] {
  const scopes: Scope[] = [{ fields: account, sent: input, at: '', balance: 'transfer_balance' }];
  const sent = Array.isArray(input.ledgers) ? (input.ledgers as unknown[]) : [];
  for (const [i, ledger] of indexed(list(account.ledgers))) {
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
const failed = (scope: Scope, name: string) =>
  holdsData(scope.sent[name]) && scope.fields[name] === undefined;

const CURRENT = 'current_statement_transactions';
const HISTORICAL = 'historical_statement_transactions';
const ADDING = new Set(['PAYMENT', 'CREDIT']);

const isPrepay = (tx: Parent) => tx.to_prepay_meter_serial_number !== undefined;

/**
 * The signed sum of the transactions that are not prepay vends, at SCALE places; undefined when
 * one of them failed its own checks.
 */
function balanceOf(transactions: Items<Parent>): bigint | undefined {
  let sum = 0n;
  for (const tx of transactions) {
    const amount = str(tx?.amount);
    if (tx === undefined || amount === undefined) return undefined;
    if (isPrepay(tx)) continue;
    sum += ADDING.has(String(tx.type)) ? scaled(amount) : -scaled(amount);
  }
  return sum;
}

function checkDates(scope: Scope, supply: Supply, prefix: string, run: Run): void {
  const { fields } = scope;
  const at = `${prefix}${scope.at}`;
  const current = list(fields[CURRENT]);
  const historical = list(fields[HISTORICAL]);
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

function checkBalances(scope: Scope, prefix: string, run: Run): void {
  const { fields } = scope;
  const at = `${prefix}${scope.at}`;
  const current = list(fields[CURRENT]);
  const historical = list(fields[HISTORICAL]);
  if ([CURRENT, HISTORICAL, 'last_statement_balance'].some((name) => failed(scope, name))) return;
  const last = str(fields.last_statement_balance);
  const balance = str(fields[scope.balance]);
  const currentSum = balanceOf(current);
  if (
    balance !== undefined &&
    currentSum !== undefined &&
    (current.length > 0 || last !== undefined)
  ) {
    if ((last === undefined ? 0n : scaled(last)) + currentSum !== scaled(balance)) {
      fail(
        run,
        `${at}${scope.balance}`,
        'balance_mismatch_on_transfer_balance',
        'The balance is not the last statement balance plus the current transactions.',
      );
    }
  }
  const historicalSum = balanceOf(historical);
  if (
    last !== undefined &&
    historical.length > 0 &&
    historicalSum !== undefined &&
    historicalSum !== scaled(last)
  ) {
    fail(
      run,
      `${at}last_statement_balance`,
      'historical_statement_transactions_balance_mismatch',
      'The last statement balance is not the sum of the historical transactions.',
    );
  }
}

function checkTransactionFields(scope: Scope, supply: Supply, prefix: string, run: Run): void {
  const at = `${prefix}${scope.at}`;
  const historical = list(scope.fields[HISTORICAL]);
  for (const name of [CURRENT, HISTORICAL]) {
    for (const [i, tx] of indexed(list(scope.fields[name]))) {
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

/** Transaction ids are unique across every scope and both lists. */
function checkTransactionIds(scopes: readonly Scope[], prefix: string, run: Run): void {
  const seen = new Set<string>();
  for (const scope of scopes) {
    for (const name of [CURRENT, HISTORICAL]) {
      for (const [i, tx] of indexed(list(scope.fields[name]))) {
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

function checkLedgers(
  account: Parent,
  scopes: readonly Scope[],
  supply: Supply,
  prefix: string,
  run: Run,
): void {
  const ledgers = list(account.ledgers);
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

function checkPaymentPreferences(account: Parent, prefix: string, run: Run): void {
  const ledgers = new Set(
    [...indexed(list(account.ledgers))].flatMap(
      ([, ledger]) => str(ledger.ledger_identifier) ?? [],
    ),
  );
  const instructions = new Set(
    [...indexed(list(account.payment_instructions))].flatMap(
      ([, instruction]) => str(instruction.instruction_identifier) ?? [],
    ),
  );
  const referenced = new Set<string>();
  for (const [i, preference] of indexed(list(account.payment_preferences))) {
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

function checkPlansAndSchedules(account: Parent, prefix: string, run: Run): void {
  if (list(account.payment_plans).length > 0) {
    for (const [i, schedule] of indexed(list(account.payment_schedules))) {
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

/**
 * Billing starts from a last billed-to date, a closing date or an agreement. Their absence is
 * only told apart from their failure when nothing else was reported.
 */
function checkBillingStart(scopes: readonly Scope[], supply: Supply, prefix: string, run: Run) {
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

/** A supply charge's amount is its line items' net amounts plus its taxes. */
const supplyCharge: ObjectRule = {
  codes: [
    'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
    'supply_point_identifier_required_for_rate_specification_code',
  ],
  check: (out, prefix, run, input) => {
    const items = out.line_items as Items<Parent> | undefined;
    if (
      items?.some((item) => item?.rate_specification_code !== undefined) === true &&
      out.supply_point_identifier === undefined
    ) {
      fail(
        run,
        `${prefix}supply_point_identifier`,
        'supply_point_identifier_required_for_rate_specification_code',
        'A line item with a rate specification code needs the supply point.',
      );
    }
    const amount = str(out.amount);
    const parts = [...(items ?? []), ...((out.tax_items as Items<Parent> | undefined) ?? [])];
    const values = parts.map((part) => str(part?.net_amount ?? part?.amount));
    const taxesFailed = holdsData(input.tax_items) && out.tax_items === undefined;
    if (amount === undefined || items === undefined || taxesFailed) return;
    if (values.some((v) => v === undefined)) return;
    const total = values.reduce((sum, v) => sum + scaled(v as string), 0n);
    if (total !== scaled(amount)) {
      fail(
        run,
        `${prefix}amount`,
        'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
        'The amount is not the line items net amounts plus the tax amounts.',
      );
    }
  },
};

const PRICE_PLACES = 7;
const UNIT_PLACES = 4;

/** `value` (of `from` places) rounded half away from zero to `to` places. */
function rounded(value: bigint, from: number, to: number): bigint {
  const divisor = 10n ** BigInt(from - to);
  const magnitude = value < 0n ? -value : value;
  const result = (magnitude + divisor / 2n) / divisor;
  return value < 0n ? -result : result;
}

const RATE_FIELDS = ['rate_band', 'rate_specification_code', 'time_series_specification_code'];

const lineItem: ObjectRule = {
  codes: ['conflicting_rate_band_specification', 'incorrect_line_item_net_amount'],
  check: (out, prefix, run, input) => {
    const given = RATE_FIELDS.filter((name) => holdsData(input[name]));
    if (given.length !== 1) {
      fail(
        run,
        objectPath(prefix),
        'conflicting_rate_band_specification',
        'A line item needs exactly one of rate_band, rate_specification_code and time_series_specification_code.',
      );
    }
    const [price, units, net] = [
      str(out.price_per_unit),
      str(out.number_of_units),
      str(out.net_amount),
    ];
    if (price === undefined || units === undefined || net === undefined) return;
    const places = Math.max(2, net.split('.')[1]?.length ?? 0);
    const product = scaled(price, PRICE_PLACES) * scaled(units, UNIT_PLACES);
    if (rounded(product, PRICE_PLACES + UNIT_PLACES, places) !== scaled(net, places)) {
      fail(
        run,
        `${prefix}net_amount`,
        'incorrect_line_item_net_amount',
        'The net amount is not the price per unit times the number of units.',
      );
    }
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
