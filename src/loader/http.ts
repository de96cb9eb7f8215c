/**
 * The loader's HTTP transport: one undici pool of keep-alive connections to the service, JSON
 * in and out. Retries, tokens and meaning live above this.
 */
import { Pool } from 'undici';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  /** Path below the base URL (`/v1/…`), or an absolute path from a Link header. */
  path: string;
  json?: unknown;
  token?: string;
}

/** A failure to reach the service or read its answer (refused, reset, timed out). */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class HttpClient {
  private readonly pool: Pool;
  /** Path prefix of the base URL (`http://host/prefix`), without a trailing slash. */
  private readonly prefix: string;
  readonly origin: string;

  constructor(baseUrl: string, connections: number) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections,
      keepAliveTimeout: 30_000,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
  }

  /** The full path of `path`: absolute paths from the service (Link headers) are kept. */
  resolve(path: string): string {
    return this.prefix && !path.startsWith(`${this.prefix}/`) ? `${this.prefix}${path}` : path;
  }

  async request(options: RequestOptions): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token !== undefined) headers.authorization = `Token ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    try {
      const response = await this.pool.request({
        method: options.method,
        path: this.resolve(options.path),
        headers,
        body,
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, body: parseBody(text) };
    } catch (error) {
      throw asNetworkError(error);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function asNetworkError(error: unknown): NetworkError {
  if (error instanceof NetworkError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  // A refused connection to every address of a host name comes as an AggregateError.
  const inner = error instanceof AggregateError ? error.errors[0] : undefined;
  const innerCode = (inner as { code?: unknown } | undefined)?.code;
  const chosen =
    typeof innerCode === 'string' ? innerCode : typeof code === 'string' ? code : 'network_error';
  const message = error instanceof Error && error.message ? error.message : chosen;
  return new NetworkError(message, chosen);
}

/** The URL of the `rel="next"` link of an RFC 8288 Link header, if any. */
export function nextLink(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  for (const part of value.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel="?next"?\s*(;|$)/.test(match[2] ?? '')) return match[1];
  }
  return undefined;
}
