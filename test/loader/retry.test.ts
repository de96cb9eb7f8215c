import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NetworkError, type HttpResponse } from '../../src/loader/http.js';
import {
  DEFAULT_RETRY_POLICY as POLICY,
  backoffCeiling,
  decideRetry,
  isRetryableStatus,
  parseRetryAfter,
  REAL_ENVIRONMENT,
  withRetries,
  type RetryEnvironment,
} from '../../src/loader/retry.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

const response = (status: number, headers: HttpResponse['headers'] = {}): HttpResponse => ({
  status,
  headers,
  body: {},
});

/** A clock that only moves when the code under test sleeps. */
function fakeEnvironment(random = 0.5) {
  const sleeps: number[] = [];
  let now = NOW;
  const env: RetryEnvironment = {
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => random,
    now: () => now,
  };
  return { env, sleeps };
}

describe('which answers are retried', () => {
  it('retries busy, timeouts and server errors, never a request the service refused', () => {
    for (const status of [408, 409, 429, 500, 502, 503, 504]) {
      expect(isRetryableStatus(status)).toBe(true);
    }
    for (const status of [200, 201, 400, 401, 403, 404, 413, 422]) {
      expect(isRetryableStatus(status)).toBe(false);
    }
    expect(decideRetry(POLICY, 1, { kind: 'response', status: 400 }, 0.5, NOW, 0)).toEqual({
      retry: false,
    });
    expect(decideRetry(POLICY, 1, { kind: 'network' }, 0.5, NOW, 0).retry).toBe(true);
  });

  it('stops after the last attempt', () => {
    const outcome = { kind: 'response', status: 500 } as const;
    expect(decideRetry(POLICY, POLICY.maxAttempts - 1, outcome, 0.5, NOW, 0).retry).toBe(true);
    expect(decideRetry(POLICY, POLICY.maxAttempts, outcome, 0.5, NOW, 0).retry).toBe(false);
  });

  it('goes on past the last attempt while the service cannot be reached, for a while', () => {
    const outages = [
      { kind: 'network' },
      { kind: 'response', status: 502 },
      { kind: 'response', status: 503 },
      { kind: 'response', status: 504 },
    ] as const;
    const { maxAttempts: last, outageWindowMs: window } = POLICY;
    for (const outcome of outages) {
      expect(decideRetry(POLICY, last, outcome, 0, NOW, window - 1)).toEqual({
        retry: true,
        delayMs: POLICY.outageDelayMs,
      });
      expect(decideRetry(POLICY, last + 20, outcome, 0, NOW, window)).toEqual({ retry: false });
    }
    for (const status of [408, 409, 429, 500]) {
      const outcome = { kind: 'response', status } as const;
      expect(decideRetry(POLICY, last, outcome, 0, NOW, 0)).toEqual({ retry: false });
    }
  });
});

describe('backoff', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffCeiling(POLICY, n))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });

  it('waits a uniformly jittered time below the ceiling (full jitter)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (n, r) => {
          const decision = decideRetry(POLICY, n, { kind: 'network' }, r, NOW, 0);
          if (!decision.retry) return false;
          return decision.delayMs >= 0 && decision.delayMs < backoffCeiling(POLICY, n);
        },
      ),
    );
    expect(decideRetry(POLICY, 3, { kind: 'network' }, 0, NOW, 0)).toEqual({
      retry: true,
      delayMs: 0,
    });
    expect(decideRetry(POLICY, 3, { kind: 'network' }, 0.5, NOW, 0)).toEqual({
      retry: true,
      delayMs: 1000,
    });
  });
});

describe('Retry-After', () => {
  it('parses delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(['1'], NOW)).toBe(1000);
    expect(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW)).toBe(7000);
    expect(parseRetryAfter(new Date(NOW - 7000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });

  it('waits at least Retry-After, plus jitter, and at most the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 600 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        (n, seconds, r) => {
          const outcome = { kind: 'response', status: 429, retryAfter: String(seconds) } as const;
          const decision = decideRetry(POLICY, n, outcome, r, NOW, 0);
          if (!decision.retry) return false;
          const floor = Math.min(seconds * 1000, POLICY.maxRetryAfterMs);
          return decision.delayMs >= floor && decision.delayMs < floor + backoffCeiling(POLICY, n);
        },
      ),
    );
  });
});

describe('withRetries', () => {
  it('retries 503 and 429 (honouring Retry-After) until an answer', async () => {
    const { env, sleeps } = fakeEnvironment(0.5);
    const answers = [response(503), response(429, { 'retry-after': '2' }), response(201)];
    let retries = 0;
    const result = await withRetries(
      async () => answers.shift() as HttpResponse,
      POLICY,
      env,
      () => retries++,
    );
    expect(result.status).toBe(201);
    expect(sleeps).toEqual([250, 2000 + 500]);
    expect(retries).toBe(2);
  });

  it('returns a validation failure at once', async () => {
    const { env, sleeps } = fakeEnvironment();
    let calls = 0;
    const result = await withRetries(async () => (calls++, response(400)), POLICY, env);
    expect(result.status).toBe(400);
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('gives up after the last attempt: the last answer, or the last network error', async () => {
    const { env, sleeps } = fakeEnvironment(0);
    let calls = 0;
    const last = await withRetries(async () => (calls++, response(500)), POLICY, env);
    expect(last.status).toBe(500);
    expect(calls).toBe(POLICY.maxAttempts);
    expect(sleeps).toHaveLength(POLICY.maxAttempts - 1);
    const refused = withRetries(
      async () => {
        throw new NetworkError('connect ECONNREFUSED', 'ECONNREFUSED');
      },
      POLICY,
      env,
    );
    await expect(refused).rejects.toThrow(NetworkError);
  });

  it('outlasts a restart of the service: network errors for 45 s, then an answer', async () => {
    const { env, sleeps } = fakeEnvironment(0.5);
    const back = NOW + 45_000;
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls++;
        if (env.now() < back) throw new NetworkError('connect ECONNREFUSED', 'ECONNREFUSED');
        return response(201);
      },
      POLICY,
      env,
    );
    expect(result.status).toBe(201);
    expect(calls).toBeGreaterThan(POLICY.maxAttempts);
    expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(45_000);
  });

  it('gives up on an outage once it has lasted the window', async () => {
    const { env } = fakeEnvironment(0);
    let calls = 0;
    const last = await withRetries(async () => (calls++, response(503)), POLICY, env);
    expect(last.status).toBe(503);
    // Six attempts without waiting (random 0), then one a second until a minute has passed.
    expect(calls).toBe(POLICY.maxAttempts + POLICY.outageWindowMs / POLICY.outageDelayMs);
  });

  it('tries nothing more once the signal aborts, and cuts a wait short', async () => {
    const { env } = fakeEnvironment();
    const stop = new AbortController();
    let calls = 0;
    const stopped = withRetries(
      async () => {
        if (++calls === 2) stop.abort();
        return response(503);
      },
      POLICY,
      env,
      undefined,
      stop.signal,
    );
    await expect(stopped).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toBe(2);

    // A real wait of about a minute, aborted once it has begun.
    const cut = new AbortController();
    const waiting = withRetries(
      async () => response(503),
      { ...POLICY, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      { ...REAL_ENVIRONMENT, random: () => 0.99 },
      () => setImmediate(() => cut.abort()),
      cut.signal,
    );
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('lets other errors through untouched', async () => {
    const { env, sleeps } = fakeEnvironment();
    const failing = withRetries(
      async () => {
        throw new TypeError('bug');
      },
      POLICY,
      env,
    );
    await expect(failing).rejects.toThrow(TypeError);
    expect(sleeps).toEqual([]);
  });
});
