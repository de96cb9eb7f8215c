/**
 * An HTTP client for the fault tests: keep-alive connections (undici Pool), a hard timeout on
 * every request so a hang shows as a failure, and outcomes instead of exceptions: a response
 * (status, headers, parsed body, latency) or a transport failure (connection refused or cut).
 */
import { Pool } from 'undici';

export interface Reply {
  kind: 'reply';
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  ms: number;
  /** Milliseconds since the epoch when the request was sent. */
  sentAt: number;
}

export interface TransportFailure {
  kind: 'failure';
  /** The error code (ECONNREFUSED, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT, …). */
  code: string;
  message: string;
  ms: number;
  sentAt: number;
}

export type Outcome = Reply | TransportFailure;

/** Errors that mean "nothing answered in time": a hang, never acceptable. */
export const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface ClientOptions {
  connections?: number;
  /** Per-request limit for the response headers and for each body chunk. */
  timeoutMs?: number;
  token?: string;
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** A raw body (sent as is) instead of a JSON-encoded one. */
  raw?: Buffer | string;
}

export class Client {
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  token: string | undefined;

  constructor(
    readonly origin: string,
    options: ClientOptions = {},
  ) {
    this.pool = new Pool(origin, {
      connections: options.connections ?? 8,
      // Well inside the service's 5 s, so a busy test process never reuses a socket the
      // service has just closed (a keep-alive race, not a fault of the service).
      keepAliveTimeout: 2_000,
      keepAliveMaxTimeout: 2_000,
      connect: { timeout: 2_000 },
    });
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.token = options.token;
  }

  async send(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    options: SendOptions = {},
  ): Promise<Outcome> {
    const sentAt = Date.now();
    const started = performance.now();
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Token ${this.token}`;
    let payload: Buffer | string | undefined = options.raw;
    if (payload === undefined && body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    try {
      const response = await this.pool.request({
        method,
        path,
        headers,
        body: payload,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const text = await response.body.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return {
        kind: 'reply',
        status: response.statusCode,
        headers: response.headers,
        text,
        json,
        ms: performance.now() - started,
        sentAt,
      };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      return {
        kind: 'failure',
        code: code ?? 'UNKNOWN',
        message: message ?? String(error),
        ms: performance.now() - started,
        sentAt,
      };
    }
  }

  /**
   * A GET whose body is read and dropped, neither kept nor parsed: a load generator's request
   * for a large answer, which would otherwise cost the test process's own event loop (and so
   * the latency it measures of other requests) its parse.
   */
  async drain(path: string): Promise<Outcome> {
    const sentAt = Date.now();
    const started = performance.now();
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Token ${this.token}`;
    try {
      const response = await this.pool.request({
        method: 'GET',
        path,
        headers,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      for await (const _ of response.body);
      const ms = performance.now() - started;
      const { statusCode: status, headers: received } = response;
      return { kind: 'reply', status, headers: received, text: '', json: undefined, ms, sentAt };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      const ms = performance.now() - started;
      return { kind: 'failure', code: code ?? 'UNKNOWN', message: message ?? '', ms, sentAt };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** Drops every connection at once (after the server died, pending requests fail). */
  destroy(): Promise<void> {
    return this.pool.destroy();
  }
}

/** The body's `code` when it is in the service's error format. */
export function errorCode(reply: Reply): string | undefined {
  const body = reply.json as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

/** True when the body is `{detail, code, errors: [{detail, code, attr}]}` (SPEC.md 7.1). */
export function isErrorShape(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { detail, code, errors } = body as Record<string, unknown>;
  if (typeof detail !== 'string' || typeof code !== 'string' || !Array.isArray(errors))
    return false;
  return errors.every((item: unknown) => {
    if (typeof item !== 'object' || item === null) return false;
    const e = item as Record<string, unknown>;
    return (
      typeof e.detail === 'string' &&
      typeof e.code === 'string' &&
      (typeof e.attr === 'string' || e.attr === null)
    );
  });
}

/** Obtains an access token through the GraphQL endpoint. */
export async function obtainTokenOver(client: Client, apiKey: string): Promise<string> {
  const reply = await client.send('POST', '/v1/graphql/', {
    query: 'mutation ($k: String!) { obtainToken(input: { apiKey: $k }) { token } }',
    variables: { k: apiKey },
  });
  const token = (reply.kind === 'reply' &&
    (reply.json as { data?: { obtainToken?: { token?: string } } })?.data?.obtainToken?.token) as
    string | undefined;
  if (!token) throw new Error(`obtainToken failed: ${JSON.stringify(reply)}`);
  return token;
}

/** The p-th percentile (0–100) of the values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}
