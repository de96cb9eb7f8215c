/**
 * The service under test: its data set up with the operator CLI, then `serve` from the
 * production build in its own process (NODE_ENV=production, LOG_LEVEL=warn, a TOKEN_SECRET),
 * and a token.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CLI, ROOT } from './paths.js';
import { freePort, startChild, stopChild, waitForHttp, type Child } from './processes.js';

const run = promisify(execFile);

export const BENCH_SUPPLIER = 'BENCH';
/** Holds the rows of the unpaged-list stream, so they do not slow the BENCH lists. */
export const STREAM_SUPPLIER = 'BENCHSTREAM';
export const LOADER_SUPPLIER = 'BENCHLOAD';
export const TEAM = 'Migrations';
/** As a production service would have it; the run's tokens need nothing else from it. */
const TOKEN_SECRET = randomBytes(32).toString('base64url');

function serviceEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    ACCESS_TOKEN_TTL: '86400',
    PROCESS_CONCURRENCY_LIMIT: '0',
    SQLITE_SYNCHRONOUS: 'NORMAL',
    TOKEN_SECRET,
  };
}

/** Runs an operator command of the CLI on `databaseUrl`; returns its stdout. */
export async function cli(databaseUrl: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: serviceEnv(databaseUrl, 0),
    });
    return stdout;
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: unknown; stdout?: string; stderr?: string };
    const output = `${stderr ?? ''}${stdout ?? ''}`.trim() || String(error);
    throw new Error(
      `account-import ${args.join(' ')} failed (exit code ${String(code)}): ${output}`,
    );
  }
}

/**
 * The demo reference catalogue, imported as an operator would (`reference import`): the
 * accounts the scenarios send name its codes, and a production service seeds nothing.
 */
async function importDemoCatalogue(databaseUrl: string): Promise<void> {
  const demo = (await import(
    pathToFileURL(join(ROOT, 'dist', 'reference', 'reference.demo.js')).href
  )) as { DEMO_REFERENCE: readonly { kind: string; code: string; attributes: object }[] };
  const dir = await mkdtemp(join(tmpdir(), 'bench-reference-'));
  try {
    const file = join(dir, 'reference.ndjson');
    const lines = demo.DEMO_REFERENCE.map(({ kind, code, attributes }) =>
      JSON.stringify({ kind, code, ...attributes }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    await cli(databaseUrl, ['reference', 'import', file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Suppliers, team, organisation and reference data of the benchmark; returns the API key. */
export async function setUpData(databaseUrl: string): Promise<string> {
  await importDemoCatalogue(databaseUrl);
  for (const supplier of [BENCH_SUPPLIER, STREAM_SUPPLIER, LOADER_SUPPLIER]) {
    await cli(databaseUrl, ['supplier', 'add', supplier]);
  }
  await cli(databaseUrl, ['team', 'add', TEAM]);
  const grants = [BENCH_SUPPLIER, STREAM_SUPPLIER, LOADER_SUPPLIER].flatMap((s) => [
    '--supplier',
    s,
  ]);
  const out = await cli(databaseUrl, ['--json', 'org', 'add', 'bench', ...grants]);
  return (JSON.parse(out) as { api_key: string }).api_key;
}

export interface Service {
  readonly url: string;
  readonly databaseUrl: string;
  readonly pid: number;
  /** Stops the process and starts a new one on the same database and port. */
  restart(profileDir?: string): Promise<void>;
  stop(): Promise<void>;
  /** What the service wrote to stderr lately (warnings and errors). */
  stderrTail(): string;
  /** Set when the process exited without being asked to: how it exited. */
  unexpectedExit(): string | undefined;
}

/** Starts `serve`; with `profileDir`, under `node --cpu-prof` writing there on exit. */
export async function startService(
  name: string,
  databaseUrl: string,
  workDir: string,
  profileDir?: string,
): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let stopping = false;
  let unexpected: string | undefined;
  const launch = async (profile: string | undefined): Promise<Child> => {
    const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
    const child = startChild(name, process.execPath, [...flags, CLI, 'serve'], {
      cwd: ROOT,
      env: serviceEnv(databaseUrl, port),
      logFile: join(workDir, `${name}.log`),
    });
    void child.exited.then((how) => {
      if (stopping) return;
      unexpected = `the ${name} process (pid ${child.pid}) exited by itself with ${how} at ${new Date().toISOString()}; stderr: ${child.stderrTail().trim() || '(empty)'}`;
      console.error(`bench: ${unexpected}`);
    });
    try {
      await waitForHttp(`${url}/readyz`, child);
    } catch (error) {
      await stopChild(child, 1000);
      throw error;
    }
    return child;
  };
  let child = await launch(profileDir);
  return {
    url,
    databaseUrl,
    get pid() {
      return child.pid;
    },
    async restart(profile) {
      stopping = true;
      await stopChild(child);
      stopping = false;
      unexpected = undefined;
      child = await launch(profile);
    },
    stop: () => {
      stopping = true;
      return stopChild(child);
    },
    stderrTail: () => child.stderrTail(),
    unexpectedExit: () => unexpected,
  };
}

/** Exchanges the API key for an access token (GraphQL obtainToken). */
export async function obtainToken(url: string, apiKey: string): Promise<string> {
  const response = await fetch(`${url}/v1/graphql/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($k:String!){obtainToken(input:{apiKey:$k}){token}}',
      variables: { k: apiKey },
    }),
  });
  const body = (await response.json()) as { data?: { obtainToken?: { token?: string } } };
  const token = body.data?.obtainToken?.token;
  if (!token) throw new Error(`obtainToken failed: ${response.status} ${JSON.stringify(body)}`);
  return token;
}
