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

/**
 * The published full account as one of our suppliers sends it: its supplier code set, and its
 * dunning path starting after `today` (the publication's start date has passed, which the
 * account refuses).
 */
export function publishedFullAccount(
  supplier: string,
  today = new Date().toISOString().slice(0, 10),
): Record<string, unknown> {
  const account = example('full-account.json');
  account.import_supplier = supplier;
  const start = new Date(`${today}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() + 30);
  account.dunning_path = {
    ...(account.dunning_path as object),
    start_date: start.toISOString().slice(0, 10),
  };
  return account;
}
