/**
 * One post-import record through the loader (notes, statements, transactions, payment
 * instructions): skipped when the journal has it, else posted to its endpoint. A 2xx answer is
 * the record's success, except a transactions answer with a TRANSACTION_IMPORT_ERROR, which is
 * a failure reporting each such transaction (the others were added, and are answered
 * TRANSACTION_ALREADY_EXISTS when the record is sent again).
 */
import type { HttpResponse } from './http.js';
import type { InputRecord } from './input.js';
import type { Journal } from './journal.js';
import type { PostImportKind } from './kinds.js';
import { failure, loadRecord, type RecordContext } from './record.js';
import { errorsOf, type ReportedError } from './report.js';
import type { ServiceApi } from './service-api.js';
import type { Outcome } from './tally.js';

export interface PostImportContext extends RecordContext {
  api: ServiceApi;
  kind: PostImportKind;
  journal: Journal;
  dryRun: boolean;
}

/** The account number a post-import body names (`account_number` is the deprecated name). */
const externalOf = (payload: Record<string, unknown>): unknown =>
  payload.external_account_number ?? payload.account_number;

interface TransactionResult {
  status?: unknown;
  error?: { code?: unknown; attr?: unknown; detail?: unknown };
}

/** The TRANSACTION_IMPORT_ERRORs of a transactions answer, as report errors. */
function importErrors(response: HttpResponse): ReportedError[] {
  const results = (response.body as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results)) return [];
  return (results as TransactionResult[]).flatMap((result, i) => {
    if (result.status !== 'TRANSACTION_IMPORT_ERROR') return [];
    const { code, attr, detail } = result.error ?? {};
    return [
      {
        code: typeof code === 'string' ? code : 'transaction_import_error',
        attr: `transactions.${i}${typeof attr === 'string' ? `.${attr}` : ''}`,
        detail: typeof detail === 'string' ? detail : '',
      },
    ];
  });
}

async function send(
  line: number,
  payload: Record<string, unknown>,
  ctx: PostImportContext,
): Promise<Outcome> {
  if (ctx.journal.has(payload)) return { kind: 'skipped_completed' };
  const body = ctx.dryRun ? { ...payload, dry_run: true } : payload;
  const response = await ctx.api.postImport(ctx.kind, body);
  if (response.status < 200 || response.status >= 300) {
    return failure(line, externalOf(payload) ?? null, 'post', response.status, errorsOf(response));
  }
  const errors = ctx.kind === 'transactions' ? importErrors(response) : [];
  if (errors.length > 0) {
    return failure(line, externalOf(payload) ?? null, 'post', response.status, errors);
  }
  // A dry run keeps nothing, so a later run must send the record again.
  if (!ctx.dryRun) ctx.journal.add(payload);
  return { kind: ctx.dryRun ? 'dry_run_ok' : 'added' };
}

/** Loads one post-import record and counts its outcome (./record.ts). */
export function loadPostImport(record: InputRecord, ctx: PostImportContext): Promise<void> {
  return loadRecord(record, ctx, 'post', externalOf, (payload) => send(record.line, payload, ctx));
}
