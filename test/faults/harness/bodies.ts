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
