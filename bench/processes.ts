/**
 * Child processes of the benchmark (service, baselines, loader) and their memory. Every child
 * is started in its own process group and killed, group and all, when the benchmark ends,
 * fails or is interrupted: no server is left behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Resolves with `exit code N` or the signal name when the child has exited. */
  exited: Promise<string>;
  /** The last lines the child wrote to stderr, for error messages. */
  stderrTail(): string;
  /** The last 256 kB the child wrote to stdout. */
  stdoutTail(): string;
}

const children = new Set<Child>();

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Both output streams are appended to this file. */
  logFile: string;
  cwd?: string;
}

/** Starts `command args` in its own process group, logging to `logFile`. */
export function startChild(
  name: string,
  command: string,
  args: readonly string[],
  options: StartOptions,
): Child {
  const proc = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (proc.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  const log = createWriteStream(options.logFile, { flags: 'a' });
  let tail = '';
  let out = '';
  proc.stdout?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    out = (out + chunk.toString('utf8')).slice(-256_000);
  });
  proc.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<string>((resolve) => {
    proc.on('close', (code, signal) => {
      children.delete(child);
      resolve(signal ?? (code === null ? 'unknown' : `exit code ${code}`));
    });
  });
  void exited.then(() => setTimeout(() => log.end(), 100));
  const child: Child = {
    name,
    pid: proc.pid,
    process: proc,
    exited,
    stderrTail: () => tail,
    stdoutTail: () => out,
  };
  children.add(child);
  return child;
}

function signalGroup(child: Child, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM (the service then shuts down gracefully), SIGKILL after `graceMs`. */
export async function stopChild(child: Child, graceMs = 15_000): Promise<void> {
  if (!children.has(child)) return;
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** Kills every child still running, synchronously (usable in an exit handler). */
export function killAllChildren(): void {
  for (const child of children) signalGroup(child, 'SIGKILL');
}

/** Kills the children when the benchmark exits, fails or is interrupted. */
export function installExitHandlers(): void {
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      console.error(`\nbench: ${signal}, stopping every child process`);
      killAllChildren();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error('bench: uncaught exception', error);
    killAllChildren();
    process.exit(1);
  });
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; fails when `child` exits first or after `timeoutMs`. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child.name} exited before it was ready:\n${child.stderrTail()}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${child.name} was not ready at ${url} after ${timeoutMs} ms`);
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Resident set size in MB. */
export function rssMb(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size in MB since the start or the last `resetPeakRss`. */
export function peakRssMb(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/** Resets VmHWM to the current RSS (Linux `clear_refs` 5), so a peak can be taken per scenario. */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not permitted: the peak then covers the whole life of the process
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in seconds; NaN once it has exited. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** CPU time used so far by each PostgreSQL server process on this machine, in seconds, by pid. */
export function postgresCpuSeconds(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const used = cpuSeconds(Number(entry));
    if (!Number.isNaN(used)) seconds.set(Number(entry), used);
  }
  return seconds;
}

/**
 * The CPU time PostgreSQL's processes used between two `postgresCpuSeconds` snapshots: each
 * process still running at the end, less what it had used at the start (nothing, when it started
 * in between). A process that exited in between is left out; subtracting totals instead would
 * take away all the CPU it had ever used (a pool's idle connections closing after a baseline,
 * say), down to negative figures.
 */
export function postgresCpuSecondsBetween(
  start: Map<number, number>,
  end: Map<number, number>,
): number {
  let total = 0;
  for (const [pid, used] of end) total += used - (start.get(pid) ?? 0);
  return total;
}

/** Samples RSS every `intervalMs` until stopped; `stop()` returns the highest sample in MB. */
export function sampleRss(pid: number, intervalMs = 25): { stop(): number } {
  let max = rssMb(pid);
  const timer = setInterval(() => {
    try {
      max = Math.max(max, rssMb(pid));
    } catch {
      // exited
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        max = Math.max(max, rssMb(pid));
      } catch {
        // exited
      }
      return max;
    },
  };
}
