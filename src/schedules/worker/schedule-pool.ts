/**
 * A pool of schedule workers in one process (`serve` starts one, `account-import worker` runs
 * one alone). Each round it claims up to `concurrency` due schedules in one statement and
 * carries them out side by side; it claims again as soon as a round ends, and waits `pollMs`
 * only when it found nothing to do (or had to defer work), so an idle pool costs one claim
 * statement per interval and a busy one never waits.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { ImportSupplier } from '../../db/database.js';
import { runSchedule, type Run } from './schedule-creation.js';
import {
  claimDue,
  closeEndedWindows,
  releaseSchedules,
  type ClaimedSchedule,
} from './schedule-queue.repository.js';
import { readSuppliers } from './schedule-target.repository.js';

/**
 * The window sweep reads every pending schedule (no index leads with window_end), so a busy
 * pool sweeps at most once a second; the claim itself never starts a closed window.
 */
const MIN_SWEEP_MS = 1_000;

export interface PoolOptions {
  /** Schedules carried out at once (and claimed per round). */
  concurrency: number;
  /** Milliseconds between claims while there is nothing to do (and between window sweeps, at least 1 s). */
  pollMs: number;
  /** Milliseconds a claim holds its schedules before another worker may take them over. */
  leaseMs: number;
  /** Told about a round that failed (the database unreachable, say); the pool goes on. */
  onError?: (error: unknown) => void;
}

/** What one round did. */
export interface RoundResult {
  claimed: number;
  deferred: number;
  /** Schedules ERRORED by the window sweep of this round. */
  closed: number;
}

export class SchedulePool {
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #lastSweep = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: PoolOptions,
  ) {}

  /** Starts claiming in the background until stop(). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /**
   * Stops claiming and waits for the round in flight to end: its schedules are finished, not
   * abandoned, so a stop never leaves a claim for its lease to recover.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  /**
   * One round: closes ended windows (at most once per poll interval), claims a batch and
   * carries it out. Deferred schedules are given back to the queue.
   */
  async round(): Promise<RoundResult> {
    const { db } = this.ctx;
    const now = Date.now();
    let closed = 0;
    if (now - this.#lastSweep >= Math.max(this.options.pollMs, MIN_SWEEP_MS)) {
      this.#lastSweep = now;
      closed = await closeEndedWindows(db, now);
    }
    const claimId = randomUUID();
    const claimed = await claimDue(db, {
      claimId,
      now,
      leaseUntil: now + this.options.leaseMs,
      batch: this.options.concurrency,
    });
    const suppliers = await readSuppliers(
      db.kysely,
      claimed.map((schedule) => schedule.supplierId),
    );
    const runs = await Promise.all(
      claimed.map((schedule) => this.#carryOut(schedule, suppliers.get(schedule.supplierId))),
    );
    const deferred = claimed
      .filter((_, i) => runs[i] !== 'ended')
      .map((schedule) => schedule.processId);
    await releaseSchedules(db, deferred, claimId, Date.now());
    return { claimed: claimed.length, deferred: deferred.length, closed };
  }

  /** A schedule whose run failed unexpectedly is given back (deferred) and reported. */
  async #carryOut(
    schedule: ClaimedSchedule,
    supplier: ImportSupplier | undefined,
  ): Promise<Run | 'failed'> {
    try {
      return await runSchedule(this.ctx, schedule, supplier);
    } catch (error) {
      this.options.onError?.(error);
      return 'failed';
    }
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let idle: boolean;
      try {
        const { claimed, deferred } = await this.round();
        idle = claimed === 0 || deferred > 0;
      } catch (error) {
        this.options.onError?.(error);
        idle = true;
      }
      if (idle && this.#running) await this.#pause();
    }
  }

  /** Waits one poll interval, or less when stop() is called. */
  #pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }
}
