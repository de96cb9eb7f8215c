/** `account show`: a created account as it is kept, found by its number or by its external number. */
import type { Command } from 'commander';
import type { ShownAccount } from '../operator/operator.types.js';
import { showableJson } from '../shared/quoted.js';
import { formatTable, isoTime, print, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../operator/accounts.service.js');

/**
 * The --json shape: the account's numbers, supplier, team and time, its payload as kept, and
 * what the post-import endpoints added since (`added`).
 */
function accountJson(account: ShownAccount) {
  return {
    service_account_number: account.number,
    import_supplier_code: account.supplierCode,
    external_account_number: account.externalAccountNumber,
    operations_team: account.teamName,
    created_at: isoTime(account.createdAt),
    account: account.payload,
    added: account.added,
  };
}

/** Lists are counted this many names deep: `supply_addresses.meter_points.meters`. */
const LIST_DEPTH = 3;

/**
 * How many items each list of the payload holds, by its path of names, in payload order; the
 * items of a nested list are added up over its parents. Whatever the payload's shape.
 */
function listSizes(payload: unknown): Map<string, number> {
  const sizes = new Map<string, number>();
  const visit = (value: unknown, path: readonly string[]): void => {
    if (Array.isArray(value)) {
      const name = path.join('.');
      sizes.set(name, (sizes.get(name) ?? 0) + value.length);
      for (const item of value) visit(item, path);
    } else if (typeof value === 'object' && value !== null && path.length < LIST_DEPTH) {
      for (const [key, field] of Object.entries(value)) visit(field, [...path, key]);
    }
  };
  if (typeof payload === 'object' && payload !== null && !Array.isArray(payload))
    visit(payload, []);
  return sizes;
}

/**
 * A summary, the sizes of the payload's lists and of what was added since, then the payload
 * itself, indented.
 */
function describeAccount(account: ShownAccount): string {
  const facts = formatTable(
    ['account', account.number],
    [
      ['import supplier', account.supplierCode],
      ['external number', account.externalAccountNumber],
      ['operations team', account.teamName],
      ['created', isoTime(account.createdAt)],
    ],
  );
  const sizes = [...listSizes(account.payload)].map(([name, size]) => [name, String(size)]);
  // What was added since creation, counted apart from what it was created with.
  for (const [name, items] of Object.entries(account.added)) {
    if (items.length > 0) sizes.push([`added ${name}`, String(items.length)]);
  }
  const lists = sizes.length === 0 ? 'no lists' : formatTable(['LIST', 'ITEMS'], sizes);
  return [facts, lists, showableJson(account.payload, 2)].join('\n\n');
}

export function registerAccount(program: Command): void {
  const group = program.command('account').description('read created accounts');

  group
    .command('show')
    .description('show a created account as it is kept, with its normalised payload')
    .usage('SUPPLIER EXTERNAL_NUMBER | ACCOUNT_NUMBER')
    .argument('<supplier_or_number>', 'import supplier code, or the account number (A-XXXXXXXX)')
    .argument('[external_number]', 'external account number, after the supplier code')
    .action(
      async (first: string, external: string | undefined, _options: unknown, command: Command) => {
        const { showAccountByNumber, showAccountOf } = await operations();
        const account = await withDatabase(command, (db) =>
          external === undefined
            ? showAccountByNumber(db, first)
            : showAccountOf(db, first, external),
        );
        print(command, accountJson(account), describeAccount(account));
      },
    );
}
