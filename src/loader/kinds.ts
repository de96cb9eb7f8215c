/**
 * What a load sends: accounts (stage, then process), or records of a post-import kind, each
 * posted to its endpoint once its account exists.
 */

/** The post-import kinds and the path (below /v1/data-import/) each record is posted to. */
export const POST_IMPORT_PATHS = {
  notes: 'notes/create/',
  statements: 'historical-statements/create/',
  transactions: 'transactions/create/',
  'payment-instructions': 'payment-instruction/create/',
} as const;

export type PostImportKind = keyof typeof POST_IMPORT_PATHS;
export type LoadKind = 'accounts' | PostImportKind;

export const LOAD_KINDS: readonly LoadKind[] = [
  'accounts',
  ...(Object.keys(POST_IMPORT_PATHS) as PostImportKind[]),
];

/** The kinds whose request body takes `dry_run` (accounts: their process request). */
export const DRY_RUN_KINDS: ReadonlySet<LoadKind> = new Set(['accounts', 'transactions']);

export const isLoadKind = (value: string): value is LoadKind =>
  (LOAD_KINDS as readonly string[]).includes(value);
