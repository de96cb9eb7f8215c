/**
 * HTTP/1.1 over a bare TCP socket, for what a well-behaved client library never does: send a
 * request in pieces, slowly, pipelined, or broken.
 */
import net from 'node:net';

export class RawConnection {
  private data = '';
  private ended = false;
  private readonly waiters = new Set<() => void>();
  readonly openedAt = Date.now();
  /** Milliseconds after opening when the server closed the connection. */
  closedAfterMs: number | undefined;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.data += chunk;
      this.notify();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.ended = true;
      this.closedAfterMs = Date.now() - this.openedAt;
      this.notify();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private notify(): void {
    for (const waiter of this.waiters) waiter();
  }

  /** Everything received so far (latin1, so bytes map one to one). */
  get received(): string {
    return this.data;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Writes unless the connection is gone; false when it could not. */
  write(data: string | Buffer): boolean {
    if (this.ended || this.socket.destroyed) return false;
    this.socket.write(data);
    return true;
  }

  /** Resolves when `condition` holds (checked on every event), or rejects after withinMs. */
  until(what: string, condition: () => boolean, withinMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `${what}: not within ${withinMs} ms; received ${JSON.stringify(this.data.slice(0, 500))}`,
          ),
        );
      }, withinMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once the server closed the connection. */
  untilClosed(withinMs: number): Promise<void> {
    return this.until('the server closing the connection', () => this.ended, withinMs);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export interface ParsedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The complete responses (Content-Length framed) at the start of `data`. */
export function parseResponses(data: string): ParsedResponse[] {
  const responses: ParsedResponse[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return responses;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (status === 100) {
      rest = rest.slice(end + 4);
      continue;
    }
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) return responses;
    responses.push({ status, headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

/** The head of a POST with a JSON body of `length` bytes. */
export function postHead(
  path: string,
  length: number,
  headers: Record<string, string> = {},
): string {
  const lines = [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
