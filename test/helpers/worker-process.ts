/** `account-import worker` as a child process, to be stopped or killed from outside. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { CLI_PATH } from '../cli/run-cli.js';

export interface WorkerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the worker wrote so far. */
  output(): string;
  /** Sends the signal and resolves with how the process ended. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a worker on the database; resolves once it reports its pool started. */
export async function startWorkerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<WorkerProcess> {
  const base = { ...process.env };
  delete base.NODE_ENV;
  const child = spawn(process.execPath, [CLI_PATH, 'worker', ...args], {
    env: { ...base, DATABASE_URL: databaseUrl, ...env },
  });
  let output = '';
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = new Promise<void>((resolve, reject) => {
    const seen = (chunk: string) => {
      output += chunk;
      if (output.includes('"worker pool started"')) resolve();
    };
    child.stdout.setEncoding('utf8').on('data', seen);
    child.stderr.setEncoding('utf8').on('data', seen);
    void exited.then(([code]) => reject(new Error(`worker exited with ${code}: ${output}`)));
  });
  await started;
  return {
    child,
    output: () => output,
    stop: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code, ended] = await exited;
      return { code, signal: ended };
    },
  };
}
