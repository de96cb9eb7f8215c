/** Runs the built CLI (dist/cli/main.js) as a child process, exactly as an operator would. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment of the child: this one without settings that would change the outcome. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of ['DEBUG', 'NODE_ENV', 'DATABASE_URL']) delete base[name];
  return { ...base, ...env };
}

/** Runs `account-import ...args` with the given environment (DATABASE_URL, usually). */
export function runCli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return spawnCli(env, args);
}

/** Runs `account-import ...args` with `input` written to its stdin. */
export function runCliWithInput(
  env: Record<string, string>,
  input: string,
  ...args: string[]
): Promise<CliResult> {
  return spawnCli(env, args, input);
}

function spawnCli(env: Record<string, string>, args: string[], input?: string): Promise<CliResult> {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run "npm run build" first (npm test does it)`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) {
      // A command that exits without reading its input must not fail the test on EPIPE.
      child.stdin.on('error', () => undefined).end(input);
    }
  });
}

/** Parses the one JSON document a --json command prints. */
export function json<T = Record<string, unknown>>(output: string): T {
  return JSON.parse(output) as T;
}

/** A stack trace line such as "    at main (file.js:1:2)". */
export const STACK_LINE = /^\s+at /m;
