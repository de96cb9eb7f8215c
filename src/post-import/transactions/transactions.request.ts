/**
 * The body of transactions/create, the published `Transactions`, read and validated. Two
 * readings let the published example through (docs/decisions.md, "Transactions requests"):
 *
 * - a JSON number at a decimal field of a transaction is read as its decimal text (`10.0` as
 *   `10`, `1e-7` as `0.0000001`: never with an exponent), as the example writes amounts, and
 *   then meets the limits a string meets; a number JSON cannot carry exactly (beyond 15
 *   significant digits) should be sent as a string;
 * - `reference` is taken on every type of transaction and kept as sent (a string), though the
 *   publication declares it on payments and repayments only: the example sends it on charges,
 *   credits and supply charges too.
 */
import { Transactions } from '../../account/schema/generated.js';
import type { EnergyTransaction, Transactions as TransactionsBody } from '../../account/account.js';
import type { FieldError } from '../../errors.js';
import { isProblem, problemsRefused, queryFlag } from '../../http/query-params.js';
import { runType, startRun, type ValidationResult } from '../../payload/run.js';
import type { PlatformView } from '../../payload/validators.js';
import { decimalText } from './decimal-text.js';

type Json = Record<string, unknown>;

/**
 * The query flags the publication lists, read and checked, though they change nothing
 * (docs/decisions.md, "Transactions requests"); throws 400 malformed_request for any other value.
 */
export function readTransactionFlags(query: Json): void {
  const flags = [
    queryFlag(query.check_previously_added, 'check_previously_added', true),
    queryFlag(query.force_add_to_current_statement, 'force_add_to_current_statement', false),
  ];
  if (flags.some(isProblem)) throw problemsRefused(flags);
}

/** The decimal fields of a transaction and of the line and tax items it holds. */
const DECIMALS = {
  transaction: ['amount'],
  line_items: ['net_amount', 'number_of_units', 'price_per_unit', 'units'],
  tax_items: ['amount', 'rate', 'value_taxed'],
} as const;

/** The types whose published schema declares `reference`. */
const REFERENCED_TYPES = new Set(['PAYMENT', 'REPAYMENT']);

const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asDecimal = (value: unknown): unknown =>
  typeof value === 'number' && Number.isFinite(value) ? decimalText(value) : value;

function withDecimals(item: Json, names: readonly string[]): Json {
  const out = { ...item };
  for (const name of names) {
    const value = out[name];
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map(asDecimal) : asDecimal(value);
  }
  return out;
}

const itemsWithDecimals = (list: unknown, names: readonly string[]): unknown =>
  Array.isArray(list)
    ? list.map((item) => (isJson(item) ? withDecimals(item, names) : item))
    : list;

/** A transaction as read, and its `reference` set aside when its type does not declare one. */
function readTransaction(raw: unknown): { tx: unknown; reference?: unknown } {
  if (!isJson(raw)) return { tx: raw };
  const tx = withDecimals(raw, DECIMALS.transaction);
  if (tx.line_items !== undefined) {
    tx.line_items = itemsWithDecimals(tx.line_items, DECIMALS.line_items);
  }
  if (tx.tax_items !== undefined) {
    tx.tax_items = itemsWithDecimals(tx.tax_items, DECIMALS.tax_items);
  }
  if (tx.reference === undefined || REFERENCED_TYPES.has(String(tx.type))) return { tx };
  const { reference, ...rest } = tx;
  return { tx: rest, reference };
}

/** A valid request: the body as normalised, and the account number it names. */
export interface TransactionsRequest {
  body: TransactionsBody;
  externalAccountNumber: string;
  transactions: EnergyTransaction[];
}

/**
 * Validates the body against `Transactions` and its rules with the platform view given (the
 * import supplier's settings in it); every error at once.
 */
export function validateTransactionsRequest(
  body: Json,
  platform: PlatformView,
): ValidationResult<TransactionsRequest> {
  const set = new Map<number, unknown>();
  let input: Json = body;
  if (Array.isArray(body.transactions)) {
    const read = body.transactions.map(readTransaction);
    read.forEach(({ reference }, i) => {
      if (reference !== undefined) set.set(i, reference);
    });
    input = { ...body, transactions: read.map(({ tx }) => tx) };
  }
  const result = runType(Transactions, input, startRun({ platform, supplierFound: true }));
  const errors: FieldError[] = result.ok ? [] : [...result.errors];
  for (const [i, reference] of set) {
    if (typeof reference !== 'string') {
      errors.push({
        detail: 'Expected a string.',
        code: 'invalid_type',
        attr: `transactions.${i}.reference`,
      });
    }
  }
  if (!result.ok || errors.length > 0) return { ok: false, errors };
  const value = result.value;
  const transactions = (value.transactions ?? []).map((tx, i) => {
    const reference = set.get(i);
    return typeof reference !== 'string' || reference.trim() === ''
      ? tx
      : ({ ...tx, reference: reference.trim() } as EnergyTransaction);
  });
  const externalAccountNumber = value.external_account_number ?? value.account_number ?? '';
  return { ok: true, value: { body: value, externalAccountNumber, transactions } };
}
