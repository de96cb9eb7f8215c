import { describe, expect, it } from 'vitest';
import type { HttpClient, HttpResponse } from '../../src/loader/http.js';
import { DEFAULT_RETRY_POLICY, type RetryEnvironment } from '../../src/loader/retry.js';
import {
  TokenManager,
  TokenRefusedError,
  TokenUnavailableError,
  graphqlTokenEndpoint,
  renewalTime,
  type GrantRequest,
  type TokenGrant,
} from '../../src/loader/tokens.js';

const T0 = 1_750_000_000; // Unix seconds

/** A token endpoint that issues numbered tokens valid `ttl` seconds and logs each request. */
function fakeEndpoint(clock: { now: number }, ttl: number) {
  const requests: GrantRequest[] = [];
  let issued = 0;
  const spent = new Set<string>();
  const obtain = async (request: GrantRequest): Promise<TokenGrant> => {
    requests.push(request);
    if ('refreshToken' in request) {
      if (spent.has(request.refreshToken)) {
        throw new TokenRefusedError('invalid_refresh_token', 'spent');
      }
      spent.add(request.refreshToken);
    }
    await Promise.resolve();
    issued++;
    const iat = Math.floor(clock.now / 1000);
    return {
      token: `access-${issued}`,
      refreshToken: `refresh-${issued}`,
      refreshExpiresIn: iat + 3600,
      payload: { iat, exp: iat + ttl },
    };
  };
  return { obtain, requests, spend: (token: string) => spent.add(token) };
}

describe('renewalTime', () => {
  it('renews a quarter of the lifetime before expiry, at most a minute before', () => {
    const received = T0 * 1000;
    expect(renewalTime(received, { iat: T0, exp: T0 + 3600 })).toBe((T0 + 3600 - 60) * 1000);
    expect(renewalTime(received, { iat: T0, exp: T0 + 120 })).toBe((T0 + 90) * 1000);
  });

  it('never renews sooner than half the lifetime after receipt (clock ahead of the service)', () => {
    const received = (T0 + 500) * 1000; // local clock 500 s ahead
    expect(renewalTime(received, { iat: T0, exp: T0 + 600 })).toBe(received + 300_000);
  });

  it('does not renew by time when the token carries no expiry', () => {
    expect(renewalTime(T0 * 1000, {})).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('TokenManager', () => {
  it('obtains one token for many concurrent callers, then renews it with the refresh token', async () => {
    const clock = { now: T0 * 1000 };
    const endpoint = fakeEndpoint(clock, 3600);
    const tokens = new TokenManager(endpoint.obtain, 'key', () => clock.now);
    const first = await Promise.all(Array.from({ length: 10 }, () => tokens.token()));
    expect(new Set(first)).toEqual(new Set(['access-1']));
    clock.now += 3550 * 1000; // inside the last minute
    const second = await Promise.all(Array.from({ length: 10 }, () => tokens.token()));
    expect(new Set(second)).toEqual(new Set(['access-2']));
    expect(endpoint.requests).toEqual([{ apiKey: 'key' }, { refreshToken: 'refresh-1' }]);
    expect(tokens.renewals).toBe(1);
  });

  it('renews once on token_expired, however many workers saw the expired token', async () => {
    const clock = { now: T0 * 1000 };
    const endpoint = fakeEndpoint(clock, 3600);
    const tokens = new TokenManager(endpoint.obtain, 'key', () => clock.now);
    const used = await tokens.token();
    await Promise.all(Array.from({ length: 5 }, () => tokens.expired(used)));
    await tokens.expired(used); // a late report about the old token changes nothing
    expect(await tokens.token()).toBe('access-2');
    expect(endpoint.requests).toHaveLength(2);
  });

  it('falls back to the API key when the refresh token was refused', async () => {
    const clock = { now: T0 * 1000 };
    const endpoint = fakeEndpoint(clock, 60);
    const tokens = new TokenManager(endpoint.obtain, 'key', () => clock.now);
    await tokens.token();
    endpoint.spend('refresh-1');
    clock.now += 59 * 1000;
    expect(await tokens.token()).toBe('access-2');
    expect(endpoint.requests).toEqual([
      { apiKey: 'key' },
      { refreshToken: 'refresh-1' },
      { apiKey: 'key' },
    ]);
  });

  it('passes a refused API key on to the caller', async () => {
    const refuse = async (): Promise<TokenGrant> => {
      throw new TokenRefusedError('invalid_api_key', 'The API key is not valid.');
    };
    const tokens = new TokenManager(refuse, 'wrong');
    await expect(tokens.token()).rejects.toMatchObject({ code: 'invalid_api_key' });
  });
});

describe('graphqlTokenEndpoint', () => {
  const grant: TokenGrant = {
    token: 'access',
    refreshToken: 'refresh',
    refreshExpiresIn: T0 + 3600,
    payload: { iat: T0, exp: T0 + 3600 },
  };
  const refusal = (code: string) => ({
    status: 200,
    headers: {},
    body: { data: { obtainToken: null }, errors: [{ message: code, extensions: { code } }] },
  });

  /** The endpoint over an HTTP client that gives these answers in turn; counts its waits. */
  function endpointAnswering(answers: HttpResponse[]) {
    let sent = 0;
    const http = {
      request: async () => answers[Math.min(sent++, answers.length - 1)],
    } as unknown as HttpClient;
    const sleeps: number[] = [];
    let now = T0 * 1000;
    const env: RetryEnvironment = {
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
      random: () => 0,
      now: () => now,
    };
    const obtain = graphqlTokenEndpoint(http, DEFAULT_RETRY_POLICY, env);
    return { obtain, sent: () => sent, sleeps };
  }

  it('retries a transient failure the service reports inside a 200, as it would a 503', async () => {
    const { obtain, sent, sleeps } = endpointAnswering([
      refusal('service_unavailable'),
      refusal('internal_error'),
      { status: 200, headers: {}, body: { data: { obtainToken: grant } } },
    ]);
    await expect(obtain({ apiKey: 'key' })).resolves.toEqual(grant);
    expect(sent()).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('ends as unavailable, not as refused credentials, when the failure outlasts the retries', async () => {
    const { obtain, sent } = endpointAnswering([refusal('service_unavailable')]);
    const failure = obtain({ refreshToken: 'refresh' });
    await expect(failure).rejects.toBeInstanceOf(TokenUnavailableError);
    await expect(failure).rejects.toMatchObject({ code: 'service_unavailable' });
    // As long as any outage: six attempts, then one a second until a minute has passed.
    const { maxAttempts, outageWindowMs, outageDelayMs } = DEFAULT_RETRY_POLICY;
    expect(sent()).toBe(maxAttempts + outageWindowMs / outageDelayMs);
  });

  it('sends a refused credential once and reports it as refused', async () => {
    const { obtain, sent } = endpointAnswering([refusal('invalid_api_key')]);
    const failure = obtain({ apiKey: 'wrong' });
    await expect(failure).rejects.toBeInstanceOf(TokenRefusedError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(sent()).toBe(1);
  });
});
