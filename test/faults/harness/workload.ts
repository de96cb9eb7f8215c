/**
 * A migration client as the fault tests drive it: each worker takes its own accounts one after
 * the other, stages each one 1–3 times (each version marked in billing_name), then processes
 * it, retrying whatever the protocol says to retry (409, 429 after Retry-After, 503) and
 * whatever a fault interrupted. Every acknowledgement lands in the ledger.
 */
import { Prng } from '../../../src/sample/prng.js';
import { buildAccount } from '../../account/factory.js';
import { errorCode, type Client, type Outcome, type TransportFailure } from './client.js';
import { SUPPLIER, TEAM } from './fixture.js';
import { marker, type Ledger } from './ledger.js';

export const STAGE_PATH = '/v1/data-import/account-import-process/create-or-update/';
export const PROCESS_PATH = '/v1/data-import/account-import-process/process/';

export function statusPath(external: string): string {
  return `/v1/data-import/account-transfer-status/${SUPPLIER}/${encodeURIComponent(external)}/`;
}

export interface WorkerOptions {
  client: Client;
  ledger: Ledger;
  /** Prefix of this worker's external account numbers; unique per worker and run. */
  prefix: string;
  seed: number;
  /** True once the test wants the workers to finish. */
  stopping: () => boolean;
  /**
   * Called after a transport failure (the service died, closed the connection or refused it).
   * Resolves true to try again (after the service is back), false to stop this worker.
   */
  afterFailure: (failure: TransportFailure) => Promise<boolean>;
  /** Process with dry_run first, now and then (default false). */
  dryRuns?: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Step = 'done' | 'next' | 'stop';

function retryAfterMs(outcome: Outcome): number {
  if (outcome.kind !== 'reply') return 100;
  const seconds = Number(outcome.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 100;
}

/** Runs one worker until `stopping()` or until afterFailure says stop. */
export async function runWorker(options: WorkerOptions): Promise<void> {
  const prng = new Prng(options.seed);
  for (let n = 1; !options.stopping(); n++) {
    const external = `${options.prefix}-${n}`;
    let imported = false;
    const versions = prng.int(1, 3);
    for (let k = 0; k < versions && !imported; k++) {
      const step = await stage(options, external);
      if (step === 'stop') return;
      imported = step === 'done';
    }
    if (imported || options.stopping()) continue;
    if (options.dryRuns && prng.chance(0.2)) {
      if ((await process(options, external, true)) === 'stop') return;
    }
    if ((await process(options, external, false)) === 'stop') return;
  }
}

/** Stages a new version of the account; 'done' when it turned out to be imported already. */
async function stage(options: QueueOptions, external: string): Promise<Step> {
  const { client, ledger } = options;
  for (;;) {
    if (options.stopping()) return 'stop';
    const seq = ledger.nextSeq(external);
    const payload = buildAccount({
      import_supplier: SUPPLIER,
      external_account_number: external,
      billing_name: marker(external, seq),
    });
    const outcome = await client.send('POST', STAGE_PATH, payload);
    ledger.record('stage', `stage ${external} #${seq}`, outcome);
    if (outcome.kind === 'failure') {
      if (!(await options.afterFailure(outcome))) return 'stop';
      continue;
    }
    const code = errorCode(outcome);
    if (outcome.status === 200 || outcome.status === 201) {
      ledger.acknowledgeStage(external, seq);
      return 'next';
    }
    if (code === 'account_import_process_already_imported') {
      ledger.reportImported(
        external,
        (outcome.json as Record<string, unknown>).service_account_number,
      );
      return 'done';
    }
    // An interrupted process request left a claim: it completes or its lease runs out.
    if (code === 'account_import_in_progress' || code === 'service_unavailable') {
      await pause(retryAfterMs(outcome));
      continue;
    }
    ledger.problems.push(`stage ${external} #${seq}: unexpected ${outcome.status} ${outcome.text}`);
    return 'next';
  }
}

/** Processes the account until it is created, reported imported, or the worker stops. */
async function process(options: QueueOptions, external: string, dryRun: boolean): Promise<Step> {
  const { client, ledger } = options;
  const body = {
    external_account_number: external,
    import_supplier_code: SUPPLIER,
    operations_team_name: TEAM,
    ...(dryRun ? { dry_run: true } : {}),
  };
  for (;;) {
    if (options.stopping()) return 'stop';
    const outcome = await client.send('POST', PROCESS_PATH, body);
    ledger.record('process', `process ${external}${dryRun ? ' (dry run)' : ''}`, outcome);
    if (outcome.kind === 'failure') {
      if (!(await options.afterFailure(outcome))) return 'stop';
      continue;
    }
    const code = errorCode(outcome);
    if (outcome.status === 201 && !dryRun) {
      const number = (outcome.json as { service_account_number?: unknown }).service_account_number;
      if (typeof number === 'string' && /^A-[0-9A-F]{8}$/.test(number)) {
        ledger.acknowledgeAccount(external, number);
      } else {
        ledger.problems.push(`process ${external}: 201 without a valid number: ${outcome.text}`);
      }
      return 'done';
    }
    if (dryRun && code === 'dry_run_rolled_back') return 'next';
    if (code === 'account_import_process_already_imported') {
      ledger.reportImported(
        external,
        (outcome.json as Record<string, unknown>).service_account_number,
      );
      return 'done';
    }
    if (
      code === 'account_import_in_progress' ||
      code === 'too_many_accounts_in_progress' ||
      code === 'service_unavailable'
    ) {
      await pause(retryAfterMs(outcome));
      continue;
    }
    if (code === 'import_process_does_not_exist' && ledger.stages.has(external)) {
      ledger.problems.push(`process ${external}: its acknowledged staging is gone`);
      return 'done';
    }
    ledger.problems.push(`process ${external}: unexpected ${outcome.status} ${outcome.text}`);
    return 'done';
  }
}

/** What `stageEach` and `processEach` need of a worker's options. */
export type QueueOptions = Omit<WorkerOptions, 'prefix' | 'seed' | 'dryRuns'>;

/** Takes the next account of `queue`, or undefined when it is empty. */
export type Queue = () => string | undefined;

/** A queue over `externals`, shared by the workers that drain it. */
export function queueOf(externals: readonly string[]): Queue {
  let next = 0;
  return () => externals[next++];
}

/** Stages each account of the queue once, with `clients` workers draining it together. */
export async function stageEach(options: QueueOptions, queue: Queue, clients: number) {
  const worker = async () => {
    for (let external = queue(); external !== undefined; external = queue()) {
      if ((await stage(options, external)) === 'stop') return;
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
}

/**
 * Processes staged accounts taken from the queue, one after the other, until it is empty or
 * `stopping()` holds; a load of process requests only. Resolves true when the queue ran dry.
 */
export async function processEach(options: QueueOptions, queue: Queue): Promise<boolean> {
  while (!options.stopping()) {
    const external = queue();
    if (external === undefined) return true;
    if ((await process(options, external, false)) === 'stop') return false;
  }
  return false;
}
