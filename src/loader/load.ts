/**
 * `runLoad`: the bulk loader as a function. It checks its options, obtains a token, reads the
 * file as a stream and pushes every account through stage and process with bounded
 * concurrency, then returns the summary. The CLI (src/cli/load.ts) only parses and prints.
 */
import { AdaptiveLimit } from './adaptive-limit.js';
import { CompletedIndex, loadAccount } from './account.js';
import { Journal } from './journal.js';
import type { LoadKind } from './kinds.js';
import {
  checkOptions,
  journalPathOf,
  LoadError,
  reportPathOf,
  type LoadOptions,
} from './options.js';
import { loadPostImport } from './post-import.js';
import { RunEndingRefusal, type RecordContext } from './record.js';
import { HttpClient, NetworkError } from './http.js';
import { countRecords, detectFormat, readRecords, type InputRecord } from './input.js';
import { runPool } from './pool.js';
import { Progress } from './progress.js';
import { ReportWriter } from './report.js';
import { DEFAULT_RETRY_POLICY, REAL_ENVIRONMENT } from './retry.js';
import { DEFAULT_CONCURRENCY } from './limits.js';
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
export { defaultJournalPath, defaultReportPath, LoadError, type LoadOptions } from './options.js';

export interface LoadResult {
  summary: LoadSummary;
  /** Why the run stopped early on its own (service unreachable, key refused, no such team). */
  fatal?: string;
  /**
   * The report or the journal could not be written (a full disk): the run stopped taking
   * records. Not the data's fault nor the service's, so an unexpected failure.
   */
  writeError?: string;
}

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
  const summary = () => summaryOf(options, tally, api.retries, tokens.renewals, startedAt);
  const counting = new AbortController();
  let fatal: string | undefined;
  let writeError: string | undefined;
  let report: ReportWriter | undefined;
  let journal: Journal | undefined;
  const kind = options.kind ?? 'accounts';
  try {
    try {
      // Fail before reading anything when the key is wrong or the service is down.
      await tokens.token(options.signal);
      policy.outageWindowMs = given.outageWindowMs;
      if (kind === 'accounts' && options.supplier !== undefined) {
        await completed.imported(options.supplier);
      }
    } catch (error) {
      // Ctrl-C before the run started: nothing was sent, and the summary says so.
      if (options.signal?.aborted) return { summary: summary() };
      throw new LoadError(fatalMessage(error, options.url) ?? String(error));
    }
    // Only now is the report emptied: a run that cannot start keeps the last run's failures.
    report = await openReport(options);
    if (kind !== 'accounts') {
      const path = journalPathOf(options, kind);
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
    // Ctrl-C, or a file that can no longer be written: the records in flight finish.
    const stopped = () =>
      options.signal?.aborted === true ||
      report?.failed !== undefined ||
      journal?.failed !== undefined;
    try {
      await runPool(readRecords(options.file, format), concurrency, load, stopped);
    } catch (error) {
      fatal = fatalMessage(error, options.url);
      if (fatal === undefined) throw error;
    } finally {
      progress?.stop();
    }
  } finally {
    counting.abort();
    writeError = await closeFiles(options, report, journal);
    await http.close();
  }
  const result: LoadResult = { summary: summary() };
  if (fatal !== undefined) result.fatal = fatal;
  if (writeError !== undefined) result.writeError = writeError;
  return result;
}

/**
 * Closes the report and the journal, each once every line is written; the message for the
 * first whose writes failed, if any.
 */
async function closeFiles(
  options: LoadOptions,
  report: ReportWriter | undefined,
  journal: Journal | undefined,
): Promise<string | undefined> {
  const reportError = await report?.close();
  const journalError = await journal?.close();
  if (reportError)
    return `cannot write the report ${reportPathOf(options)}: ${reportError.message}`;
  if (journalError) {
    const path = journalPathOf(options, options.kind ?? 'accounts');
    return `cannot keep the journal ${path}: ${journalError.message}`;
  }
  return undefined;
}

/** The run's summary as it stands. */
function summaryOf(
  options: LoadOptions,
  tally: Tally,
  retries: number,
  tokenRenewals: number,
  startedAt: number,
): LoadSummary {
  const elapsed = (Date.now() - startedAt) / 1000;
  return {
    file: options.file,
    kind: options.kind ?? 'accounts',
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
    retries,
    token_renewals: tokenRenewals,
    report: reportPathOf(options),
  };
}
