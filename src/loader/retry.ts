/**
 * When and how long to wait before trying a request again: exponential backoff with full
 * jitter, at least the server's Retry-After, a bounded number of attempts. Pure functions of
 * their inputs, so tests check the delays without sleeping.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NetworkError, type HttpResponse } from './http.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A larger Retry-After is cut to this, so a confused server cannot stall the run. */
  maxRetryAfterMs: number;
  /**
   * While the service cannot be reached (a network error, 502, 503, 504), a request is tried
   * for at least this long from its first attempt, past maxAttempts: a restart of the service
   * must not end an unattended run. Tries past maxAttempts wait at least outageDelayMs.
   */
  outageWindowMs: number;
  outageDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  outageWindowMs: 60_000,
  outageDelayMs: 1_000,
};

/** How one attempt ended, as far as retrying goes. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfter?: string | string[] | undefined }
  | { kind: 'network'; code?: string };

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

/** The service could not be reached, or a proxy in front of it could not reach it. */
export function isOutage(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'network' || [502, 503, 504].includes(outcome.status);
}

/**
 * Whether to try again after attempt number `failed` (1-based) ended with `outcome`, `elapsedMs`
 * after the first attempt began, and after how long. `random` is a number in [0, 1). With
 * Retry-After the wait is that long plus the jitter, so clients told the same Retry-After do not
 * all come back in the same millisecond.
 */
export function decideRetry(
  policy: RetryPolicy,
  failed: number,
  outcome: AttemptOutcome,
  random: number,
  nowMs: number,
  elapsedMs: number,
): RetryDecision {
  if (outcome.kind === 'response' && !isRetryableStatus(outcome.status)) return { retry: false };
  const pastAttempts = failed >= policy.maxAttempts;
  if (pastAttempts && !(isOutage(outcome) && elapsedMs < policy.outageWindowMs)) {
    return { retry: false };
  }
  const ceiling = backoffCeiling(policy, failed);
  const jitter = pastAttempts
    ? Math.max(policy.outageDelayMs, Math.floor(random * ceiling))
    : Math.floor(random * ceiling);
  const retryAfter =
    outcome.kind === 'response' ? parseRetryAfter(outcome.retryAfter, nowMs) : undefined;
  if (retryAfter === undefined) return { retry: true, delayMs: jitter };
  return { retry: true, delayMs: Math.min(retryAfter, policy.maxRetryAfterMs) + jitter };
}

/** What the retrying code needs from the outside world; tests pass fakes. */
export interface RetryEnvironment {
  /** Waits `ms`; rejects at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

export const REAL_ENVIRONMENT: RetryEnvironment = {
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
  random: Math.random,
  now: Date.now,
};

/**
 * Sends with `attempt` until it gets an answer not worth retrying or runs out of attempts; the
 * last answer is returned (a 503 after six tries is still an answer), the last network error
 * thrown. Any other error passes straight through. `onRetry` hears how each attempt that is
 * tried again ended. Once `signal` aborts, nothing is tried again: its reason is thrown.
 */
export async function withRetries(
  attempt: () => Promise<HttpResponse>,
  policy: RetryPolicy,
  env: RetryEnvironment,
  onRetry: (outcome: AttemptOutcome) => void = () => undefined,
  signal?: AbortSignal,
): Promise<HttpResponse> {
  const started = env.now();
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
      : { kind: 'network', code: networkError?.code };
    const now = env.now();
    const decision = decideRetry(policy, failed, outcome, env.random(), now, now - started);
    if (!decision.retry) {
      if (response) return response;
      throw networkError;
    }
    signal?.throwIfAborted();
    onRetry(outcome);
    await env.sleep(decision.delayMs, signal);
    signal?.throwIfAborted();
  }
}
