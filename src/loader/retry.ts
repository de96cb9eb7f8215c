/**
 * When and how long to wait before trying a request again: exponential backoff with full
 * jitter, at least the server's Retry-After, a bounded number of attempts. Pure functions of
 * their inputs, so tests check the delays without sleeping.
 */
import { NetworkError, type HttpResponse } from './http.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A larger Retry-After is cut to this, so a confused server cannot stall the run. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/** How one attempt ended, as far as retrying goes. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfter?: string | string[] | undefined }
  | { kind: 'network' };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/**
 * Busy (409 in progress, 429), timeouts and server errors may pass; any other 4xx is the
 * request's own fault (a validation failure) and would fail the same way again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or undefined when absent/bad. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  nowMs: number,
): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The backoff ceiling before attempt `failed + 1`: base × 2^(failed−1), capped. */
export function backoffCeiling(policy: RetryPolicy, failed: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failed - 1));
}

/**
 * Whether to try again after attempt number `failed` (1-based) ended with `outcome`, and after
 * how long. `random` is a number in [0, 1). With Retry-After the wait is that long plus the
 * jitter, so clients told the same Retry-After do not all come back in the same millisecond.
 */
export function decideRetry(
  policy: RetryPolicy,
  failed: number,
  outcome: AttemptOutcome,
  random: number,
  nowMs: number,
): RetryDecision {
  if (failed >= policy.maxAttempts) return { retry: false };
  if (outcome.kind === 'response' && !isRetryableStatus(outcome.status)) return { retry: false };
  const jitter = Math.floor(random * backoffCeiling(policy, failed));
  const retryAfter =
    outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, nowMs) : undefined;
  if (retryAfter === undefined) return { retry: true, delayMs: jitter };
  return { retry: true, delayMs: Math.min(retryAfter, policy.maxRetryAfterMs) + jitter };
}

/** What the retrying code needs from the outside world; tests pass fakes. */
export interface RetryEnvironment {
  sleep(ms: number): Promise<void>;
  random(): number;
  now(): number;
}

export const REAL_ENVIRONMENT: RetryEnvironment = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  now: Date.now,
};

/**
 * Sends with `attempt` until it gets an answer not worth retrying or runs out of attempts; the
 * last answer is returned (a 503 after six tries is still an answer), the last network error
 * thrown. Any other error passes straight through.
 */
export async function withRetries(
  attempt: () => Promise<HttpResponse>,
  policy: RetryPolicy,
  env: RetryEnvironment,
  onRetry: () => void = () => undefined,
): Promise<HttpResponse> {
  for (let failed = 1; ; failed++) {
    let response: HttpResponse | undefined;
    let networkError: NetworkError | undefined;
    try {
      response = await attempt();
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      networkError = error;
    }
    const outcome: AttemptOutcome = response
      ? { kind: 'response', status: response.status, retryAfter: response.headers['retry-after'] }
      : { kind: 'network' };
    const decision = decideRetry(policy, failed, outcome, env.random(), env.now());
    if (!decision.retry) {
      if (response) return response;
      throw networkError;
    }
    onRetry();
    await env.sleep(decision.delayMs);
  }
}
