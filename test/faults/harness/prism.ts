/**
 * Stoplight Prism in proxy mode: an independent OpenAPI validator between client and service.
 * Every request is forwarded unchanged; Prism reports what does not match the document in the
 * `sl-violations` response header (request and response violations alike).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from './service.js';

export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** The violations Prism reported for one exchange. */
export function violationsOf(headers: Record<string, string | string[] | undefined>): Violation[] {
  const raw = headers['sl-violations'];
  if (raw === undefined) return [];
  return JSON.parse(Array.isArray(raw) ? raw.join('') : raw) as Violation[];
}

function prismCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
}

export class PrismProxy {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
  }

  /** Starts Prism on a free port, validating against `specFile`, forwarding to `upstream`. */
  static async start(specFile: string, upstream: string): Promise<PrismProxy> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        prismCli(),
        'proxy',
        specFile,
        upstream,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--errors',
        'false',
      ],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    const proxy = new PrismProxy(child, `http://127.0.0.1:${port}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Prism did not start:\n${proxy.output}`)),
        30_000,
      );
      child.stdout?.on('data', () => {
        if (/Prism is listening/.test(proxy.output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Prism exited with ${code}:\n${proxy.output}`));
      });
    });
    return proxy;
  }

  get log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
