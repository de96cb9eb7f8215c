/**
 * The validation worker the tests start (src/account/threads/validation-threads.ts, WORKER_SCRIPT): its
 * current source and everything it imports, libphonenumber-js included, bundled by esbuild into
 * one JavaScript file. Node then loads one plain module per thread start, with no TypeScript to
 * transpile, and the tests never run a stale build of the worker. The default export is the
 * vitest configs' global setup: it writes the bundle into a directory of its own for the run and
 * names it in VALIDATION_WORKER_BUNDLE, which the test processes inherit.
 */
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The worker as its current source builds it: the text of the one bundled ES module. */
export async function bundleValidationWorker(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/account/threads/validation.worker.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no validation worker');
  return output.text;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(join(tmpdir(), 'account-import-worker-'));
  const bundle = join(directory, 'validation.worker.js');
  const write = async (): Promise<void> => {
    // Written aside and renamed, so that a thread starting meanwhile reads a whole file.
    await writeFile(`${bundle}.next`, await bundleValidationWorker());
    await rename(`${bundle}.next`, bundle);
  };
  await write();
  process.env.VALIDATION_WORKER_BUNDLE = bundle;
  // In watch mode the source may have changed before a rerun.
  project.onTestsRerun(write);
  return () => rm(directory, { recursive: true, force: true });
}
