/**
 * Access tokens for the loader: one obtained with the API key at the start, renewed with the
 * single-use refresh token shortly before it expires, and at once when the service answers
 * 401 token_expired. The token mutation is rate limited, so it is called rarely and by one
 * caller at a time however many workers need a token.
 */
import type { HttpClient, HttpResponse } from './http.js';
import {
  isRetryableStatus,
  withRetries,
  type RetryEnvironment,
  type RetryPolicy,
} from './retry.js';

export interface TokenGrant {
  token: string;
  refreshToken: string;
  /** Unix seconds at which the refresh token expires. */
  refreshExpiresIn: number;
  /** The access token's claims: `exp` and `iat` in Unix seconds. */
  payload: { exp?: number; iat?: number; [claim: string]: unknown };
}

export type GrantRequest = { apiKey: string } | { refreshToken: string };
/** Obtains a grant; `signal` aborting gives it up (Ctrl-C before the run has started). */
export type ObtainGrant = (request: GrantRequest, signal?: AbortSignal) => Promise<TokenGrant>;

/** The token endpoint said no (`invalid_api_key`, `invalid_refresh_token`, …). */
export class TokenRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The token endpoint kept failing (a 5xx, a 429 or a transient error) through every retry. */
export class TokenUnavailableError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MAX_MARGIN_MS = 60_000;

/**
 * When to renew a token received at `receivedAtMs`: a quarter of its lifetime (at most a
 * minute) before it expires, but never sooner than half its lifetime after it arrived, so a
 * local clock ahead of the service's cannot turn every request into a renewal.
 */
export function renewalTime(receivedAtMs: number, payload: TokenGrant['payload']): number {
  if (typeof payload.exp !== 'number') return Number.POSITIVE_INFINITY;
  const expiresAt = payload.exp * 1000;
  const lifetime =
    typeof payload.iat === 'number' ? expiresAt - payload.iat * 1000 : expiresAt - receivedAtMs;
  const margin = Math.min(MAX_MARGIN_MS, lifetime / 4);
  return Math.max(receivedAtMs + lifetime / 2, expiresAt - margin);
}

export class TokenManager {
  /** Tokens obtained after the first one (by refresh token or, failing that, the key). */
  renewals = 0;
  private grant: TokenGrant | undefined;
  private renewAt = 0;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly obtain: ObtainGrant,
    private readonly apiKey: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A token fit to send now, renewed first when it is due. `signal` gives up the wait: for the
   * run's first token only, as accounts in flight after a Ctrl-C still need theirs.
   */
  async token(signal?: AbortSignal): Promise<string> {
    if (this.grant === undefined || this.now() >= this.renewAt) await this.renew(signal);
    return (this.grant as TokenGrant).token;
  }

  /** The service said `used` has expired: renew, unless another worker already did. */
  async expired(used: string): Promise<void> {
    if (this.grant?.token === used) await this.renew();
  }

  private renew(signal?: AbortSignal): Promise<void> {
    this.pending ??= this.fetch(signal).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetch(signal?: AbortSignal): Promise<void> {
    const previous = this.grant;
    let next: TokenGrant | undefined;
    if (previous !== undefined && this.now() < previous.refreshExpiresIn * 1000 - 5000) {
      try {
        next = await this.obtain({ refreshToken: previous.refreshToken }, signal);
      } catch (error) {
        // A spent or revoked refresh token: start again from the key.
        if (!(error instanceof TokenRefusedError)) throw error;
      }
    }
    next ??= await this.obtain({ apiKey: this.apiKey }, signal);
    if (previous !== undefined) this.renewals++;
    this.grant = next;
    this.renewAt = renewalTime(this.now(), next.payload);
  }
}

const WITH_KEY =
  'mutation($k:String!){obtainToken(input:{apiKey:$k}){token refreshToken refreshExpiresIn payload}}';
const WITH_REFRESH =
  'mutation($r:String!){obtainToken(input:{refreshToken:$r}){token refreshToken refreshExpiresIn payload}}';

interface GraphqlAnswer {
  data?: { obtainToken?: TokenGrant | null } | null;
  errors?: { message?: string; extensions?: { code?: string } }[];
  detail?: string;
}

/**
 * The codes of a GraphQL error that the service answers with HTTP 200, as GraphQL does, where a
 * REST endpoint would answer 500 or 503: the database was unavailable, or the service failed.
 */
const TRANSIENT_CODES = new Set(['service_unavailable', 'internal_error']);

/** A 200 that carries a transient error instead of a token, retried as the 503 it stands for. */
function asRetryable(response: HttpResponse): HttpResponse {
  if (response.status !== 200) return response;
  const answer = (response.body ?? {}) as GraphqlAnswer;
  const code = answer.errors?.[0]?.extensions?.code;
  if (answer.data?.obtainToken || code === undefined || !TRANSIENT_CODES.has(code)) {
    return response;
  }
  return { ...response, status: 503 };
}

/**
 * The obtainToken mutation over HTTP, retried like every request (its 429 included), and so is
 * a transient failure the service reports inside a 200 (TRANSIENT_CODES).
 */
export function graphqlTokenEndpoint(
  http: HttpClient,
  policy: RetryPolicy,
  env: RetryEnvironment,
  onRetry?: () => void,
): ObtainGrant {
  return async (request, signal) => {
    const json =
      'apiKey' in request
        ? { query: WITH_KEY, variables: { k: request.apiKey } }
        : { query: WITH_REFRESH, variables: { r: request.refreshToken } };
    const send = async () =>
      asRetryable(await http.request({ method: 'POST', path: '/v1/graphql/', json, signal }));
    const response = await withRetries(send, policy, env, onRetry, signal);
    const answer = (response.body ?? {}) as GraphqlAnswer;
    const grant = answer.data?.obtainToken;
    if (response.status === 200 && grant) return grant;
    const error = answer.errors?.[0];
    const code = error?.extensions?.code ?? `http_${response.status}`;
    const message =
      error?.message ?? answer.detail ?? `the token endpoint answered HTTP ${response.status}`;
    if (isRetryableStatus(response.status)) throw new TokenUnavailableError(code, message);
    throw new TokenRefusedError(code, message);
  };
}
