/**
 * Payload checks on worker threads. Parsing, validating and serialising a payload is a large
 * share of a stage's CPU time, and on the event loop it is time no other request can use; on
 * threads it runs beside the loop, on the machine's other cores. A thread only answers whether
 * the payload is valid for its supplier and the platform data as last read (checkAccountJson): the
 * caller still decides with the database, and takes its authoritative path, on the event loop,
 * whenever the answer is not a usable one. So a thread that fails, or is gone, costs time,
 * never correctness.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { accountCheckOf, type CheckedAccount } from './account-json.js';
import { LARGE_BODY_BYTES } from '../../payload/json-text.js';
import {
  messageOf,
  type PlatformData,
  type PlatformDataMessage,
  type SupplierRule,
} from '../../platform/platform-data.js';
import { runLargeBodyJob, type LargeBodyAnswer, type LargeBodyJob } from './large-bodies.js';

/** The rule of each supplier code the caller knows; `version` changes with any entry. */
export interface SupplierRules {
  readonly version: number;
  rules(): [code: string, rule: SupplierRule][];
  ruleOf(code: string): SupplierRule | undefined;
}

/** Where the platform data as last read is (LivePlatformData). */
export interface PlatformSource {
  readonly current: PlatformData;
}

/**
 * What a validation thread receives: new supplier rules or platform data, or a payload to check. Each check is a
 * message of its own, and so is its answer: a thread starts on a payload at once, and the event
 * loop stages it as soon as it is checked. (Checks sent and answered a turn's worth at a time
 * took less CPU time, but stages then waited for one another, and the benchmark's re-stage lost
 * a tenth of its throughput.)
 */
export type ToValidationThread =
  | { kind: 'suppliers'; rules: [code: string, rule: SupplierRule][] }
  | { kind: 'platform'; data: PlatformDataMessage }
  | { kind: 'check'; id: number; text: string; wrapped: boolean }
  | { kind: 'large'; id: number; job: LargeBodyJob };

/** What a validation thread answers: a check's account, or a large body job's answer. */
export type FromValidationThread =
  | { id: number; kind: 'check'; account: CheckedAccount | undefined }
  | { id: number; kind: 'large'; answer: LargeBodyAnswer<LargeBodyJob> | undefined };

/**
 * The worker's script: the built one, dist/account/threads/validation.worker.js. Run from its source
 * (the tests), this module would then start the last build of the worker rather than the code
 * under test; there, and only there, VALIDATION_WORKER_BUNDLE names a test-only replacement: the
 * worker's current source bundled into one JavaScript file by the test setup
 * (test/helpers/validation-worker-bundle.ts). The built service never reads the variable.
 */
export const WORKER_SCRIPT = workerScript();

function workerScript(): URL {
  const bundle = process.env.VALIDATION_WORKER_BUNDLE;
  if (import.meta.url.endsWith('.ts') && bundle) return pathToFileURL(bundle);
  return new URL('../../../dist/account/threads/validation.worker.js', import.meta.url);
}

/** After this many thread failures, payloads are checked on the event loop only. */
const MAX_FAILURES = 3;

interface Thread {
  worker: Worker;
  /** The thread of large bodies, at the lowest CPU priority (LARGE_BODY_PRIORITY). */
  large: boolean;
  /** Checks and jobs sent and not yet answered, by id; undefined when the thread failed. */
  pending: Map<number, (answer: FromValidationThread | undefined) => void>;
  /** The SupplierRules version this thread was last sent. */
  rulesVersion: number;
  /** The PlatformData version this thread was last sent. */
  platformVersion: string;
}

export class ValidationThreads {
  readonly #size: number;
  readonly #onFailure: (error: Error) => void;
  readonly #script: URL;
  readonly #platform: PlatformSource;
  readonly #threads: Thread[] = [];
  #nextId = 0;
  #confirmed = 0;
  #largeJobs = 0;
  #failures = 0;
  #closed = false;

  /**
   * `size` threads at most, started as checks need them; with 0, checks run on the event loop.
   * Large bodies (over LARGE_BODY_BYTES) are never read on the event loop while threads work:
   * they have one thread of their own, started by the first of them, which runs at the lowest
   * CPU priority. One organisation's flood of large bodies then takes only CPU time that the
   * event loop, the other threads and the database leave, so the others' requests keep their
   * pace; a real payload is a few kB and never goes there.
   * Payloads are validated against the platform data `platform` holds when they are sent.
   * `onFailure` hears of each thread that failed. `script` is the worker's (a test's stand-in).
   */
  constructor(
    size: number,
    platform: PlatformSource,
    onFailure: (error: Error) => void,
    script: URL = WORKER_SCRIPT,
  ) {
    this.#size = size;
    this.#platform = platform;
    this.#onFailure = onFailure;
    this.#script = script;
  }

  /** How many payloads a thread has confirmed valid so far. */
  get confirmed(): number {
    return this.#confirmed;
  }

  /** How many large body jobs a thread has answered so far. */
  get largeJobs(): number {
    return this.#largeJobs;
  }

  /** Whether threads may be used at all: not closed, and not failing again and again. */
  get #working(): boolean {
    return !this.#closed && this.#failures < MAX_FAILURES;
  }

  /**
   * The payload in `text`, checked against the platform data and the rule `suppliers` gives its
   * supplier code (see checkAccountJson): on a thread, or on the event loop when there is none.
   * Undefined too when a thread failed before it answered. `wrapped`: `text` is a v2 scheduling
   * body, whose account is checked (accountCheckOf).
   */
  check(
    text: string,
    suppliers: SupplierRules,
    wrapped = false,
  ): Promise<CheckedAccount | undefined> {
    // A large body is checked on its thread even when checks otherwise run on the event loop.
    const large = text.length > LARGE_BODY_BYTES;
    if ((!large && this.#size === 0) || !this.#working) {
      const ruleOf = (code: string) => suppliers.ruleOf(code);
      return Promise.resolve(accountCheckOf(wrapped)(text, ruleOf, this.#platform.current));
    }
    const thread = large ? this.#largeThread() : this.#leastBusy();
    if (thread.rulesVersion !== suppliers.version) {
      thread.rulesVersion = suppliers.version;
      post(thread, { kind: 'suppliers', rules: suppliers.rules() });
    }
    this.#sendPlatform(thread);
    return this.#ask(thread, (id) => ({ kind: 'check', id, text, wrapped })).then((answer) =>
      answer?.kind === 'check' ? answer.account : undefined,
    );
  }

  /**
   * A large body's job (large-bodies.ts), run on the large bodies' thread. On the event loop
   * only once threads kept failing or were closed, or when the thread running it failed: the
   * answer is the same, only later.
   */
  async runLarge<J extends LargeBodyJob>(job: J): Promise<LargeBodyAnswer<J>> {
    if (this.#working) {
      const thread = this.#largeThread();
      if (job.kind === 'validate') this.#sendPlatform(thread);
      const answer = await this.#ask(thread, (id) => ({ kind: 'large', id, job }));
      if (answer?.kind === 'large' && answer.answer !== undefined) {
        return answer.answer as LargeBodyAnswer<J>;
      }
    }
    return runLargeBodyJob(job, this.#platform.current);
  }

  /** Sends the thread the current platform data unless it has it already. */
  #sendPlatform(thread: Thread): void {
    const data = this.#platform.current;
    if (thread.platformVersion === data.version) return;
    thread.platformVersion = data.version;
    post(thread, { kind: 'platform', data: messageOf(data) });
  }

  #ask(
    thread: Thread,
    message: (id: number) => ToValidationThread,
  ): Promise<FromValidationThread | undefined> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      thread.pending.set(id, resolve);
      post(thread, message(id));
    });
  }

  /** Stops the threads; checks still waiting are answered undefined. */
  async close(): Promise<void> {
    this.#closed = true;
    const threads = this.#threads.splice(0);
    await Promise.all(
      threads.map(async (thread) => {
        settle(thread);
        await thread.worker.terminate();
      }),
    );
  }

  /**
   * The check thread with the fewest checks waiting, started when there is room for another
   * (not the large bodies' thread).
   */
  #leastBusy(): Thread {
    let best: Thread | undefined;
    let started = 0;
    for (const thread of this.#threads) {
      if (thread.large) continue;
      started += 1;
      if (best === undefined || thread.pending.size < best.pending.size) best = thread;
    }
    if (best !== undefined && (best.pending.size === 0 || started >= this.#size)) return best;
    return this.#start(false);
  }

  /** The large bodies' thread, started by the first of them. */
  #largeThread(): Thread {
    return this.#threads.find((thread) => thread.large) ?? this.#start(true);
  }

  #start(large: boolean): Thread {
    const worker = new Worker(this.#script, { workerData: { lowPriority: large } });
    // An idle thread must not keep the process alive; close() is the orderly way out.
    worker.unref();
    const thread: Thread = {
      worker,
      large,
      pending: new Map(),
      rulesVersion: -1,
      platformVersion: '',
    };
    worker.on('message', (answer: FromValidationThread) => {
      const resolve = thread.pending.get(answer.id);
      thread.pending.delete(answer.id);
      if (answer.kind === 'check' && answer.account !== undefined) this.#confirmed += 1;
      if (answer.kind === 'large' && answer.answer !== undefined) this.#largeJobs += 1;
      resolve?.(answer);
    });
    const fail = (error: Error): void => this.#fail(thread, error);
    worker.on('error', fail);
    worker.on('messageerror', fail);
    worker.on('exit', (code) => fail(new Error(`validation thread exited with code ${code}`)));
    this.#threads.push(thread);
    return thread;
  }

  /** A thread failed or ended by itself: its checks are answered undefined, and it is replaced. */
  #fail(thread: Thread, error: Error): void {
    const index = this.#threads.indexOf(thread);
    if (index === -1) return; // closed, or already failed
    this.#threads.splice(index, 1);
    this.#failures += 1;
    settle(thread);
    void thread.worker.terminate();
    this.#onFailure(error);
  }
}

function post(thread: Thread, message: ToValidationThread): void {
  thread.worker.postMessage(message);
}

/** Answers every waiting check of the thread undefined. */
function settle(thread: Thread): void {
  for (const resolve of thread.pending.values()) resolve(undefined);
  thread.pending.clear();
}
