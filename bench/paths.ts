/** Where things are: the project root, its production build and the compiled benchmark. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory of the compiled benchmark (baseline servers live under it). */
export const BENCH_BUILD = dirname(fileURLToPath(import.meta.url));

function findRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'account-import') return dir;
    }
  }
  throw new Error(`no account-import package.json above ${from}`);
}

export const ROOT = findRoot(BENCH_BUILD);
/** The production build of the service's CLI (`npm run build`). */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
export const DEFAULT_RESULTS_DIR = join(ROOT, 'bench', 'results');
