/**
 * The baseline servers, each in its own process: the bare JSON echo (floor of validate) and the
 * raw-driver upsert (floor of stage) on SQLite or PostgreSQL. They get the same body, the same
 * headers and the same load as the service: each run sends the account variant of the scenario
 * it is the floor of, and is named after it (`baseline-echo-full` for `validate-full`).
 */
import { join } from 'node:path';
import type { BenchOptions } from './options.js';
import { BENCH_BUILD, ROOT } from './paths.js';
import { freePort, startChild, stopChild, waitForHttp, type Child } from './processes.js';
import {
  accountRequests,
  measure,
  NumberSource,
  type AccountVariant,
  type Harness,
  type ScenarioResult,
} from './scenarios.js';

async function startBaseline(
  name: string,
  script: string,
  workDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = startChild(name, process.execPath, [join(BENCH_BUILD, 'baselines', script)], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: 'production', PORT: String(port) },
    logFile: join(workDir, `${name}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, child);
  } catch (error) {
    await stopChild(child, 1000);
    throw error;
  }
  return { child, url };
}

function harnessFor(
  options: BenchOptions,
  child: Child,
  url: string,
  token: string,
  database: string,
): Harness {
  return {
    options,
    baseUrl: url,
    database,
    // The same Authorization header as the service gets, so requests are the same size.
    headers: { authorization: `Token ${token}` },
    pid: () => child.pid,
    around: (_scenario, work) => work(),
  };
}

/** Echo baseline: POST of the variant's account, answered with the parsed body re-serialised. */
export async function runEchoBaseline(
  options: BenchOptions,
  workDir: string,
  token: string,
  variant: AccountVariant,
): Promise<ScenarioResult> {
  const name = `baseline-echo${variant.suffix}`;
  const { child, url } = await startBaseline(name, 'echo.server.js', workDir);
  try {
    const harness = harnessFor(options, child, url, token, 'none');
    const numbers = new NumberSource('E-');
    return await measure(harness, name, [200], () =>
      accountRequests(harness, '/echo', variant.body, () => numbers.take()),
    );
  } finally {
    await stopChild(child);
  }
}

/** The raw-upsert baseline's server, started once per database pass and measured on demand. */
export interface UpsertBaseline {
  /** New keys, with the variant's account: the floor of its stage-new. */
  fresh(variant: AccountVariant): Promise<ScenarioResult>;
  /** The keys `fresh` stored with the variant's account, again: the floor of its re-stage. */
  same(variant: AccountVariant): Promise<ScenarioResult>;
  stop(): Promise<void>;
}

/**
 * Starts the raw-upsert baseline. Each of its runs is measured when asked, just before the
 * stage it is the floor of, for the reason the echo is measured just before validate.
 */
export async function startUpsertBaseline(
  options: BenchOptions,
  workDir: string,
  databaseKind: string,
  databaseUrl: string,
  token: string,
): Promise<UpsertBaseline> {
  const { child, url } = await startBaseline(
    `baseline-upsert-${databaseKind}`,
    'upsert.server.js',
    workDir,
    { BASELINE_DATABASE_URL: databaseUrl },
  );
  const harness = harnessFor(options, child, url, token, databaseKind);
  const numbers = new NumberSource('U-');
  /** The keys stored by each variant's new-key runs, by the variant's suffix. */
  const stored = new Map<string, string[]>();
  return {
    fresh: (variant) => {
      const keys = stored.get(variant.suffix) ?? [];
      stored.set(variant.suffix, keys);
      return measure(harness, `baseline-upsert-new${variant.suffix}`, [200], () =>
        accountRequests(
          harness,
          '/upsert',
          variant.body,
          () => numbers.take(),
          (status, key) => {
            if (status === 200) keys.push(key);
          },
        ),
      );
    },
    same: (variant) => {
      const keys = stored.get(variant.suffix) ?? [];
      if (keys.length === 0) throw new Error('the same-key upsert needs a new-key run first');
      let next = 0;
      return measure(harness, `baseline-upsert-same${variant.suffix}`, [200], () =>
        accountRequests(
          harness,
          '/upsert',
          variant.body,
          () => keys[next++ % keys.length] as string,
        ),
      );
    },
    stop: () => stopChild(child),
  };
}
