/**
 * Per-organisation shares of the work in flight, so that one organisation cannot take what
 * every other one needs (docs/decisions.md: fairness between organisations). Each share is a
 * count per organisation with a bound; a request that would go past its organisation's bound is
 * refused with 429 and `Retry-After` before it does any work, and the other organisations are
 * not affected.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors.js';

/**
 * Whose share an authenticated request counts against before its caller is confirmed: its
 * organisation under the key version its token was signed for. A token a key rotation revoked
 * is only refused once its request reaches the database, after its body; counted apart, such
 * tokens (a leaked one, say) can fill only their old version's share, never the share of the
 * tokens issued since.
 */
export const holderOf = (caller: { organisationId: number; keyVersion: number }): string =>
  `${caller.organisationId}/${caller.keyVersion}`;

/** A bounded count of things in flight, per organisation (or per holder: holderOf). */
export class OrganisationShares<Holder = number> {
  readonly #inFlight = new Map<Holder, number>();

  /** `limit` per organisation; `what` names the work in the 429's detail. */
  constructor(
    readonly limit: number,
    private readonly what: string,
  ) {}

  /** How many the holder (an organisation, or holderOf's) has in flight. */
  inFlight(holder: Holder): number {
    return this.#inFlight.get(holder) ?? 0;
  }

  /** Whether a holder other than this one has anything in flight. */
  othersInFlight(holder: Holder): boolean {
    return this.#inFlight.size > (this.#inFlight.has(holder) ? 1 : 0);
  }

  /**
   * Takes one of the holder's share, or throws 429 too_many_requests when it has none
   * left. The returned function gives it back; calling it more than once gives back once.
   */
  take(holder: Holder): () => void {
    const count = this.inFlight(holder);
    if (count >= this.limit) {
      throw new ServiceError({
        code: 'too_many_requests',
        detail: `Your organisation already has ${this.limit} ${this.what} in flight; retry after Retry-After seconds.`,
        headers: { 'Retry-After': '1' },
      });
    }
    this.#inFlight.set(holder, count + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = this.inFlight(holder) - 1;
      if (left > 0) this.#inFlight.set(holder, left);
      else this.#inFlight.delete(holder);
    };
  }
}

/**
 * Counts each authenticated request against its holder's share (holderOf) from the moment its
 * token is verified (before its body is read) until its response is closed, finished or not.
 */
export function shareRequests(app: FastifyInstance, shares: OrganisationShares<string>): void {
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.caller;
    if (caller === undefined) return;
    const giveBack = shares.take(holderOf(caller));
    reply.raw.once('close', giveBack);
  });
}
