/**
 * The real service as a child process (`node dist/cli/main.js serve`), so faults can be
 * injected from outside: SIGKILL, SIGTERM, a database that goes away. Readiness is polled on
 * `/readyz`; memory is read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { CLI_PATH } from '../../cli/run-cli.js';

/** NODE_OPTIONS that make the service report its live heap after a forced GC (see gcProbes). */
export const GC_PROBE_OPTIONS = `--expose-gc --require ${fileURLToPath(new URL('./gc-probe.cjs', import.meta.url))}`;

/** A fixed token secret, so tokens survive restarts and every instance agrees. */
export const FAULTS_TOKEN_SECRET = 'faults-token-secret-0123456789abcdef-0123';

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds since the process was started. */
  at: number;
}

export interface ServiceOptions {
  databaseUrl: string;
  port: number;
  /** Extra environment (PROCESS_LEASE_SECONDS, REQUEST_TIMEOUT_MS, …). */
  env?: Record<string, string>;
  /** How long to wait for `/readyz` to answer 200. */
  readyWithinMs?: number;
}

/** Polls `check` until it returns true; throws after `withinMs` with `what` in the message. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  withinMs: number,
  everyMs = 50,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** GET a path with a short timeout; the status, or undefined when nothing answered. */
export async function probe(url: string, timeoutMs = 1_000): Promise<number | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

export class ServiceProcess {
  readonly url: string;
  readonly exited: Promise<Exit>;
  private output = '';
  private readonly startedAt = Date.now();

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) =>
        resolve({ code, signal, at: Date.now() - this.startedAt }),
      ),
    );
  }

  /** Starts the service and resolves once `/readyz` answers 200. */
  static async start(options: ServiceOptions): Promise<ServiceProcess> {
    if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run "npm run build"`);
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['DEBUG', 'NODE_OPTIONS']) delete env[name];
    Object.assign(env, {
      DATABASE_URL: options.databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(options.port),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      TOKEN_SECRET: FAULTS_TOKEN_SECRET,
      ...options.env,
    });
    const child = spawn(process.execPath, [CLI_PATH, 'serve'], { env });
    const service = new ServiceProcess(child, options.port);
    let gone = false;
    void service.exited.then(() => (gone = true));
    await waitFor(
      'the service answering /readyz with 200',
      async () => {
        if (gone) throw new Error(`the service exited before it was ready:\n${service.log}`);
        return (await probe(`${service.url}/readyz`)) === 200;
      },
      options.readyWithinMs ?? 30_000,
    );
    return service;
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('no pid');
    return this.child.pid;
  }

  /** Everything the service wrote to stdout and stderr. */
  get log(): string {
    return this.output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resident set size in bytes (Linux /proc), or undefined once the process is gone. */
  rssBytes(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** The live heap after each forced GC, when the service runs with gc-probe.cjs preloaded. */
  gcProbes(): { at: number; heapUsed: number; rss: number }[] {
    return [...this.output.matchAll(/^GC_PROBE (\{.*\})$/gm)].map(
      (match) => JSON.parse(match[1] ?? '{}') as { at: number; heapUsed: number; rss: number },
    );
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Sends the signal and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<Exit> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}
