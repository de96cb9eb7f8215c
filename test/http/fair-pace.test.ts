/**
 * Long work of one organisation gives way to the others: a step pauses for twice its time while
 * another organisation has a request in flight, and large bodies take turns per organisation.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../src/auth/access.js';
import { FairPace, PACE_FACTOR, RECENT_MS, paceOrganisations } from '../../src/http/fair-pace.js';
import { OrganisationShares, holderOf, shareRequests } from '../../src/http/organisation-shares.js';
import { LARGE_BODY_BYTES } from '../../src/payload/json-text.js';
import { until } from '../helpers/until.js';

describe('FairPace', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pauses a step only while another organisation has a request in flight', () => {
    const requests = new OrganisationShares(10, 'requests');
    const pace = new FairPace(requests);
    const own = requests.take(1);
    expect(pace.pauseAfter(1, 4)).toBe(0);
    const other = requests.take(2);
    expect(pace.pauseAfter(1, 4)).toBe(4 * PACE_FACTOR);
    // The pause is bounded, however long the step.
    expect(pace.pauseAfter(1, 60_000)).toBeLessThan(1_000);
    // Each owes the other; once one is done, the one left owes nothing.
    expect(pace.pauseAfter(2, 4)).toBe(4 * PACE_FACTOR);
    own();
    expect(pace.pauseAfter(2, 4)).toBe(0);
    other();
    expect(pace.pauseAfter(1, 4)).toBe(0);
  });

  it('counts an organisation whose request began lately as served, on SQLite too', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const pace = new FairPace(new OrganisationShares(10, 'requests'));
    pace.begun(1);
    expect(pace.othersServed(1)).toBe(false);
    // A short request of organisation 2 began and ended between two steps of organisation 1.
    pace.begun(2);
    expect(pace.othersServed(1)).toBe(true);
    expect(pace.pauseAfter(1, 3)).toBe(3 * PACE_FACTOR);
    vi.advanceTimersByTime(RECENT_MS + 1);
    expect(pace.othersServed(1)).toBe(false);
    expect(pace.pauseAfter(1, 3)).toBe(0);
  });

  it("starts an organisation's next turn after its previous one ended and paid its pause", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const requests = new OrganisationShares(10, 'requests');
    const pace = new FairPace(requests);
    const giveBack = requests.take(2);
    const endFirst = await pace.turn(1);
    let second: (() => void) | undefined;
    const secondTurn = pace.turn(1).then((end) => (second = end));
    // Another organisation's turn does not wait for organisation 1's.
    const otherEnd = await pace.turn(2);
    otherEnd();
    vi.advanceTimersByTime(10);
    endFirst();
    endFirst(); // ending twice ends once
    await vi.advanceTimersByTimeAsync(10 * PACE_FACTOR - 1);
    expect(second).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await secondTurn;
    expect(second).toBeDefined();
    // Alone on the service, the next turn follows at once.
    giveBack();
    second?.();
    await pace.turn(1);
  });
});

describe('paceOrganisations', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /**
   * An app whose caller is the `x-organisation` header, its token signed for the key version of
   * `x-key-version` (1 without it); its handlers wait for `release`.
   */
  async function appWithGates(limit = 10) {
    const requests = new OrganisationShares<string>(limit, 'requests');
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    // Closing ends the client's kept-alive connections too.
    app = Fastify({ forceCloseConnections: true });
    app.addHook('onRequest', async (request) => {
      const length = request.headers['content-length'];
      request.caller = {
        organisationId: Number(request.headers['x-organisation']),
        keyVersion: Number(request.headers['x-key-version'] ?? 1),
        bodyBytes: length === undefined ? undefined : Number(length),
      } as Caller;
    });
    shareRequests(app, requests);
    paceOrganisations(app, new FairPace(requests));
    app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    app.post<{ Querystring: { name: string } }>('/work', async (request) => {
      const { name } = request.query;
      started.push(name);
      await new Promise<void>((resolve) => gates.set(name, resolve));
      return { name };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = (
      name: string,
      organisation: number,
      bytes: number,
      { signal, keyVersion = 1 }: { signal?: AbortSignal; keyVersion?: number } = {},
    ) =>
      fetch(`${url}/work?name=${name}`, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'text/plain',
          'x-organisation': String(organisation),
          'x-key-version': String(keyVersion),
        },
        body: 'x'.repeat(bytes),
      });
    const send = (...args: Parameters<typeof post>) =>
      post(...args).then((response) => response.json() as Promise<{ name: string }>);
    const release = (name: string) => gates.get(name)?.();
    return { requests, started, post, send, release };
  }

  const holder = (organisationId: number, keyVersion = 1) =>
    holderOf({ organisationId, keyVersion });

  it("takes one organisation's large bodies one at a time, and nobody else's after them", async () => {
    const { requests, started, send, release } = await appWithGates();
    const large = LARGE_BODY_BYTES + 1;
    const first = send('first', 1, large);
    await until(async () => started.includes('first'));
    const second = send('second', 1, large);
    await until(async () => requests.inFlight(holder(1)) === 2);
    // A small body of the same organisation, and a large one of another, are not held.
    const small = send('small', 1, 100);
    const other = send('other', 2, large);
    await until(async () => started.includes('small') && started.includes('other'));
    expect(started).not.toContain('second');
    for (const name of ['small', 'other']) release(name);
    await Promise.all([small, other]);
    release('first');
    expect(await first).toEqual({ name: 'first' });
    await until(async () => started.includes('second'));
    release('second');
    expect(await second).toEqual({ name: 'second' });
  });

  it('ends the turn of a client that left while it waited', async () => {
    const { requests, started, send, release } = await appWithGates();
    const large = LARGE_BODY_BYTES + 1;
    const first = send('first', 1, large);
    await until(async () => started.includes('first'));
    const leaving = new AbortController();
    const left = send('leaving', 1, large, { signal: leaving.signal }).catch(
      (error: unknown) => error,
    );
    await until(async () => requests.inFlight(holder(1)) === 2);
    leaving.abort();
    expect(await left).toBeInstanceOf(Error);
    release('first');
    await first;
    // Had the leaver's turn never ended, this one would wait for ever.
    const third = send('third', 1, large);
    await until(async () => started.includes('third'));
    release('third');
    expect(await third).toEqual({ name: 'third' });
    // Its body had arrived whole, so its handler runs (outside any turn), answering nobody.
    await until(async () => started.includes('leaving'));
    release('leaving');
  });

  // A token a key rotation revoked is refused only when its request reaches the database, after
  // its body: until then it must hold nothing the organisation's current tokens need.
  it("keeps a revoked key version's requests out of the current tokens' share and turn", async () => {
    const { requests, started, post, send, release } = await appWithGates(2);
    const large = LARGE_BODY_BYTES + 1;
    const old = { keyVersion: 1 };
    const holding = [post('old-1', 1, large, old), post('old-2', 1, 100, old)];
    await until(async () => started.includes('old-1') && started.includes('old-2'));
    // The old version's share is full, and its large body holds its turn.
    const refused = await post('old-3', 1, 100, old);
    expect(refused.status).toBe(429);
    // The current tokens have their own: a small body and a large one both run.
    const current = { keyVersion: 2 };
    const sent = [send('new-small', 1, 100, current), send('new-large', 1, large, current)];
    await until(async () => started.includes('new-small') && started.includes('new-large'));
    expect(requests.inFlight(holder(1, 1))).toBe(2);
    for (const name of ['new-small', 'new-large', 'old-1', 'old-2']) release(name);
    expect((await Promise.all(sent)).map((body) => body.name)).toEqual(['new-small', 'new-large']);
    await Promise.all(holding);
  });
});
