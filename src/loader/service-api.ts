/**
 * The data-import calls the loader makes, each with a fresh token, retries by the policy, and
 * the process calls through the adaptive gate.
 */
import type { AdaptiveLimit, GateOutcome } from './adaptive-limit.js';
import { POST_IMPORT_PATHS, type PostImportKind } from './kinds.js';
import { nextLink, type HttpClient, type HttpResponse, type RequestOptions } from './http.js';
import {
  isRetryableStatus,
  withRetries,
  type AttemptOutcome,
  type RetryEnvironment,
  type RetryPolicy,
} from './retry.js';
import type { TokenManager } from './tokens.js';

const BASE = '/v1/data-import';
const PAGE_SIZE = 1000;

/** A 401 other than an expired token: the key was rotated or the organisation disabled. */
export class AuthenticationError extends Error {
  readonly status = 401;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The service answered a list query with something other than a page. */
export class UnexpectedAnswerError extends Error {}

export interface ProcessRequest {
  external_account_number: string;
  import_supplier_code: string;
  /** Left out where the supplier allocates its accounts to a team itself. */
  operations_team_name?: string;
  dry_run: boolean;
}

/** The top-level `code` of an error body, if it has one. */
export function errorCode(response: HttpResponse): string | undefined {
  const code = (response.body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Network errors of a connection that was never made: the request was not sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether the service may have handled a request whose attempt ended so. */
function mayHaveBeenHandled(outcome: AttemptOutcome): boolean {
  if (outcome.kind === 'network') return !NOT_SENT.has(outcome.code ?? '');
  return outcome.status === 500 || outcome.status === 502 || outcome.status === 504;
}

export class ServiceApi {
  /** Requests sent again after a retryable answer or a network error. */
  retries = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenManager,
    private readonly processGate: AdaptiveLimit,
    private readonly policy: RetryPolicy,
    private readonly env: RetryEnvironment,
  ) {}

  stage(payload: Record<string, unknown>): Promise<HttpResponse> {
    return this.send('POST', `${BASE}/account-import-process/create-or-update/`, payload);
  }

  /** Posts a record of a post-import kind to its endpoint. */
  postImport(kind: PostImportKind, body: Record<string, unknown>): Promise<HttpResponse> {
    return this.send('POST', `${BASE}/${POST_IMPORT_PATHS[kind]}`, body);
  }

  /**
   * `mayHaveCreated`: an earlier attempt may have been handled without its answer arriving (the
   * connection failed after sending, or a server or gateway error, 500, 502 or 504), so the
   * service may have created the account for it. Not after a refusal (409: another request held
   * the account; 429; 503) nor a connection never made.
   */
  async process(
    request: ProcessRequest,
  ): Promise<{ response: HttpResponse; mayHaveCreated: boolean }> {
    let mayHaveCreated = false;
    const response = await this.send(
      'POST',
      `${BASE}/account-import-process/process/`,
      request,
      this.processGate,
      (outcome) => {
        if (mayHaveBeenHandled(outcome)) mayHaveCreated = true;
      },
    );
    return { response, mayHaveCreated };
  }

  /**
   * The external numbers of the supplier's imported accounts, read page by page. A Set of a
   * million short strings is some tens of MB; it buys one query per run instead of a status
   * call per account. Empty when the supplier is unknown or not granted (404), or when the
   * service refuses the code itself (another 4xx: too long for a URL, say), or the code cannot
   * be put in a URL at all (a lone surrogate): staging then reports on every such account, and
   * the run goes on.
   */
  async importedAccounts(supplier: string): Promise<Set<string>> {
    const imported = new Set<string>();
    // encodeURIComponent refuses a string with a lone surrogate.
    if (!supplier.isWellFormed()) return imported;
    let path: string | undefined =
      `${BASE}/imported-account-import-processes/${encodeURIComponent(supplier)}/?limit=${PAGE_SIZE}`;
    while (path !== undefined) {
      const response = await this.send('GET', path);
      // A refused code is the stage's to report; only a service that cannot answer ends the run.
      if (response.status >= 400 && response.status < 500 && !isRetryableStatus(response.status)) {
        return new Set<string>();
      }
      if (response.status !== 200 || !Array.isArray(response.body)) {
        throw new UnexpectedAnswerError(
          `listing the imported accounts of ${supplier} failed: HTTP ${response.status} ${errorCode(response) ?? ''}`.trim(),
        );
      }
      for (const item of response.body as { external_account_number?: unknown }[]) {
        if (typeof item.external_account_number === 'string')
          imported.add(item.external_account_number);
      }
      const next = nextLink(response.headers.link);
      path = next === undefined ? undefined : pathOf(next, this.http.origin);
    }
    return imported;
  }

  private send(
    method: 'GET' | 'POST',
    path: string,
    json?: unknown,
    gate?: AdaptiveLimit,
    onRetry?: (outcome: AttemptOutcome) => void,
  ): Promise<HttpResponse> {
    const attempt = async (): Promise<HttpResponse> => {
      for (let renewed = 0; ; renewed++) {
        const token = await this.tokens.token();
        const response = await this.request({ method, path, json, token }, gate);
        if (response.status !== 401) return response;
        const code = errorCode(response) ?? 'not_authenticated';
        // An expired token is renewed and the request sent again at once, not counted as a
        // retry; twice in a row means the clocks disagree badly, which renewal won't fix.
        if (code !== 'token_expired' || renewed >= 2) {
          const detail = (response.body as { detail?: unknown } | undefined)?.detail;
          throw new AuthenticationError(code, typeof detail === 'string' ? detail : code);
        }
        await this.tokens.expired(token);
      }
    };
    return withRetries(attempt, this.policy, this.env, (outcome) => {
      this.retries++;
      onRetry?.(outcome);
    });
  }

  private async request(options: RequestOptions, gate?: AdaptiveLimit): Promise<HttpResponse> {
    await gate?.acquire();
    let outcome: GateOutcome = 'other';
    try {
      const response = await this.http.request(options);
      // Any answer but a 429 shows the service took this many at once.
      outcome = response.status === 429 ? 'busy' : 'ok';
      return response;
    } finally {
      gate?.release(outcome);
    }
  }
}

/** The path and query of a Link target, which may be relative or absolute. */
function pathOf(link: string, origin: string): string {
  const url = new URL(link, origin);
  return `${url.pathname}${url.search}`;
}
