/** Request bodies built as text: the worst that fits in 1 MiB (JSON.stringify would recurse). */
import { buildAccount, buildStatement } from '../../account/factory.js';

export const MIB = 1024 * 1024;

/** A JSON value nested `depth` levels deep, as text. */
export function nested(depth: number, open = '[', close = ']', inner = '1'): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** The account payload with `rawValue` spliced in as the raw JSON of one field. */
export function accountWith(field: string, rawValue: string): string {
  const text = JSON.stringify(buildAccount({ [field]: '@@' }));
  return text.replace('"@@"', rawValue);
}

/** `value` with every leaf of the wrong type and an unknown key in every object. */
function spoiled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(spoiled);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, field]) => [key, spoiled(field)]);
    return Object.fromEntries([...entries, ['unexpected', 1]]);
  }
  if (typeof value === 'string') return 12_345;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'maybe';
  return value;
}

/**
 * An account of nearly 1 MiB that is wrong everywhere: every customer, supply address and
 * statement of the test account, each field of the wrong type, repeated to fill the body. Its
 * identifying fields stay valid, so that it reaches the account's rules.
 */
export function wrongEverywhere(): string {
  const account = buildAccount();
  const sections = ['customers', 'supply_addresses', 'statements', 'notes', 'metadata'] as const;
  const spoilt = Object.fromEntries(sections.map((name) => [name, spoiled(account[name])]));
  const once = JSON.stringify(spoilt).length;
  const copies = Math.floor((MIB - 2_000) / once);
  const repeated = Object.fromEntries(
    sections.map((name) => [
      name,
      Array.from({ length: copies }, () => spoilt[name] as unknown[]).flat(),
    ]),
  );
  return JSON.stringify({
    ...account,
    ...repeated,
    billing_address: spoiled(account.billing_address),
  });
}

/** [name, path suffix kind, body]: the heaviest bodies under 1 MiB the service must refuse cheaply. */
export const WORST_BODIES: [string, 'validate' | 'stage' | 'process', () => string][] = [
  ['1,000 levels of arrays as the body', 'validate', () => nested(1000)],
  [
    '1,000 levels of objects in customers',
    'validate',
    () => accountWith('customers', nested(1000, '[{"a":', '}]')),
  ],
  [
    '1,000 levels in a metadata value (staged)',
    'stage',
    () => accountWith('metadata', `[{"key":"k","value":${nested(1000, '{"a":', '}')}}]`),
  ],
  [
    '400,000 levels of arrays in a metadata value',
    'stage',
    () => accountWith('metadata', `[{"key":"k","value":${nested(400_000)}}]`),
  ],
  ['400,000 levels as the process body', 'process', () => nested(400_000)],
  [
    '90,000 unknown keys',
    'validate',
    () =>
      JSON.stringify(Object.fromEntries(Array.from({ length: 90_000 }, (_, i) => [`k${i}`, 0]))),
  ],
  [
    '200,000 customers',
    'stage',
    () => accountWith('customers', `[${Array(200_000).fill('{}').join(',')}]`),
  ],
  [
    '300,000 numbers in one array',
    'validate',
    () => accountWith('notes', `[${Array(300_000).fill('1').join(',')}]`),
  ],
  [
    'a 1 MB string in a field',
    'stage',
    () => accountWith('billing_name', JSON.stringify('x'.repeat(MIB - 5_000))),
  ],
  [
    'a 1 MB string of escapes',
    'validate',
    () => accountWith('billing_name', `"${'\\u0000'.repeat(170_000)}"`),
  ],
  [
    'a 1 MB external account number',
    'process',
    () =>
      JSON.stringify({
        external_account_number: 'x'.repeat(MIB - 200),
        import_supplier_code: 'DEMO',
        operations_team_name: 'Migrations',
      }),
  ],
  [
    '4,000 statements with traversal paths',
    'validate',
    () =>
      accountWith(
        'statements',
        JSON.stringify(
          Array.from({ length: 4_000 }, (_, i) =>
            buildStatement(1, { statement_id: `S-${i}`, statement_path: `/../${i}.pdf` }),
          ),
        ),
      ),
  ],
];
