/**
 * One account through the loader: check the record, skip it when already imported, stage it,
 * then process it (or stop after staging), and turn each answer into an outcome.
 */
import { quoted } from '../shared/quoted.js';
import type { HttpResponse } from './http.js';
import type { InputRecord } from './input.js';
import { errorsOf, type Failure, type ReportWriter, type Step } from './report.js';
import { errorCode, type ServiceApi } from './service-api.js';
import type { Outcome, Tally } from './tally.js';

/** The external numbers already imported, per supplier, each list read once when first met. */
export class CompletedIndex {
  private readonly bySupplier = new Map<string, Promise<Set<string>>>();

  constructor(private readonly load: (supplier: string) => Promise<Set<string>>) {}

  /** The supplier's imported set, read from the service the first time it is asked for. */
  imported(supplier: string): Promise<Set<string>> {
    let imported = this.bySupplier.get(supplier);
    if (imported === undefined) this.bySupplier.set(supplier, (imported = this.load(supplier)));
    return imported;
  }

  async has(supplier: string, externalNumber: string): Promise<boolean> {
    return (await this.imported(supplier)).has(externalNumber);
  }
}

export interface AccountContext {
  api: ServiceApi;
  completed: CompletedIndex;
  tally: Tally;
  report: ReportWriter;
  /** Fills import_supplier when a record has none (absent or null). */
  supplier: string | undefined;
  team: string | undefined;
  stageOnly: boolean;
  dryRun: boolean;
}

const ALREADY_IMPORTED = 'account_import_process_already_imported';
const SKIP_MARKED = 'account_import_process_skipped';
const UNKNOWN_TEAM = 'operations_team_name_does_not_exist';

/**
 * A refusal every later account would meet as well (the run's --team names no team): it is
 * counted as this account's failure, then ends the run as an unreachable service does.
 */
export class RunEndingRefusal extends Error {
  constructor(
    message: string,
    readonly outcome: Outcome,
  ) {
    super(message);
  }
}

function failure(
  line: number,
  external: unknown,
  step: Step,
  status: number | null,
  errors: Failure['errors'],
): Outcome {
  return {
    kind: 'failed',
    failure: { line, external_account_number: external, step, status, errors },
  };
}

/** A refusal that is not a failure: the account is already done, or meant to be skipped. */
function refusal(response: HttpResponse, line: number, external: unknown, step: Step): Outcome {
  const code = errorCode(response);
  if (response.status === 400 && code === ALREADY_IMPORTED) return { kind: 'skipped_completed' };
  if (response.status === 400 && code === SKIP_MARKED) return { kind: 'skipped_marked' };
  return failure(line, external, step, response.status, errorsOf(response));
}

async function send(
  record: Extract<InputRecord, { error?: undefined }>,
  payload: Record<string, unknown>,
  ctx: AccountContext,
  at: { step: Step },
): Promise<Outcome> {
  const external =
    typeof payload.external_account_number === 'string' ? payload.external_account_number : null;
  const supplier = typeof payload.import_supplier === 'string' ? payload.import_supplier : null;
  if (external !== null && supplier !== null && (await ctx.completed.has(supplier, external))) {
    return { kind: 'skipped_completed' };
  }
  at.step = 'stage';
  const staged = await ctx.api.stage(payload);
  if (staged.status !== 200 && staged.status !== 201) {
    return refusal(staged, record.line, payload.external_account_number ?? null, 'stage');
  }
  ctx.tally.staged++;
  if (ctx.stageOnly) return { kind: 'staged' };
  at.step = 'process';
  const { response: processed, mayHaveCreated } = await ctx.api.process({
    // A successful stage proves both are strings.
    external_account_number: String(external),
    import_supplier_code: String(supplier),
    operations_team_name: ctx.team ?? '',
    dry_run: ctx.dryRun,
  });
  if (processed.status === 201) return { kind: 'created' };
  // The service created it for an attempt whose answer was lost: this run's creation.
  if (mayHaveCreated && !ctx.dryRun && errorCode(processed) === ALREADY_IMPORTED) {
    return { kind: 'created' };
  }
  if (ctx.dryRun && processed.status === 400 && errorCode(processed) === 'dry_run_rolled_back') {
    return { kind: 'dry_run_ok' };
  }
  const outcome = refusal(processed, record.line, external, 'process');
  if (processed.status === 400 && errorCode(processed) === UNKNOWN_TEAM) {
    throw new RunEndingRefusal(
      `the service has no operations team named ${quoted(ctx.team ?? '')} (${UNKNOWN_TEAM}); ` +
        'add it with `account-import team add`, or pass the name of an existing one with --team',
      outcome,
    );
  }
  return outcome;
}

/** The failure of an account whose request ended in an error (with its code and status, if any). */
function failureOf(error: unknown, line: number, external: unknown, step: Step): Outcome {
  const { code, status } = error as { code?: unknown; status?: unknown };
  return failure(line, external, step, typeof status === 'number' ? status : null, [
    {
      code: typeof code === 'string' ? code : 'error',
      attr: null,
      detail: error instanceof Error ? error.message : String(error),
    },
  ]);
}

function settle(ctx: AccountContext, outcome: Outcome): void {
  ctx.tally.record(outcome);
  if (outcome.kind === 'failed') ctx.report.write(outcome.failure);
}

/**
 * Loads one record and counts its outcome. An error that ends the whole run (the service
 * unreachable after every retry, the key refused, no such team) is counted as this account's
 * failure and then thrown on.
 */
export async function loadAccount(record: InputRecord, ctx: AccountContext): Promise<void> {
  ctx.tally.read++;
  if (record.error !== undefined) {
    settle(
      ctx,
      failure(record.line, null, 'parse', null, [
        { code: record.code, attr: null, detail: record.error },
      ]),
    );
    return;
  }
  const payload = record.value;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    settle(
      ctx,
      failure(record.line, null, 'parse', null, [
        { code: 'not_an_object', attr: null, detail: 'The record is JSON but not an object.' },
      ]),
    );
    return;
  }
  const account = payload as Record<string, unknown>;
  const noSupplier = account.import_supplier === undefined || account.import_supplier === null;
  if (noSupplier && ctx.supplier !== undefined) {
    account.import_supplier = ctx.supplier;
  }
  const at: { step: Step } = { step: 'stage' };
  try {
    settle(ctx, await send(record, account, ctx, at));
  } catch (error) {
    const external = account.external_account_number ?? null;
    settle(
      ctx,
      error instanceof RunEndingRefusal
        ? error.outcome
        : failureOf(error, record.line, external, at.step),
    );
    throw error;
  }
}
