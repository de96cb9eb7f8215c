/**
 * The concurrency limit's admission on this instance. The limit (PROCESS_CONCURRENCY_LIMIT)
 * is enforced across instances by the claim statement, which counts live claims in the
 * database; but a claim lives only while its transaction runs, so process requests waiting
 * on this instance for the database (or the event loop) are "being processed" without being
 * counted, and latency grows with every client. Counting them here too answers the surplus
 * with 429 at once, before it does any work, so the requests that are served keep their
 * unloaded latency. Dry runs are not creations and take no slot (docs/decisions.md).
 *
 * A request that takes a slot yields one turn of the event loop before it starts: with a
 * synchronous driver (SQLite) a creation would otherwise run from start to finish in one turn,
 * and the requests that arrived with it would never be seen waiting.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The slots of one instance: at most `limit` creations at once. */
export class CreationSlots {
  #taken = 0;

  /** `limit` 0 disables the limit: every request gets a slot. */
  constructor(readonly limit: number) {}

  /** Runs `create` in a slot, or returns undefined at once when all slots are taken. */
  async run<T>(create: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.limit > 0 && this.#taken >= this.limit) return undefined;
    this.#taken++;
    try {
      if (this.limit > 0) await nextTurn();
      return { value: await create() };
    } finally {
      this.#taken--;
    }
  }

  /** Slots taken right now. */
  get taken(): number {
    return this.#taken;
  }
}
