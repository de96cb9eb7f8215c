/**
 * The loader's HTTP transport: a pool of keep-alive connections to the service (Node's own
 * http agent), JSON in and out. Retries, tokens and meaning live above this. (undici's Pool did
 * this before; importing it alone cost the loader about 18 MB of resident memory.)
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';

/** A connection silent this long, while a request waits on it, fails as ETIMEDOUT. */
const IDLE_TIMEOUT_MS = 60_000;
/** A new connection not established within this fails as ETIMEDOUT. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * An unused connection is closed after this, or sooner when the service announces a shorter
 * keep-alive (the agent then closes it a second before the service would).
 */
const KEEP_ALIVE_MS = 30_000;

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
  /** Aborting it ends the request at once, as a network error. */
  signal?: AbortSignal;
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
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  /** Where every request goes: the service's protocol, host (IPv6 without brackets) and port. */
  private readonly target: Pick<
    ReturnType<typeof urlToHttpOptions>,
    'protocol' | 'hostname' | 'port'
  >;
  /** Path prefix of the base URL (`http://host/prefix`), without a trailing slash. */
  private readonly prefix: string;
  readonly origin: string;

  constructor(baseUrl: string, connections: number) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    const { protocol, hostname, port } = urlToHttpOptions(url);
    this.target = { protocol, hostname, port };
    const secure = url.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: connections, timeout: KEEP_ALIVE_MS };
    this.agent = secure ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.send = secure ? httpsRequest : httpRequest;
  }

  /** The full path of `path`: absolute paths from the service (Link headers) are kept. */
  resolve(path: string): string {
    return this.prefix && !path.startsWith(`${this.prefix}/`) ? `${this.prefix}${path}` : path;
  }

  request(options: RequestOptions): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token !== undefined) headers.authorization = `Token ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => reject(asNetworkError(error));
      const onResponse = (response: IncomingMessage) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', fail);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: parseBody(text),
          }),
        );
      };
      try {
        const request = this.send(
          {
            ...this.target,
            method: options.method,
            path: this.resolve(options.path),
            headers,
            agent: this.agent,
            timeout: IDLE_TIMEOUT_MS,
            signal: options.signal,
          },
          onResponse,
        );
        const timedOut = (what: string) => () =>
          request.destroy(new NetworkError(`the service did not ${what} in time`, 'ETIMEDOUT'));
        request.on('timeout', timedOut('answer'));
        request.on('socket', (socket) => {
          if (!socket.connecting) return;
          const timer = setTimeout(timedOut('accept the connection'), CONNECT_TIMEOUT_MS);
          socket.once('connect', () => clearTimeout(timer));
          socket.once('close', () => clearTimeout(timer));
        });
        request.on('error', fail);
        request.end(body);
      } catch (error) {
        fail(error);
      }
    });
  }

  /** Closes every connection; requests still running fail. */
  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
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
