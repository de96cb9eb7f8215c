/**
 * The ledger of what the service acknowledged: every stage answered 2xx (with the marker of its
 * data) and every account answered 201 (with its number). After the faults, the database must
 * hold all of it. Every outcome is also checked as it arrives: no 5xx but 503
 * service_unavailable, the error format on every 4xx/5xx, Retry-After on 429 and 503, no hang
 * and no internals.
 */
import { TIMEOUT_CODES, errorCode, isErrorShape, type Outcome } from './client.js';
import { internalsIn } from './internals.js';

export type Route = 'stage' | 'process' | 'status' | 'list' | 'other';

export interface Sample {
  route: Route;
  /** Epoch milliseconds when sent. */
  at: number;
  ms: number;
  /** HTTP status, or 0 for a transport failure. */
  status: number;
}

/** The billing_name that marks version `seq` of an account's staged data. */
export function marker(external: string, seq: number): string {
  return `Marker ${external} #${seq}`;
}

/** The version number in a marker, or undefined. */
export function markerSeq(billingName: unknown): number | undefined {
  if (typeof billingName !== 'string') return undefined;
  const match = /#(\d+)$/.exec(billingName);
  return match ? Number(match[1]) : undefined;
}

export class Ledger {
  /** External number → the acknowledged stage versions. */
  readonly stages = new Map<string, number[]>();
  private readonly lastSeq = new Map<string, number>();
  /** External number → the number a 201 returned. */
  readonly accounts = new Map<string, string>();
  /** External number → the number an already-imported refusal reported. */
  readonly reported = new Map<string, string>();
  /** "201", "503 service_unavailable", "failure ECONNREFUSED" → count. */
  readonly outcomes = new Map<string, number>();
  readonly samples: Sample[] = [];
  /** Broken promises seen while the traffic ran. */
  readonly problems: string[] = [];
  requests = 0;

  nextSeq(external: string): number {
    const seq = (this.lastSeq.get(external) ?? 0) + 1;
    this.lastSeq.set(external, seq);
    return seq;
  }

  acknowledgeStage(external: string, seq: number): void {
    const seqs = this.stages.get(external) ?? [];
    seqs.push(seq);
    this.stages.set(external, seqs);
  }

  acknowledgeAccount(external: string, number: string): void {
    const known = this.accounts.get(external) ?? this.reported.get(external);
    if (known !== undefined && known !== number) {
      this.problems.push(`${external}: 201 with ${number} after ${known} was reported`);
    }
    this.accounts.set(external, number);
  }

  reportImported(external: string, number: unknown): void {
    if (typeof number !== 'string' || number === '') {
      this.problems.push(`${external}: already imported without a service_account_number`);
      return;
    }
    const known = this.accounts.get(external) ?? this.reported.get(external);
    if (known !== undefined && known !== number) {
      this.problems.push(`${external}: reported as ${number}, but ${known} was returned before`);
    }
    this.reported.set(external, number);
  }

  get acknowledgedStages(): number {
    let n = 0;
    for (const seqs of this.stages.values()) n += seqs.length;
    return n;
  }

  count(outcome: Outcome): void {
    const key =
      outcome.kind === 'failure'
        ? `failure ${outcome.code}`
        : outcome.status >= 400
          ? `${outcome.status} ${errorCode(outcome) ?? '?'}`
          : String(outcome.status);
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
  }

  /** Counts the outcome, keeps its latency and checks the promises every response keeps. */
  record(route: Route, what: string, outcome: Outcome): void {
    this.requests++;
    this.count(outcome);
    this.samples.push({
      route,
      at: outcome.sentAt,
      ms: outcome.ms,
      status: outcome.kind === 'reply' ? outcome.status : 0,
    });
    if (outcome.kind === 'failure') {
      if (TIMEOUT_CODES.has(outcome.code)) {
        this.problems.push(`${what}: no answer within the client timeout (${outcome.code})`);
      }
      return;
    }
    const { status } = outcome;
    const code = errorCode(outcome);
    if (status >= 500 && !(status === 503 && code === 'service_unavailable')) {
      this.problems.push(`${what}: ${status} ${outcome.text.slice(0, 300)}`);
    }
    if (status >= 400 && !isErrorShape(outcome.json)) {
      this.problems.push(
        `${what}: ${status} not in the error format: ${outcome.text.slice(0, 300)}`,
      );
    }
    if (
      (status === 429 || status === 503) &&
      !/^\d+$/.test(String(outcome.headers['retry-after']))
    ) {
      this.problems.push(`${what}: ${status} without Retry-After`);
    }
    const leak = status >= 400 ? internalsIn(outcome.text) : undefined;
    if (leak)
      this.problems.push(`${what}: ${status} discloses ${leak}: ${outcome.text.slice(0, 300)}`);
  }

  /** Outcome counts as `{"201": 12, "failure ECONNREFUSED": 3}`, largest first. */
  summary(): Record<string, number> {
    return Object.fromEntries([...this.outcomes.entries()].sort((a, b) => b[1] - a[1]));
  }
}
