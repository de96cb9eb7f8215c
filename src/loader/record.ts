/**
 * One record of the input through the loader, whatever it loads: its checks (JSON, an object),
 * the supplier filled in, the request(s) `send` makes for it, and its outcome counted and, when
 * it failed, reported. Accounts (./account.ts) and post-import records (./post-import.ts) share
 * it.
 */
import type { InputRecord } from './input.js';
import type { Failure, ReportWriter, Step } from './report.js';
import type { Outcome, Tally } from './tally.js';

export interface RecordContext {
  tally: Tally;
  report: ReportWriter;
  /** Fills import_supplier when a record has none (absent or null). */
  supplier: string | undefined;
}

/** A failed outcome. */
export function failure(
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

/** The failure of a record whose request ended in an error (with its code and status, if any). */
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

/**
 * An error that ends the run and already carries this record's outcome (the run's --team names
 * no team): it is counted as this record's failure, then ends the run.
 */
export class RunEndingRefusal extends Error {
  constructor(
    message: string,
    readonly outcome: Outcome,
  ) {
    super(message);
  }
}

function settle(ctx: RecordContext, outcome: Outcome): void {
  ctx.tally.record(outcome);
  if (outcome.kind === 'failed') ctx.report.write(outcome.failure);
}

/** Sends one checked record; `at.step` says which request is under way, for its failure. */
export type SendRecord = (payload: Record<string, unknown>, at: { step: Step }) => Promise<Outcome>;

/**
 * Loads one record and counts its outcome. An error that ends the whole run (the service
 * unreachable after every retry, the key refused, no such team) is counted as this record's
 * failure and then thrown on. `external`: the account number a payload names, for its failure.
 */
export async function loadRecord(
  record: InputRecord,
  ctx: RecordContext,
  first: Step,
  external: (payload: Record<string, unknown>) => unknown,
  send: SendRecord,
): Promise<void> {
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
  const value = record.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    settle(
      ctx,
      failure(record.line, null, 'parse', null, [
        { code: 'not_an_object', attr: null, detail: 'The record is JSON but not an object.' },
      ]),
    );
    return;
  }
  const payload = value as Record<string, unknown>;
  const noSupplier = payload.import_supplier === undefined || payload.import_supplier === null;
  if (noSupplier && ctx.supplier !== undefined) {
    payload.import_supplier = ctx.supplier;
  }
  const at: { step: Step } = { step: first };
  try {
    settle(ctx, await send(payload, at));
  } catch (error) {
    settle(
      ctx,
      error instanceof RunEndingRefusal
        ? error.outcome
        : failureOf(error, record.line, external(payload) ?? null, at.step),
    );
    throw error;
  }
}
