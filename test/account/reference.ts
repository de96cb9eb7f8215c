/** The shared reference (../shared/reference beside the repository, or ACCOUNT_REFERENCE_DIR). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceFile } from '../../scripts/account-schema/reference.mjs';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const REFERENCE_FILE = referenceFile(repositoryRoot);
export const HAS_REFERENCE = existsSync(REFERENCE_FILE);

if (!HAS_REFERENCE) {
  console.warn(
    `account reference tests skipped: ${REFERENCE_FILE} is absent (CI has it; set ACCOUNT_REFERENCE_DIR to run them elsewhere)`,
  );
}

/** A published example payload, parsed. */
export function example(name: string): Record<string, unknown> {
  const file = join(dirname(REFERENCE_FILE), 'examples', name);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}
