import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../../src/loader/adaptive-limit.js';
import {
  NetworkError,
  type HttpClient,
  type HttpResponse,
  type RequestOptions,
} from '../../src/loader/http.js';
import { DEFAULT_RETRY_POLICY, type RetryEnvironment } from '../../src/loader/retry.js';
import { AuthenticationError, ServiceApi } from '../../src/loader/service-api.js';
import { TokenManager, type TokenGrant } from '../../src/loader/tokens.js';

type Handler = (options: RequestOptions) => HttpResponse;

/** A service answering from `handler`, recording every request it got. */
const PROCESS_REQUEST = {
  external_account_number: 'X-1',
  import_supplier_code: 'ACME',
  operations_team_name: 'Loaders',
  dry_run: false,
};

function fakeService(handler: Handler) {
  const requests: RequestOptions[] = [];
  const http = {
    origin: 'http://service.test',
    request: async (options: RequestOptions) => {
      requests.push(options);
      return handler(options);
    },
  } as unknown as HttpClient;
  let issued = 0;
  const obtain = async (): Promise<TokenGrant> => ({
    token: `t${++issued}`,
    refreshToken: `r${issued}`,
    refreshExpiresIn: 2_000_000_000,
    payload: {},
  });
  const sleeps: number[] = [];
  let now = 0;
  const env: RetryEnvironment = {
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => 0,
    now: () => now,
  };
  const gate = new AdaptiveLimit(8);
  const api = new ServiceApi(
    http,
    new TokenManager(obtain, 'key'),
    gate,
    DEFAULT_RETRY_POLICY,
    env,
  );
  return { api, requests, sleeps, gate };
}

const answer = (status: number, body: unknown = {}, headers: HttpResponse['headers'] = {}) => ({
  status,
  body,
  headers,
});

describe('ServiceApi', () => {
  it('renews an expired token and sends again at once, not as a retry', async () => {
    const { api, requests, sleeps } = fakeService((options) =>
      options.token === 't1' ? answer(401, { code: 'token_expired' }) : answer(201),
    );
    expect((await api.stage({})).status).toBe(201);
    expect(requests.map((r) => r.token)).toEqual(['t1', 't2']);
    expect(api.retries).toBe(0);
    expect(sleeps).toEqual([]);
  });

  it('stops on any other 401 (key rotated, organisation disabled)', async () => {
    const { api } = fakeService(() => answer(401, { code: 'invalid_token', detail: 'Revoked.' }));
    await expect(api.stage({})).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('retries a 429 of process after Retry-After and narrows the process gate', async () => {
    let calls = 0;
    const { api, sleeps, gate } = fakeService(() =>
      ++calls === 1
        ? answer(429, { code: 'too_many_accounts_in_progress' }, { 'retry-after': '1' })
        : answer(201, { service_account_number: 'A-00000001' }),
    );
    const { response, mayHaveCreated } = await api.process(PROCESS_REQUEST);
    expect(response.status).toBe(201);
    // A 429 is refused before anything is claimed.
    expect(mayHaveCreated).toBe(false);
    expect(sleeps).toEqual([1000]);
    expect(api.retries).toBe(1);
    expect(gate.current).toBe(4);
  });

  it('tells when an earlier attempt of a process request may have created the account', async () => {
    const reset = new NetworkError('socket hang up', 'ECONNRESET');
    const refused = new NetworkError('connect ECONNREFUSED', 'ECONNREFUSED');
    for (const [first, may] of [
      // It may have been handled, its answer lost.
      [reset, true],
      [answer(500, { code: 'internal_error' }), true],
      [answer(502, {}), true],
      [answer(504, {}), true],
      // Refused, or never sent: nothing was created for it.
      [refused, false],
      [answer(503, { code: 'service_unavailable' }), false],
      [answer(409, { code: 'account_import_in_progress' }), false],
      [answer(429, { code: 'too_many_accounts_in_progress' }), false],
    ] as const) {
      let calls = 0;
      const { api } = fakeService(() => {
        if (++calls > 1) return answer(400, { code: 'account_import_process_already_imported' });
        if (first instanceof NetworkError) throw first;
        return first;
      });
      const { response, mayHaveCreated } = await api.process(PROCESS_REQUEST);
      expect(response.status).toBe(400);
      expect(mayHaveCreated).toBe(may);
    }
  });

  it('reads the imported list page by page through the Link header', async () => {
    const pages: Record<string, HttpResponse> = {
      '?limit=1000': answer(200, [{ external_account_number: 'A' }], {
        link: '</v1/data-import/imported-account-import-processes/ACME/?limit=1000&after=c1>; rel="next"',
      }),
      '?limit=1000&after=c1': answer(200, [{ external_account_number: 'B' }]),
    };
    const { api, requests } = fakeService(
      (options) => pages[options.path.slice(options.path.indexOf('?'))] ?? answer(500),
    );
    expect([...(await api.importedAccounts('ACME'))]).toEqual(['A', 'B']);
    expect(requests.map((r) => r.path)).toEqual([
      '/v1/data-import/imported-account-import-processes/ACME/?limit=1000',
      '/v1/data-import/imported-account-import-processes/ACME/?limit=1000&after=c1',
    ]);
  });

  it('treats an unknown supplier as having nothing imported', async () => {
    const { api } = fakeService(() => answer(404, { code: 'import_supplier_not_found' }));
    expect((await api.importedAccounts('NOPE')).size).toBe(0);
  });
});
