/** The counts of a run and the summary made of them, for the progress line and the end. */
import type { LoadKind } from './kinds.js';
import type { Failure, Step } from './report.js';

export type Outcome =
  | {
      kind: 'created' | 'staged' | 'added' | 'dry_run_ok' | 'skipped_completed' | 'skipped_marked';
    }
  | { kind: 'failed'; failure: Failure };

export interface LoadSummary {
  file: string;
  /** What the file holds: accounts, or records of a post-import kind. */
  kind: LoadKind;
  mode: 'create' | 'dry-run' | 'stage-only';
  /** Records read from the file (blank lines excluded). */
  total: number;
  succeeded: number;
  failed: number;
  failed_by_step: Record<Step, number>;
  /** Stage requests that succeeded (in create mode these accounts then go on to process). */
  staged: number;
  created: number;
  /** Post-import records the service took (a 2xx answer without an import error). */
  added: number;
  dry_run_ok: number;
  /** Already COMPLETED (or, for a post-import kind, in the journal of an earlier run) before this run (found in the imported list or told by the service). */
  skipped_completed: number;
  /** Marked by the operator to be skipped; not sent, not a failure. */
  skipped_marked: number;
  interrupted: boolean;
  elapsed_seconds: number;
  rate_per_second: number;
  retries: number;
  token_renewals: number;
  report: string;
}

export class Tally {
  read = 0;
  staged = 0;
  created = 0;
  added = 0;
  dryRunOk = 0;
  stagedOnly = 0;
  skippedCompleted = 0;
  skippedMarked = 0;
  failedByStep: Record<Step, number> = { parse: 0, stage: 0, process: 0, post: 0 };

  get failed(): number {
    const { parse, stage, process, post } = this.failedByStep;
    return parse + stage + process + post;
  }

  get succeeded(): number {
    return (
      this.created +
      this.added +
      this.dryRunOk +
      this.stagedOnly +
      this.skippedCompleted +
      this.skippedMarked
    );
  }

  /** Accounts with a final outcome. */
  get finished(): number {
    return this.succeeded + this.failed;
  }

  get skipped(): number {
    return this.skippedCompleted + this.skippedMarked;
  }

  record(outcome: Outcome): void {
    switch (outcome.kind) {
      case 'created':
        this.created++;
        break;
      case 'staged':
        this.stagedOnly++;
        break;
      case 'added':
        this.added++;
        break;
      case 'dry_run_ok':
        this.dryRunOk++;
        break;
      case 'skipped_completed':
        this.skippedCompleted++;
        break;
      case 'skipped_marked':
        this.skippedMarked++;
        break;
      case 'failed':
        this.failedByStep[outcome.failure.step]++;
        break;
    }
  }
}

const number = (n: number) => n.toLocaleString('en-GB');

/** The summary as the lines printed at the end of a run. */
export function formatSummary(s: LoadSummary): string {
  const verb = s.interrupted ? 'Interrupted after' : 'Finished in';
  const accounts = s.kind === 'accounts';
  const steps = accounts ? (['parse', 'stage', 'process'] as const) : (['parse', 'post'] as const);
  const failedSteps = steps.map((step) => `${step} ${number(s.failed_by_step[step])}`).join(', ');
  const rows: [string, string][] = [
    ['read', number(s.total)],
    ['succeeded', number(s.succeeded)],
  ];
  if (accounts) rows.push(['  staged', number(s.staged)]);
  if (s.mode === 'create')
    rows.push(accounts ? ['  created', number(s.created)] : ['  added', number(s.added)]);
  if (s.mode === 'dry-run') rows.push(['  dry run ok', `${number(s.dry_run_ok)} (rolled back)`]);
  rows.push([
    '  skipped',
    `${number(s.skipped_completed)} ${accounts ? 'already completed' : 'in the journal'}`,
  ]);
  if (s.skipped_marked > 0) rows.push(['', `${number(s.skipped_marked)} marked to skip`]);
  rows.push(['failed', `${number(s.failed)} (${failedSteps})`]);
  rows.push(['retries', number(s.retries)]);
  rows.push(['report', s.report]);
  const unit = accounts ? 'accounts' : 'records';
  const what = accounts ? s.mode : `${s.kind}, ${s.mode}`;
  const head = `${verb} ${s.elapsed_seconds.toFixed(1)} s: ${s.file} (${what}), ${s.rate_per_second.toFixed(1)} ${unit}/s`;
  return [head, ...rows.map(([label, value]) => `  ${label.padEnd(12)} ${value}`)].join('\n');
}
