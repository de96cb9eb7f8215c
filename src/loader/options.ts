/**
 * The loader's options, and the checks a run makes of them before it sends anything: values,
 * the service's URL, and the files it reads and writes (the input, the report, a journal).
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DRY_RUN_KINDS, type LoadKind } from './kinds.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';
import type { ProgressTarget } from './progress.js';
import type { RetryEnvironment, RetryPolicy } from './retry.js';

export interface LoadOptions {
  file: string;
  /** What the file holds: accounts (the default), or records of a post-import kind. */
  kind?: LoadKind;
  url: string;
  apiKey: string;
  /**
   * Operations team of created accounts (accounts only). Left out, the process requests name
   * none, as a supplier that allocates its accounts to a team itself wants.
   */
  team?: string;
  /** Fills import_supplier on records without one; its imported list is read up front. */
  supplier?: string;
  stageOnly?: boolean;
  dryRun?: boolean;
  concurrency?: number;
  /** Path of the NDJSON failure report; by default beside the input (defaultReportPath). */
  report?: string;
  /** Path of a post-import kind's journal; by default beside the input (defaultJournalPath). */
  journal?: string;
  /** Aborting stops taking new records; in-flight ones finish (Ctrl-C). */
  signal?: AbortSignal;
  /** Where progress goes (stderr in the CLI); none when omitted. */
  progress?: ProgressTarget;
  retryPolicy?: RetryPolicy;
  environment?: RetryEnvironment;
}

/** Bad options or a run that cannot start: the message is for the user, as is. */
export class LoadError extends Error {}

/** Refuses bad options, and files that would overwrite one another, before the run starts. */
export async function checkOptions(options: LoadOptions): Promise<void> {
  if (!options.apiKey) {
    throw new LoadError('no API key: pass --api-key or set ACCOUNT_IMPORT_API_KEY');
  }
  const kind = options.kind ?? 'accounts';
  if (kind !== 'accounts' && options.stageOnly) {
    throw new LoadError(`--stage-only is for accounts, not ${kind}`);
  }
  if (options.dryRun && !DRY_RUN_KINDS.has(kind)) {
    throw new LoadError(`--dry-run is not available for ${kind}`);
  }
  if (kind === 'accounts' && !options.stageOnly && options.team === '') {
    throw new LoadError(
      '--team is empty: name an operations team, or leave --team out for a supplier that allocates one',
    );
  }
  if (options.stageOnly && options.dryRun) {
    throw new LoadError('--stage-only and --dry-run cannot be combined');
  }
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new LoadError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  checkUrl(options.url);
  const info = await stat(options.file).catch(() => undefined);
  if (info === undefined) throw new LoadError(`cannot read ${options.file}: no such file`);
  if (!info.isFile()) throw new LoadError(`cannot read ${options.file}: not a file`);
  // Opening the report empties it: were it the input, the run would read nothing and succeed.
  const reportPath = reportPathOf(options);
  if (await sameFile(reportPath, options.file)) {
    throw new LoadError(`the report ${reportPath} is the input file; choose another --report`);
  }
  if (kind === 'accounts') return;
  // The journal is appended to: the input would grow hash lines, the report would lose them.
  const journalPath = journalPathOf(options, kind);
  if (await sameFile(journalPath, options.file)) {
    throw new LoadError(`the journal ${journalPath} is the input file; choose another --journal`);
  }
  if (await sameFile(journalPath, reportPath)) {
    throw new LoadError(`the journal ${journalPath} is the report; choose another --journal`);
  }
}

/** The service is reached over HTTP: any other scheme would only fail after every retry. */
function checkUrl(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LoadError(`not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LoadError(`not an http or https URL: ${raw}`);
  }
}

/**
 * Whether two paths name the same regular file, or the same path when neither exists yet. A
 * device such as /dev/null may serve as both.
 */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([a, b].map((path) => stat(path).catch(() => null)));
  if (!first || !second) return !first && !second && resolve(a) === resolve(b);
  return first.isFile() && first.dev === second.dev && first.ino === second.ino;
}

export const reportPathOf = (options: LoadOptions): string =>
  options.report ?? defaultReportPath(options.file);

export const journalPathOf = (options: LoadOptions, kind: LoadKind): string =>
  options.journal ?? defaultJournalPath(options.file, kind);

/** A file beside the input, named after it without its extension, then `suffix`. */
const besideInput = (file: string, suffix: string): string =>
  join(dirname(file), `${basename(file).replace(/\.(ndjson|jsonl|json)$/i, '')}${suffix}`);

/**
 * Where a post-import kind's journal is kept without --journal: beside the input, named after it
 * and the kind (`transactions.ndjson` → `transactions.transactions.done`).
 */
export function defaultJournalPath(file: string, kind: LoadKind): string {
  return besideInput(file, `.${kind}.done`);
}

/**
 * Where failures are reported without --report: beside the input, named after it
 * (`accounts.ndjson` → `accounts.failures.ndjson`), so that no failure goes unrecorded.
 */
export function defaultReportPath(file: string): string {
  return besideInput(file, '.failures.ndjson');
}
