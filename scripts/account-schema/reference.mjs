/**
 * The published schema (../shared/reference/published-schema.json) as the project reads it:
 * with the `ledgers` gap filled in (src/account/README.md), and the schemas a root reaches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

/**
 * The published schema's file: `../shared/reference/` beside the repository (as in CI), or the
 * folder that ACCOUNT_REFERENCE_DIR names.
 */
export function referenceFile(repositoryRoot) {
  const folder =
    process.env.ACCOUNT_REFERENCE_DIR ?? join(repositoryRoot, '..', 'shared', 'reference');
  return join(folder, 'published-schema.json');
}

/** The declared shape of one item of `EnergyAccount.ledgers`, absent from the publication. */
export const LEDGER_SCHEMA = 'AccountLedger';

/** The request bodies the service takes: accounts (v1 and v2) and the post-import endpoints. */
export const ROOTS = [
  'EnergyAccount',
  'HistoricalStatements',
  'AccountNote',
  'LegacyPaymentInstruction',
  'Transactions',
  'ScheduleAccountCreation',
  'ValidateAccount',
];

const ACCOUNT_LEVEL_FIELDS = [
  'current_statement_transactions',
  'historical_statement_transactions',
  'last_statement_closing_date',
  'last_statement_balance',
  'last_statement_issue_date',
];

const withoutDeprecation = ({ deprecated: _d, use_instead: _u, ...field }) => field;

/** Adds `ledgers` to EnergyAccount: ledger code and identifier, statements, balance. */
function fillLedgersGap(schemas) {
  const account = schemas.EnergyAccount;
  if (account.properties.ledgers !== undefined || schemas[LEDGER_SCHEMA] !== undefined) {
    throw new Error('the publication now declares ledgers: drop the gap filling');
  }
  const properties = {
    ledger_code: schemas.Ledger.properties.ledger_code,
    ledger_identifier: schemas.Ledger.properties.ledger_identifier,
  };
  for (const name of ACCOUNT_LEVEL_FIELDS) {
    properties[name] = withoutDeprecation(account.properties[name]);
  }
  properties.ledger_balance = withoutDeprecation(account.properties.transfer_balance);
  schemas[LEDGER_SCHEMA] = { type: 'object', properties };
  // In its alphabetical place, like every published field (the output keeps this order).
  const fields = Object.entries(account.properties);
  fields.push(['ledgers', { type: 'array', items: { $ref: LEDGER_SCHEMA } }]);
  fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  account.properties = Object.fromEntries(fields);
}

/** The publication's schemas, by name, with the gap filled in. */
export function loadReference(file) {
  const { schemas } = JSON.parse(readFileSync(file, 'utf8'));
  fillLedgersGap(schemas);
  return schemas;
}

/** The names of the schemas a field or schema refers to. */
export function referencesOf(schema) {
  const names = [];
  for (const option of schema.oneOf ?? []) names.push(option.$ref);
  for (const field of Object.values(schema.properties ?? {})) {
    for (const part of [field, field.items ?? {}, ...(field.allOf ?? [])]) {
      if (part.$ref !== undefined) names.push(part.$ref);
    }
  }
  return names;
}

/** Every schema reachable from `roots`, dependencies before their users. */
export function reachable(schemas, roots = ROOTS) {
  const order = [];
  const state = new Map();
  const visit = (name) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`schema cycle through ${name}`);
    if (schemas[name] === undefined) throw new Error(`unknown schema ${name}`);
    state.set(name, 'visiting');
    for (const ref of referencesOf(schemas[name])) visit(ref);
    state.set(name, 'done');
    order.push(name);
  };
  for (const root of roots) visit(root);
  return order;
}

/** A schema name as a TypeScript identifier (`Gbr-gas.payment-methodCharacteristic` → `GbrGasPaymentMethodCharacteristic`). */
export function identifierOf(name) {
  return name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
