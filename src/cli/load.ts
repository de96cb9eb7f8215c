/** `load FILE`: the bulk loader (src/loader/), its options, summary and exit code. */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { decimalInteger } from '../config.js';
import { isLoadKind, LOAD_KINDS, type LoadKind } from '../loader/kinds.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../loader/limits.js';
import { formatSummary } from '../loader/tally.js';
import { EXIT_UNEXPECTED } from './run.js';

interface LoadCommandOptions {
  kind: LoadKind;
  journal?: string;
  url: string;
  apiKey?: string;
  team?: string;
  supplier?: string;
  stageOnly?: boolean;
  dryRun?: boolean;
  concurrency: number;
  report?: string;
}

/**
 * Exit codes: 0 every account succeeded, 1 some failed or the run could not go on, 2 the report
 * or the journal could not be written (EXIT_UNEXPECTED), 130 Ctrl-C.
 */
export const EXIT_SOME_FAILED = 1;
export const EXIT_INTERRUPTED = 130;

function concurrency(raw: string): number {
  const value = decimalInteger(raw.trim(), 1, MAX_CONCURRENCY);
  if (value === undefined) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  return value;
}

function kind(raw: string): LoadKind {
  if (!isLoadKind(raw)) throw new InvalidArgumentError(`must be one of ${LOAD_KINDS.join(', ')}.`);
  return raw;
}

/**
 * The first Ctrl-C stops taking new accounts and lets the in-flight ones finish; a second one
 * quits at once.
 */
function interruptOnSigint(controller: AbortController): () => void {
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort();
    process.stderr.write(
      '\ninterrupted: finishing the accounts in flight (Ctrl-C again to quit at once)\n',
    );
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}

export function registerLoad(program: Command): void {
  program
    .command('load')
    .description(
      'stage and create every account of an NDJSON or JSON array file, or post every record of a post-import kind',
    )
    .argument('<file>', 'one JSON payload a line (NDJSON), or one JSON array')
    .option(
      '--kind <kind>',
      `what the file holds: ${LOAD_KINDS.join(', ')} (each record the body of its post-import endpoint)`,
      kind,
      'accounts',
    )
    .option('--url <url>', 'base URL of the service', 'http://127.0.0.1:8000')
    .addOption(
      new Option('--api-key <key>', 'API key of the organisation').env('ACCOUNT_IMPORT_API_KEY'),
    )
    .option(
      '--team <name>',
      'operations team of the created accounts, which must exist; leave it out for a supplier that allocates one (--stage-only ignores it)',
    )
    .option('--supplier <code>', 'import supplier of records without import_supplier')
    .option('--stage-only', 'stage (and so validate) only; create no account')
    .option(
      '--dry-run',
      'stage every account and test its creation, rolled back (the stages are kept), or test every transaction',
    )
    .option('--concurrency <n>', 'accounts in flight at once', concurrency, DEFAULT_CONCURRENCY)
    .option(
      '--report <path>',
      'write every failed account as a line of NDJSON to this file (default: beside the input, its extension replaced by .failures.ndjson)',
    )
    .option(
      '--journal <path>',
      'post-import kinds: where the records taken are kept, to skip them when the run is started again (default: beside the input, its extension replaced by .<kind>.done)',
    )
    .action(async (file: string, options: LoadCommandOptions, command: Command) => {
      const json = command.optsWithGlobals<{ json?: boolean }>().json === true;
      // Loaded here, so that other commands never load the HTTP client.
      const { LoadError, runLoad } = await import('../loader/load.js');
      const controller = new AbortController();
      const release = interruptOnSigint(controller);
      let result;
      try {
        result = await runLoad({
          file,
          kind: options.kind,
          journal: options.journal,
          url: options.url,
          apiKey: options.apiKey ?? '',
          team: options.team,
          supplier: options.supplier,
          stageOnly: options.stageOnly,
          dryRun: options.dryRun,
          concurrency: options.concurrency,
          report: options.report,
          signal: controller.signal,
          progress: process.stderr,
        });
      } catch (error) {
        if (error instanceof LoadError) command.error(`error: ${error.message}`, { exitCode: 1 });
        throw error;
      } finally {
        release();
      }
      const { summary, fatal, writeError } = result;
      process.stdout.write(json ? `${JSON.stringify(summary)}\n` : `${formatSummary(summary)}\n`);
      // A report or journal that could not be written outweighs why the run stopped.
      const message = writeError ?? fatal;
      if (message !== undefined) {
        process.stderr.write(
          json ? `${JSON.stringify({ error: message })}\n` : `error: ${message}\n`,
        );
      }
      let code = 0;
      if (writeError !== undefined) code = EXIT_UNEXPECTED;
      else if (summary.interrupted) code = EXIT_INTERRUPTED;
      else if (fatal !== undefined || summary.failed > 0) code = EXIT_SOME_FAILED;
      // Carries the exit code through runCli without a message of its own.
      if (code !== 0) throw new CommanderError(code, 'account-import.load', '');
    });
}
