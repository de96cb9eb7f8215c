/**
 * Workers plus the service they talk to, with the bookkeeping of faults: while the service is
 * down, workers wait for it to be back (`up`); a test decides when to kill and restart it.
 */
import { Client, obtainTokenOver } from './client.js';
import { Ledger } from './ledger.js';
import { ServiceProcess, waitFor, type ServiceOptions } from './service.js';
import { runWorker } from './workload.js';

export interface LoadOptions {
  service: ServiceOptions;
  apiKey: string;
  workers: number;
  seed: number;
  /** A unique prefix of this run's external account numbers. */
  prefix: string;
  dryRuns?: boolean;
  /** After a transport failure: true to wait for the service and retry (default), false to stop. */
  retryAfterFailure?: () => boolean;
}

export class LoadUnderFaults {
  readonly ledger = new Ledger();
  service!: ServiceProcess;
  client!: Client;
  private stopping = false;
  private up: Promise<boolean> = Promise.resolve(true);
  private markUp: (ok: boolean) => void = () => undefined;
  private workers: Promise<void>[] = [];

  constructor(private readonly options: LoadOptions) {}

  /** Starts the service, obtains a token and sets the workers going. */
  async start(): Promise<void> {
    this.service = await ServiceProcess.start(this.options.service);
    this.client = new Client(this.service.url, { connections: Math.max(this.options.workers, 8) });
    this.client.token = await obtainTokenOver(this.client, this.options.apiKey);
    const retry = this.options.retryAfterFailure ?? (() => true);
    for (let w = 0; w < this.options.workers; w++) {
      this.workers.push(
        runWorker({
          client: this.client,
          ledger: this.ledger,
          prefix: `${this.options.prefix}-w${w}`,
          seed: this.options.seed + w,
          dryRuns: this.options.dryRuns,
          stopping: () => this.stopping,
          afterFailure: async () => {
            if (!retry()) return false;
            const ok = await this.up;
            // The failure may predate the restart; a short pause keeps a retry loop from spinning.
            await new Promise((resolve) => setTimeout(resolve, 10));
            return ok && !this.stopping;
          },
        }),
      );
    }
  }

  /** Resolves once `n` more requests have been answered or have failed. */
  async progress(n: number, withinMs = 60_000): Promise<void> {
    const target = this.ledger.requests + n;
    await waitFor(`${n} more requests`, () => this.ledger.requests >= target, withinMs, 5);
  }

  /** Marks the service down: workers that fail from now on wait for `restarted`. */
  down(): void {
    this.up = new Promise((resolve) => (this.markUp = resolve));
  }

  /** Starts the service again on the same port and database, and lets the workers go on. */
  async restart(): Promise<void> {
    try {
      this.service = await ServiceProcess.start(this.options.service);
      this.markUp(true);
    } catch (error) {
      this.markUp(false);
      throw error;
    }
  }

  /** The workers go on as they were (the service came back by itself). */
  resume(): void {
    this.markUp(true);
  }

  /** Tells the workers to finish and waits for them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.markUp(false);
    await Promise.all(this.workers);
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.markUp(false);
    await this.client?.destroy().catch(() => undefined);
    if (this.service?.running) await this.service.stop('SIGKILL');
  }
}
