/**
 * The request scenarios against one running server: what each sends, which statuses it
 * expects, and how account numbers flow between them. stage-new stages fresh numbers;
 * re-stage sends the same numbers again; process takes each staged number exactly once. The
 * `-full` scenarios do the same with the published full account, on numbers of their own.
 */
import type { Request } from 'autocannon';
import { runLoad, type LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import type { BodyFor } from './payload.js';
import type { PostImportScenario } from './post-import.js';
import {
  cpuSeconds,
  peakRssMb,
  postgresCpuSeconds,
  postgresCpuSecondsBetween,
  resetPeakRss,
} from './processes.js';

export const VALIDATE_PATH = '/v1/data-import/validate-account/';
export const STAGE_PATH = '/v1/data-import/account-import-process/create-or-update/';
export const PROCESS_PATH = '/v1/data-import/account-import-process/process/';
export const SCHEDULE_PATH = '/v2/data-import/accounts/';
export const LIST_KINDS = ['all', 'pending', 'imported'] as const;
export type ListKind = (typeof LIST_KINDS)[number];
/** The page size the list scenarios ask for. */
export const LIST_PAGE_ROWS = 100;

export const statusPath = (supplier: string, number: string) =>
  `/v1/data-import/account-transfer-status/${supplier}/${encodeURIComponent(number)}/`;
export const listPath = (kind: ListKind, supplier: string) =>
  `/v1/data-import/${kind}-account-import-processes/${supplier}/`;

/** A server under load: its address, the headers of every request, its process. */
export interface Harness {
  options: BenchOptions;
  baseUrl: string;
  headers: Record<string, string>;
  /** The database the server stores in ('none' for the echo baseline). */
  database: string;
  pid(): number;
  /** Runs one scenario; the service harness restarts under the profiler around it. */
  around<T>(scenario: string, work: () => Promise<T>): Promise<T>;
}

export interface ScenarioResult {
  scenario: string;
  load: LoadResult;
  /** Peak RSS of the server process during warm-up and measurement, MB. */
  peakRssMb: number;
  /**
   * CPU time per completed request during the measured run, µs: the server's, PostgreSQL's, and
   * the load generator's (this process).
   */
  cpuUsPerRequest: { server: number; postgres: number | null; loadGenerator: number };
  notes: string[];
}

/** Numbers `<prefix>0000001`, `<prefix>0000002`, … */
export class NumberSource {
  private count = 0;
  constructor(private readonly prefix: string) {}
  take(): string {
    this.count += 1;
    return `${this.prefix}${String(this.count).padStart(7, '0')}`;
  }
}

/**
 * POSTs of the account `body` builds to `path`, each with the number `nextNumber()` returns;
 * the number travels in the connection's context to `onStatus`.
 */
export function accountRequests(
  harness: Harness,
  path: string,
  body: BodyFor,
  nextNumber: () => string,
  onStatus?: (status: number, number: string) => void,
): Request[] {
  return [
    {
      method: 'POST',
      path,
      headers: { ...harness.headers, 'content-type': 'application/json' },
      setupRequest: (request, context) => {
        const number = nextNumber();
        context.number = number;
        request.body = body(number);
        return request;
      },
      onResponse:
        onStatus && ((status, _body, context) => onStatus(status, String(context.number))),
    },
  ];
}

/**
 * CPU time used from now on: the server process's, with `postgres` every PostgreSQL
 * process's (backends that exit in between are not counted), and the load generator's. Unlike requests per second, CPU
 * per request barely moves when other work on the machine takes turns on the cores.
 */
function cpuMeter(pid: number, postgres: boolean) {
  const server = cpuSeconds(pid);
  const database = postgres ? postgresCpuSeconds() : undefined;
  const generator = process.cpuUsage();
  return {
    perRequest(requests: number): ScenarioResult['cpuUsPerRequest'] {
      const per = (seconds: number) => (requests > 0 ? (seconds * 1e6) / requests : NaN);
      const { user, system } = process.cpuUsage(generator);
      return {
        server: per(cpuSeconds(pid) - server),
        postgres: database ? per(postgresCpuSecondsBetween(database, postgresCpuSeconds())) : null,
        loadGenerator: per((user + system) / 1e6),
      };
    },
  };
}

interface Amounts {
  warmup: number;
  measured: () => number;
}

/** Warm-up, then the measured run; the peak RSS covers both. */
export async function measure(
  harness: Harness,
  scenario: string,
  expected: readonly number[],
  requests: () => Request[],
  amounts?: Amounts,
): Promise<ScenarioResult> {
  const { options } = harness;
  return harness.around(scenario, async () => {
    resetPeakRss(harness.pid());
    const base = { url: harness.baseUrl, connections: options.connections, expected };
    await runLoad({
      ...base,
      durationS: options.warmupS,
      amount: amounts?.warmup,
      requests: requests(),
    });
    const cpu = cpuMeter(harness.pid(), harness.database === 'postgres');
    const load = await runLoad({
      ...base,
      durationS: options.durationS,
      amount: amounts?.measured(),
      requests: requests(),
    });
    const cpuUsPerRequest = cpu.perRequest(load.requests);
    return { scenario, load, peakRssMb: peakRssMb(harness.pid()), cpuUsPerRequest, notes: [] };
  });
}

/** The account a set of scenarios sends, and the suffix of their names ('' or '-full'). */
export interface AccountVariant {
  suffix: string;
  body: BodyFor;
}

/** Scenarios of the service with one account variant, sharing the numbers staged along the way. */
export class ServiceScenarios {
  /** Numbers the service answered 200/201 to when staged. */
  readonly staged: string[] = [];
  readonly processed: string[] = [];
  private readonly fresh: NumberSource;

  constructor(
    private readonly harness: Harness,
    private readonly supplier: string,
    runId: string,
    readonly variant: AccountVariant,
  ) {
    this.fresh = new NumberSource(`B${runId}${variant.suffix}-`);
  }

  private name(scenario: string): string {
    return `${scenario}${this.variant.suffix}`;
  }

  private stageRequests(): Request[] {
    return accountRequests(
      this.harness,
      STAGE_PATH,
      this.variant.body,
      () => this.fresh.take(),
      (status, number) => {
        if (status === 200 || status === 201) this.staged.push(number);
      },
    );
  }

  validate(): Promise<ScenarioResult> {
    const numbers = new NumberSource(`V${this.variant.suffix}-`);
    return measure(this.harness, this.name('validate'), [200], () =>
      accountRequests(this.harness, VALIDATE_PATH, this.variant.body, () => numbers.take()),
    );
  }

  stageNew(): Promise<ScenarioResult> {
    return measure(this.harness, this.name('stage-new'), [200, 201], () => this.stageRequests());
  }

  /**
   * v2 schedules of fresh numbers (`schedule`: the typical account wrapped with its task
   * parameters), beside stage-new. Their numbers are kept apart: a v1 process of a scheduled
   * account is refused.
   */
  scheduleNew(schedule: BodyFor): Promise<ScenarioResult> {
    const numbers = new NumberSource(`S${this.variant.suffix}-${Date.now().toString(36)}-`);
    return measure(this.harness, this.name('schedule-new'), [201], () =>
      accountRequests(this.harness, SCHEDULE_PATH, schedule, () => numbers.take()),
    );
  }

  reStage(): Promise<ScenarioResult> {
    if (this.staged.length === 0) throw new Error('re-stage needs staged accounts');
    const numbers = [...this.staged];
    let next = 0;
    return measure(this.harness, this.name('re-stage'), [200, 201], () =>
      accountRequests(this.harness, STAGE_PATH, this.variant.body, () => {
        const number = numbers[next % numbers.length] as string;
        next += 1;
        return number;
      }),
    );
  }

  /** Stages fresh accounts (unmeasured) until `count` are staged in all. */
  async stageUpTo(count: number): Promise<number> {
    const missing = count - this.staged.length;
    if (missing < this.harness.options.connections) return 0;
    await runLoad({
      url: this.harness.baseUrl,
      connections: this.harness.options.connections,
      durationS: 900,
      amount: missing,
      expected: [200, 201],
      requests: this.stageRequests(),
    });
    return missing;
  }

  /**
   * Process requests, each for the number `take()` returns; a 201 adds it to `processed`. The
   * number travels in the connection's context to the response.
   */
  private processRequests(take: () => string): Request[] {
    return [
      {
        method: 'POST',
        path: PROCESS_PATH,
        headers: { ...this.harness.headers, 'content-type': 'application/json' },
        setupRequest: (request, context) => {
          const number = take();
          context.number = number;
          request.body = JSON.stringify({
            external_account_number: number,
            import_supplier_code: this.supplier,
            operations_team_name: 'Migrations',
          });
          return request;
        },
        onResponse: (status, _body, context) => {
          if (status === 201) this.processed.push(String(context.number));
        },
      },
    ];
  }

  /** The staged numbers not processed yet, in staging order. */
  private unprocessed(): string[] {
    const done = new Set(this.processed);
    return this.staged.filter((number) => !done.has(number));
  }

  /**
   * Processes staged accounts (unmeasured) until at least `count` are processed in all, so
   * that the imported list has rows when the process scenario did not run before it.
   */
  async processUpTo(count: number): Promise<number> {
    const { connections } = this.harness.options;
    const missing = count - this.processed.length;
    if (missing <= 0) return 0;
    const queue = this.unprocessed();
    // autocannon needs at least one request per connection.
    const amount = Math.max(missing, connections);
    if (queue.length < amount)
      throw new Error(`${amount} accounts to process, ${queue.length} staged`);
    let next = 0;
    const before = this.processed.length;
    await runLoad({
      url: this.harness.baseUrl,
      connections,
      durationS: 900,
      amount,
      expected: [201],
      requests: this.processRequests(() => queue[next++] as string),
    });
    return this.processed.length - before;
  }

  /** Each staged account is processed once; the run ends early when they run out. */
  async process(): Promise<ScenarioResult> {
    const { options } = this.harness;
    const queue = this.unprocessed();
    let next = 0;
    // The amounts below leave a margin, so the fallback (a number never staged, answered with
    // an error that the report shows) is not expected to be reached.
    const take = () => queue[next++] ?? `NOT-STAGED-${next}`;
    const requests = () => this.processRequests(take);
    const warmup = Math.max(
      options.connections,
      Math.min(Math.floor(queue.length / 10), options.warmupS * 500),
    );
    const result = await measure(this.harness, this.name('process'), [201], requests, {
      warmup,
      measured: () => Math.max(options.connections, queue.length - next - options.connections),
    });
    const left = queue.length - next;
    result.notes.push(
      left === 0
        ? `all ${queue.length} staged accounts were processed before the ${options.durationS} s were up (run ended early)`
        : `${left} of ${queue.length} staged accounts left unprocessed`,
    );
    return result;
  }

  /** Each request adds a new item to one of the processed accounts, cycling over them. */
  addTo(scenario: PostImportScenario): Promise<ScenarioResult> {
    const numbers = [...this.processed];
    if (numbers.length === 0) throw new Error(`${scenario.name} needs created accounts`);
    let next = 0;
    return measure(this.harness, scenario.name, [201], () => [
      {
        method: 'POST',
        path: scenario.path,
        headers: { ...this.harness.headers, 'content-type': 'application/json' },
        setupRequest: (request) => {
          const item = next;
          next += 1;
          const external = numbers[item % numbers.length] as string;
          request.body = scenario.body(this.supplier, external, String(item));
          return request;
        },
      },
    ]);
  }

  status(): Promise<ScenarioResult> {
    const numbers = [...this.staged];
    let next = 0;
    return measure(this.harness, 'status', [200], () => [
      {
        method: 'GET',
        headers: this.harness.headers,
        setupRequest: (request) => {
          request.path = statusPath(this.supplier, numbers[next % numbers.length] as string);
          next += 1;
          return request;
        },
      },
    ]);
  }

  list(kind: ListKind): Promise<ScenarioResult> {
    const path = `${listPath(kind, this.supplier)}?limit=${LIST_PAGE_ROWS}`;
    return measure(this.harness, `list-${kind}`, [200], () => [
      { method: 'GET', path, headers: this.harness.headers },
    ]);
  }
}
