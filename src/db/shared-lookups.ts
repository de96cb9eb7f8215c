/**
 * Read-only lookups that requests share. A migration sends thousands of requests with one
 * token for one supplier, and each must check, by a query of its own time, that the caller may
 * still act: on SQLite that query was a fifth of a validation's CPU, on PostgreSQL a round
 * trip. Here requests that ask the same question while no query for it has been sent yet wait
 * together, and one query answers them all.
 *
 * The answer stays as fresh as one query per request: a request only ever shares a query sent
 * after it asked, never one already running (which may have read the database before the
 * request arrived, and so before a revocation it must see). Questions asked in one turn of the
 * event loop are sent at its end (setImmediate); while a query for the same key is running,
 * the next batch waits for it to finish and is sent then, so under load a batch gathers every
 * request of that interval, as group commit does for writes.
 */
export class SharedLookups<Args extends unknown[], Result> {
  readonly #run: (...args: Args) => Promise<Result>;
  /** Asked, not yet sent, by key. */
  readonly #waiting = new Map<string, Batch<Args, Result>>();
  /** Keys whose query is running. */
  readonly #running = new Set<string>();
  #flushScheduled = false;
  /** How many queries were sent (for tests and the benchmark's reasoning, not for logic). */
  queriesSent = 0;

  constructor(run: (...args: Args) => Promise<Result>) {
    this.#run = run;
  }

  /** The answer of a query sent after this call; equal `key`s must mean equal `args`. */
  lookup(key: string, ...args: Args): Promise<Result> {
    const waiting = this.#waiting.get(key);
    if (waiting) return waiting.answer;
    const batch = new Batch<Args, Result>(args);
    this.#waiting.set(key, batch);
    if (!this.#running.has(key) && !this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
    return batch.answer;
  }

  /** Sends every waiting batch whose key has no query running. */
  #flush(): void {
    this.#flushScheduled = false;
    for (const key of this.#waiting.keys()) {
      if (!this.#running.has(key)) this.#send(key);
    }
  }

  #send(key: string): void {
    const batch = this.#waiting.get(key) as Batch<Args, Result>;
    this.#waiting.delete(key);
    this.#running.add(key);
    this.queriesSent++;
    let answered: Promise<Result>;
    try {
      answered = this.#run(...batch.args);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(batch.resolve, batch.reject).finally(() => {
      this.#running.delete(key);
      // Everyone in the next batch asked before now, so its query may go at once.
      if (this.#waiting.has(key)) this.#send(key);
    });
  }
}

class Batch<Args, Result> {
  readonly answer: Promise<Result>;
  resolve!: (result: Result) => void;
  reject!: (error: unknown) => void;

  constructor(readonly args: Args) {
    this.answer = new Promise<Result>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}
