/**
 * What a payload's validation depends on besides the payload, as one stamp: the rules' code,
 * the platform data's version, the import supplier's rule (phone region and settings) and the
 * UTC day. A stage keeps the stamp of its validation with the staged version; a creation whose
 * stamp for the supplier is the same takes the staged payload as it is, instead of validating it
 * again (docs/decisions.md, "Staged payloads are not validated twice").
 *
 * This holds because validation is a pure function of those inputs and of the clock, and the
 * clock enters only through the day (dates against today) and through "not after now" for
 * datetimes, which a datetime that passed once passes later too. A staged payload is the
 * normalised one, which validates to itself.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SupplierRule } from '../platform/platform-data.js';

/** The folders, beside this one's, whose code the verdict of a validation depends on. */
const RULE_FOLDERS = ['account', 'payload', 'platform', 'reference', 'settings'];

/** The libraries a validation calls into, whose versions count as rules' code too. */
const RULE_LIBRARIES = ['libphonenumber-js'];

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

let revision: string | undefined;

/**
 * A digest of the rules' code as this process runs it: the files of the rule folders and the
 * versions of the libraries they call. Two builds with any difference in them never share
 * stamps, so a release that changes a rule validates every staged payload again.
 */
export function rulesRevision(): string {
  if (revision !== undefined) return revision;
  const hash = createHash('sha256');
  const root = fileURLToPath(new URL('..', import.meta.url));
  for (const folder of RULE_FOLDERS) {
    for (const file of filesUnder(join(root, folder))) {
      hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  const require = createRequire(import.meta.url);
  for (const library of RULE_LIBRARIES) {
    const { version } = require(`${library}/package.json`) as { version: string };
    hash.update(`${library}@${version}\0`);
  }
  revision = hash.digest('base64url');
  return revision;
}

/** A UTC day in milliseconds (JavaScript time counts no leap seconds). */
const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of a time in milliseconds. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The day a validation that ran between `since` and `until` judged dates against, or undefined
 * when a UTC midnight fell between the two (the day is then not known).
 */
export function dayBetween(since: number, until: number): string | undefined {
  // Every stage asks: the days are compared as numbers, and only the one day is formatted.
  return Math.floor(since / DAY_MS) === Math.floor(until / DAY_MS) ? utcDay(since) : undefined;
}

/** What a validation ran with: the platform data's version, the supplier's rule, the day. */
export interface ValidationInputs {
  platformVersion: string;
  rule: SupplierRule;
  day: string;
}

/** The latest stamps, by their inputs; cleared when it grows past STAMPS_KEPT. */
const stamps = new Map<string, string>();
const STAMPS_KEPT = 1_000;

/** The stamp of a validation with these inputs, under this process's rules revision. */
export function validationStamp({ platformVersion, rule, day }: ValidationInputs): string {
  const key = `${platformVersion}\0${day}\0${rule.phoneRegion}\0${rule.settings}`;
  let stamp = stamps.get(key);
  if (stamp === undefined) {
    stamp = createHash('sha256')
      .update(rulesRevision())
      .update('\0')
      .update(key)
      .digest('base64url');
    if (stamps.size >= STAMPS_KEPT) stamps.clear();
    stamps.set(key, stamp);
  }
  return stamp;
}
