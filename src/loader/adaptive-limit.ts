/**
 * A gate on how many process requests are in flight, sized by the service's answers: halved on
 * each 429 too_many_accounts_in_progress, grown by one after a run of successes (the AIMD rule
 * of TCP). With PROCESS_CONCURRENCY_LIMIT=1 the loader settles at about one process request at
 * a time instead of spending its retries on 429s, while staging stays fully concurrent.
 */

export type GateOutcome = 'ok' | 'busy' | 'other';

export class AdaptiveLimit {
  private active = 0;
  private limit: number;
  private successes = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {
    this.limit = Math.max(1, max);
  }

  /** The number of requests currently allowed at once. */
  get current(): number {
    return this.limit;
  }

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    // The releasing side counts this waiter in before waking it.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives the slot back, saying how the request went. */
  release(outcome: GateOutcome): void {
    this.active--;
    if (outcome === 'busy') {
      this.limit = Math.max(1, Math.floor(this.limit / 2));
      this.successes = 0;
    } else if (outcome === 'ok' && this.limit < this.max) {
      // Probe upwards slowly: a few rounds at the current size without a 429 first.
      if (++this.successes >= this.limit * 4) {
        this.limit++;
        this.successes = 0;
      }
    }
    while (this.active < this.limit && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()?.();
    }
  }
}
