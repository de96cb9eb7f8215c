/**
 * One account through the loader: skip it when already imported, stage it, then process it (or
 * stop after staging), and turn each answer into an outcome.
 */
import { quoted } from '../shared/quoted.js';
import type { HttpResponse } from './http.js';
import type { InputRecord } from './input.js';
import { failure, loadRecord, RunEndingRefusal, type RecordContext } from './record.js';
import { errorsOf, type Step } from './report.js';
import { errorCode, type ServiceApi } from './service-api.js';
import type { Outcome } from './tally.js';

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

export interface AccountContext extends RecordContext {
  api: ServiceApi;
  completed: CompletedIndex;
  team: string | undefined;
  stageOnly: boolean;
  dryRun: boolean;
}

const ALREADY_IMPORTED = 'account_import_process_already_imported';
const SKIP_MARKED = 'account_import_process_skipped';
const UNKNOWN_TEAM = 'operations_team_name_does_not_exist';

/** A refusal that is not a failure: the account is already done, or meant to be skipped. */
function refusal(response: HttpResponse, line: number, external: unknown, step: Step): Outcome {
  const code = errorCode(response);
  if (response.status === 400 && code === ALREADY_IMPORTED) return { kind: 'skipped_completed' };
  if (response.status === 400 && code === SKIP_MARKED) return { kind: 'skipped_marked' };
  return failure(line, external, step, response.status, errorsOf(response));
}

async function send(
  line: number,
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
    return refusal(staged, line, payload.external_account_number ?? null, 'stage');
  }
  ctx.tally.staged++;
  if (ctx.stageOnly) return { kind: 'staged' };
  at.step = 'process';
  const { response: processed, mayHaveCreated } = await ctx.api.process({
    // A successful stage proves both are strings.
    external_account_number: String(external),
    import_supplier_code: String(supplier),
    // Without --team the request names none: the supplier's own allocation then applies.
    ...(ctx.team === undefined ? {} : { operations_team_name: ctx.team }),
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
  const outcome = refusal(processed, line, external, 'process');
  // Only --team is every account's team; a supplier's allocated team is its accounts' alone.
  if (ctx.team !== undefined && processed.status === 400 && errorCode(processed) === UNKNOWN_TEAM) {
    throw new RunEndingRefusal(
      `the service has no operations team named ${quoted(ctx.team)} (${UNKNOWN_TEAM}); ` +
        'add it with `account-import team add`, or pass the name of an existing one with --team',
      outcome,
    );
  }
  return outcome;
}

/**
 * Loads one account and counts its outcome (./record.ts); a record whose team is unknown ends
 * the run (RunEndingRefusal).
 */
export function loadAccount(record: InputRecord, ctx: AccountContext): Promise<void> {
  return loadRecord(
    record,
    ctx,
    'stage',
    (payload) => payload.external_account_number,
    (payload, at) => send(record.line, payload, ctx, at),
  );
}
