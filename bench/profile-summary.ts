/**
 * `node node_modules/.cache/account-import-bench/profile-summary.js FILE.cpuprofile [--top N]`:
 * self time per function and per module of a V8 CPU profile (`node --cpu-prof`), as markdown.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT_MARKERS = ['/node_modules/', '/dist/', '/src/'];

/** `fastify/lib/route.js`, `dist/imports/staging/staging.service.js`, `node:internal/…`. */
function shortUrl(url: string): string {
  if (url === '') return '';
  const path = url.replace(/^file:\/\//, '');
  for (const marker of ROOT_MARKERS) {
    const at = path.lastIndexOf(marker);
    if (at !== -1) return path.slice(at + 1).replace(/^node_modules\//, '');
  }
  return path;
}

/** The module a function belongs to: a package, `dist/<dir>`, `node:internal` or a V8 bucket. */
function moduleOf(frame: CallFrame): string {
  const url = shortUrl(frame.url);
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node (internals)';
  if (url.startsWith('dist/')) return url.split('/').slice(0, 2).join('/');
  const parts = url.split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
}

function selfTimes(profile: Profile): Map<number, number> {
  const self = new Map<number, number>();
  // Each sample lasts until the next one; the deltas are in microseconds.
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    const next = profile.timeDeltas[i + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + next);
  }
  return self;
}

const label = (frame: CallFrame) => {
  const where = shortUrl(frame.url);
  return `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`;
};

/** For each node, the label of the closest caller (or itself) in the service's own code. */
function nearestServiceFrames(profile: Profile): (id: number) => string {
  const parents = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const memo = new Map<number, string>();
  const find = (id: number): string => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const frame = frames.get(id);
    const parent = parents.get(id);
    let result: string;
    if (frame && shortUrl(frame.url).startsWith('dist/')) result = label(frame);
    else if (parent === undefined) result = '(no service frame: framework, Node.js, V8)';
    else result = find(parent);
    memo.set(id, result);
    return result;
  };
  return find;
}

function table(title: string, totals: Map<string, number>, busyUs: number, top: number): string {
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = rows.map(
    ([name, us], i) =>
      `| ${i + 1} | ${name.replace(/\|/g, '\\|')} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busyUs).toFixed(1)}% |`,
  );
  return [`| # | ${title} | self ms | % of busy |`, '|---|---|---|---|', ...lines].join('\n');
}

function summarise(file: string, top: number): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  const byServiceFrame = new Map<string, number>();
  const nearestService = nearestServiceFrames(profile);
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfTimes(profile)) {
    const frame = frames.get(id);
    if (!frame) continue;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const name = label(frame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const caller = nearestService(id);
    byServiceFrame.set(caller, (byServiceFrame.get(caller) ?? 0) + us);
    const module = moduleOf(frame);
    byModule.set(module, (byModule.get(module) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  return [
    `## ${file}`,
    '',
    `${(totalUs / 1e6).toFixed(1)} s profiled, ${(busyUs / 1e6).toFixed(1)} s busy (${((100 * busyUs) / totalUs).toFixed(0)}%), ${(idleUs / 1e6).toFixed(1)} s idle.`,
    '',
    table('function (self time)', byFunction, busyUs, top),
    '',
    table('module (self time)', byModule, busyUs, top),
    '',
    table(
      'nearest service function (self time below it, in any library)',
      byServiceFrame,
      busyUs,
      top,
    ),
    '',
  ].join('\n');
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { top: { type: 'string', default: '15' } },
});
if (positionals.length === 0) {
  console.error('usage: profile-summary.js FILE.cpuprofile [...] [--top N]');
  process.exit(1);
}
for (const file of positionals) console.log(summarise(file, Number(values.top)));
