/**
 * Micro-benchmark of the compiled validators, in process: µs per account to validate the
 * published full account and the typical bench account (src/account), beside the
 * JSON parse and serialise that any echo of the same body pays.
 *
 *   npm run build && npm run bench:validate
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchAccount, FULL_ACCOUNT_FILE, publishedFullAccount } from './payload.js';

type Validate = (input: unknown, context: object) => { ok: boolean };

// npm runs the script from the repository root (node_modules may be a link to another tree's).
const ROOT = process.cwd();
const fromDist = <T>(path: string) => import(join(ROOT, 'dist', path)) as Promise<T>;

// Validated against the demo catalogue (what a fresh install seeds), which holds the codes of
// both accounts, so that every lookup rule runs as it does in the service.
const { demoCatalogue } = await fromDist<{ demoCatalogue: () => unknown }>(
  'reference/reference.demo.js',
);
const { platformData, platformView } = await fromDist<{
  platformData: (catalogue: unknown, settingsVersion: number) => unknown;
  platformView: (data: unknown, supplierSettings: string) => unknown;
}>('platform/platform-data.js');
const context = {
  phoneRegion: 'GB',
  supplierFound: true,
  platform: platformView(platformData(demoCatalogue(), 0), '{}'),
};

/** Median µs per call of `run` over `rounds` rounds of `batch` calls, after a warm-up. */
function time(run: () => unknown, batch = 2_000, rounds = 15): number {
  for (let i = 0; i < batch * 3; i++) run();
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) run();
    samples.push(((performance.now() - start) * 1000) / batch);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(rounds / 2)] as number;
}

function row(name: string, body: string, validate: Validate) {
  const input = JSON.parse(body) as unknown;
  const result = validate(input, context);
  if (!result.ok) throw new Error(`${name} does not validate: ${JSON.stringify(result)}`);
  const validateUs = time(() => validate(input, context));
  const parseUs = time(() => JSON.parse(body));
  const stringifyUs = time(() => JSON.stringify(input));
  return {
    account: name,
    bytes: Buffer.byteLength(body),
    'validate µs': validateUs.toFixed(1),
    'parse µs': parseUs.toFixed(1),
    'stringify µs': stringifyUs.toFixed(1),
    'validate / (parse + stringify)': (validateUs / (parseUs + stringifyUs)).toFixed(2),
  };
}

const { validateEnergyAccount } = await fromDist<{ validateEnergyAccount: Validate }>(
  'account/account.js',
);

const full = publishedFullAccount('BENCH', 'A-1');
if (full === undefined)
  throw new Error(`${FULL_ACCOUNT_FILE} is absent: set ACCOUNT_REFERENCE_DIR`);

console.table([
  row('published full account', JSON.stringify(full), validateEnergyAccount),
  row('typical bench account', JSON.stringify(benchAccount('BENCH', 'A-1')), validateEnergyAccount),
]);
