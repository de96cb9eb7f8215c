/**
 * Long work of one organisation gives way to the other organisations' requests
 * (docs/decisions.md: fairness between organisations). Two kinds of work can each keep a core
 * busy for a long time: an unpaged list, read batch after batch, and a large body, read and
 * validated on a validation thread. While another organisation is being served (a request in
 * flight, or one begun in the last RECENT_MS), such work pauses after each step for PACE_FACTOR
 * times as long as the step took, so it takes at most a third of what it runs on, and the
 * others' requests find the event loop, the thread and the database free. Alone on the
 * service, it runs at full speed.
 *
 * "Begun lately" matters on SQLite: there a short request runs whole between two steps of a
 * stream, so it is never in flight when the stream looks.
 */
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LARGE_BODY_BYTES } from '../payload/json-text.js';
import { holderOf, type OrganisationShares } from './organisation-shares.js';

/** A step's pause, as a multiple of the step's own time, while others are being served. */
export const PACE_FACTOR = 2;

/** The longest pause after one step, so that a step slowed by others is not paid for twice. */
const MAX_PAUSE_MS = 250;

/** An organisation whose last request began this recently is still being served. */
export const RECENT_MS = 100;

export class FairPace<Holder = string> {
  /** Per holder: settles when its current large request's turn, and pause, are over. */
  readonly #turns = new Map<Holder, Promise<void>>();
  /** Per holder: when its last request began (performance.now()). */
  readonly #lastBegun = new Map<Holder, number>();

  /**
   * `requests`: the requests in flight, per holder (shareRequests counts them). A holder is an
   * organisation under one key version (holderOf), so that a token a rotation revoked never
   * holds the turn of the tokens issued since.
   */
  constructor(private readonly requests: OrganisationShares<Holder>) {}

  /** Notes that a request of the organisation begins (paceOrganisations calls it). */
  begun(holder: Holder): void {
    this.#lastBegun.set(holder, performance.now());
  }

  /** Whether an organisation other than this one has a request in flight or begun lately. */
  othersServed(holder: Holder): boolean {
    if (this.requests.othersInFlight(holder)) return true;
    const since = performance.now() - RECENT_MS;
    for (const [other, begun] of this.#lastBegun) {
      if (begun < since) this.#lastBegun.delete(other);
      else if (other !== holder) return true;
    }
    return false;
  }

  /**
   * The pause the organisation owes after a step of `busyMs`: PACE_FACTOR times it while
   * another organisation is being served (othersServed), else none.
   */
  pauseAfter(holder: Holder, busyMs: number): number {
    if (!this.othersServed(holder)) return 0;
    return Math.min(MAX_PAUSE_MS, busyMs * PACE_FACTOR);
  }

  /** Gives way after a step of `busyMs`: its pause, or at least a turn of the event loop. */
  async giveWay(holder: Holder, busyMs: number): Promise<void> {
    const pause = this.pauseAfter(holder, busyMs);
    await (pause > 0 ? sleep(pause) : setImmediate());
  }

  /**
   * Waits for the organisation's turn at large work: one request at a time per organisation,
   * each after the pause its previous one owes. Returns what ends the turn (once; later calls
   * do nothing).
   */
  async turn(holder: Holder): Promise<() => void> {
    const previous = this.#turns.get(holder) ?? Promise.resolve();
    let release!: () => void;
    const mine = previous.then(() => new Promise<void>((resolve) => (release = resolve)));
    this.#turns.set(holder, mine);
    void mine.then(() => {
      if (this.#turns.get(holder) === mine) this.#turns.delete(holder);
    });
    await previous;
    const started = performance.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const pause = this.pauseAfter(holder, performance.now() - started);
      if (pause > 0) setTimeout(release, pause);
      else release();
    };
  }
}

/**
 * Notes when each authenticated request begins (FairPace.begun), and takes each one with a body
 * over LARGE_BODY_BYTES (or of undeclared size) in its organisation's turn (FairPace.turn), from
 * before its body is read until its response is closed.
 */
export function paceOrganisations(app: FastifyInstance, pace: FairPace): void {
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.caller;
    if (caller === undefined) return;
    const holder = holderOf(caller);
    pace.begun(holder);
    if (caller.bodyBytes !== undefined && caller.bodyBytes <= LARGE_BODY_BYTES) return;
    const turn = pace.turn(holder);
    // The turn ends when the response is closed: at once if the client left while it waited.
    reply.raw.once('close', () => void turn.then((endTurn) => endTurn()));
    await turn;
  });
}
