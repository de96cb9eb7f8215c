/**
 * `runLoad`: the bulk loader as a function. It checks its options, obtains a token, reads the
 * file as a stream and pushes every account through stage and process with bounded
 * concurrency, then returns the summary. The CLI (src/cli/load.ts) only parses and prints.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AdaptiveLimit } from './adaptive-limit.js';
import { CompletedIndex, loadAccount } from './account.js';
import { Journal } from './journal.js';
import { DRY_RUN_KINDS, type LoadKind } from './kinds.js';
import { loadPostImport } from './post-import.js';
import { RunEndingRefusal, type RecordContext } from './record.js';
import { HttpClient, NetworkError } from './http.js';
import { countRecords, detectFormat, readRecords, type InputRecord } from './input.js';
import { runPool } from './pool.js';
import { Progress, type ProgressTarget } from './progress.js';
import { ReportWriter } from './report.js';
import {
  DEFAULT_RETRY_POLICY,
  REAL_ENVIRONMENT,
  type RetryEnvironment,
  type RetryPolicy,
} from './retry.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';
import { AuthenticationError, ServiceApi, UnexpectedAnswerError } from './service-api.js';
import { Tally, type LoadSummary } from './tally.js';
import {
  graphqlTokenEndpoint,
  TokenManager,
  TokenRefusedError,
  TokenUnavailableError,
} from './tokens.js';

export type { LoadSummary } from './tally.js';
export { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './limits.js';

export interface LoadOptions {
  file: string;
  /** What the file holds: accounts (the default), or records of a post-import kind. */
  kind?: LoadKind;
  url: string;
  apiKey: string;
  /** Operations team of created accounts; required unless stageOnly (accounts only). */
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

export interface LoadResult {
  summary: LoadSummary;
  /** Why the run stopped early on its own (service unreachable, key refused, no such team). */
  fatal?: string;
}

/** Bad options or a run that cannot start: the message is for the user, as is. */
export class LoadError extends Error {}

async function checkOptions(options: LoadOptions): Promise<void> {
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
  if (kind === 'accounts' && !options.stageOnly && !options.team) {
    throw new LoadError('--team is required to create accounts (or use --stage-only)');
  }
  if (options.stageOnly && options.dryRun) {
    throw new LoadError('--stage-only and --dry-run cannot be combined');
  }
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new LoadError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  try {
    new URL(options.url);
  } catch {
    throw new LoadError(`not a URL: ${options.url}`);
  }
  const info = await stat(options.file).catch(() => undefined);
  if (info === undefined) throw new LoadError(`cannot read ${options.file}: no such file`);
  if (!info.isFile()) throw new LoadError(`cannot read ${options.file}: not a file`);
  // Opening the report empties it: were it the input, the run would read nothing and succeed.
  const reportPath = reportPathOf(options);
  const report = await stat(reportPath).catch(() => undefined);
  if (report?.dev === info.dev && report.ino === info.ino) {
    throw new LoadError(`the report ${reportPath} is the input file; choose another --report`);
  }
}

const reportPathOf = (options: LoadOptions): string =>
  options.report ?? defaultReportPath(options.file);

/** The message for an error that ends a run, or undefined for a bug (thrown on). */
function fatalMessage(error: unknown, url: string): string | undefined {
  if (error instanceof NetworkError) return `cannot reach the service at ${url}: ${error.code}`;
  if (error instanceof TokenRefusedError) {
    return `the service refused the credentials (${error.code}): ${error.message}`;
  }
  if (error instanceof TokenUnavailableError) {
    return `the token endpoint kept failing (${error.code}): ${error.message}`;
  }
  if (error instanceof AuthenticationError) {
    return `the service refused the token (${error.code}): ${error.message}`;
  }
  if (error instanceof UnexpectedAnswerError || error instanceof RunEndingRefusal) {
    return error.message;
  }
  return undefined;
}

/**
 * Where a post-import kind's journal is kept without --journal: beside the input, named after it
 * and the kind (`transactions.ndjson` → `transactions.transactions.done`).
 */
export function defaultJournalPath(file: string, kind: LoadKind): string {
  return join(
    dirname(file),
    `${basename(file).replace(/\.(ndjson|jsonl|json)$/i, '')}.${kind}.done`,
  );
}

/**
 * Where failures are reported without --report: beside the input, named after it
 * (`accounts.ndjson` → `accounts.failures.ndjson`), so that no failure goes unrecorded.
 */
export function defaultReportPath(file: string): string {
  return join(
    dirname(file),
    `${basename(file).replace(/\.(ndjson|jsonl|json)$/i, '')}.failures.ndjson`,
  );
}

async function openReport(options: LoadOptions): Promise<ReportWriter> {
  const path = reportPathOf(options);
  return ReportWriter.open(path).catch((error: Error) => {
    const hint = options.report === undefined ? ' (choose another path with --report)' : '';
    throw new LoadError(`cannot write the report ${path}: ${error.message}${hint}`);
  });
}

/** What loads one record of the kind, with the run's context. */
function loaderOf(
  kind: LoadKind,
  shared: RecordContext & { api: ServiceApi; dryRun: boolean },
  options: LoadOptions,
  completed: CompletedIndex,
  journal: Journal | undefined,
): (record: InputRecord) => Promise<void> {
  if (kind === 'accounts') {
    const context = {
      ...shared,
      completed,
      team: options.team,
      stageOnly: options.stageOnly ?? false,
    };
    return (record) => loadAccount(record, context);
  }
  const context = { ...shared, kind, journal: journal as Journal };
  return (record) => loadPostImport(record, context);
}

/** Runs the load; throws LoadError when it cannot start, returns the summary otherwise. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  await checkOptions(options);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const given = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  // Until the service has answered once, an outage is not waited out: a wrong --url or a
  // service that is not up ends the run after the usual attempts, not after a minute. The
  // window opens (below) once the run has started; every user of `policy` shares the object.
  const policy = { ...given, outageWindowMs: 0 };
  const env = options.environment ?? REAL_ENVIRONMENT;
  const format = await detectFormat(options.file);
  // A couple of spare connections for token renewals and list pages.
  const http = new HttpClient(options.url, concurrency + 2);
  const endpoint = graphqlTokenEndpoint(http, policy, env, () => api.retries++);
  const tokens = new TokenManager(endpoint, options.apiKey);
  const api = new ServiceApi(http, tokens, new AdaptiveLimit(concurrency), policy, env);
  const completed = new CompletedIndex((supplier) => api.importedAccounts(supplier));
  const tally = new Tally();
  const startedAt = Date.now();
  const counting = new AbortController();
  let fatal: string | undefined;
  let report: ReportWriter | undefined;
  let journal: Journal | undefined;
  const kind = options.kind ?? 'accounts';
  try {
    try {
      // Fail before reading anything when the key is wrong or the service is down.
      await tokens.token();
      policy.outageWindowMs = given.outageWindowMs;
      if (kind === 'accounts' && options.supplier !== undefined) {
        await completed.imported(options.supplier);
      }
    } catch (error) {
      throw new LoadError(fatalMessage(error, options.url) ?? String(error));
    }
    // Only now is the report emptied: a run that cannot start keeps the last run's failures.
    report = await openReport(options);
    if (kind !== 'accounts') {
      const path = options.journal ?? defaultJournalPath(options.file, kind);
      journal = await Journal.open(path).catch((error: Error) => {
        throw new LoadError(`cannot keep the journal ${path}: ${error.message}`);
      });
    }

    const progress = options.progress && new Progress(tally, options.progress);
    progress?.start();
    // The count is only for the ETA: a slow or failed count must not hold the run up.
    if (progress) {
      void countRecords(options.file, format, counting.signal)
        .then((total) => progress.setTotal(total))
        .catch(() => undefined);
    }
    const shared = {
      api,
      tally,
      report,
      supplier: options.supplier,
      dryRun: options.dryRun ?? false,
    };
    const load = loaderOf(kind, shared, options, completed, journal);
    try {
      await runPool(
        readRecords(options.file, format),
        concurrency,
        load,
        () => options.signal?.aborted === true,
      );
    } catch (error) {
      fatal = fatalMessage(error, options.url);
      if (fatal === undefined) throw error;
    } finally {
      progress?.stop();
    }
  } finally {
    counting.abort();
    await report?.close();
    await journal?.close();
    await http.close();
  }

  const elapsed = (Date.now() - startedAt) / 1000;
  const summary: LoadSummary = {
    file: options.file,
    kind,
    mode: options.stageOnly ? 'stage-only' : options.dryRun ? 'dry-run' : 'create',
    total: tally.read,
    succeeded: tally.succeeded,
    failed: tally.failed,
    failed_by_step: { ...tally.failedByStep },
    staged: tally.staged,
    created: tally.created,
    added: tally.added,
    dry_run_ok: tally.dryRunOk,
    skipped_completed: tally.skippedCompleted,
    skipped_marked: tally.skippedMarked,
    interrupted: options.signal?.aborted === true,
    elapsed_seconds: Math.round(elapsed * 100) / 100,
    rate_per_second: elapsed > 0 ? Math.round((tally.finished / elapsed) * 10) / 10 : 0,
    retries: api.retries,
    token_renewals: tokens.renewals,
    report: reportPathOf(options),
  };
  return fatal === undefined ? { summary } : { summary, fatal };
}
