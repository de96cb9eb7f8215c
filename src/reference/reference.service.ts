/**
 * Reference data: the operator imports entries from a file (all of it or nothing), lists and
 * removes them. Every write that changes an entry bumps the catalogue's change marker.
 */
import type { Db } from '../db/database.js';
import { OperatorError } from '../shared/operator-error.js';
import { quoted } from '../shared/quoted.js';
import { checkLines, type LineProblems } from './reference.entries.js';
import { isReferenceKind, KINDS, type ReferenceKind } from './reference.kinds.js';
import * as repository from './reference.repository.js';
import type {
  ImportCounts,
  ImportSummary,
  ReferenceLine,
  StoredReferenceEntry,
} from './reference.types.js';

/** Refused lines named in the message; the rest are counted. */
const SHOWN_LINES = 20;

function refusal(refused: readonly LineProblems[]): OperatorError {
  const shown = refused
    .slice(0, SHOWN_LINES)
    .flatMap(({ line, problems }) => problems.map((problem) => `line ${line}: ${problem}`));
  const more = refused.length - shown.length;
  if (more > 0) shown.push(`and ${more} more line${more === 1 ? '' : 's'}`);
  const lines = refused.length === 1 ? 'a line is' : `${refused.length} lines are`;
  return new OperatorError(`nothing imported: ${lines} refused; ${shown.join('; ')}`);
}

/** The kind named by the operator; OperatorError naming the kinds when there is no such kind. */
export function referenceKind(raw: string): ReferenceKind {
  const kind = raw.trim();
  if (!isReferenceKind(kind)) {
    throw new OperatorError(`unknown kind ${quoted(raw)}: use one of ${KINDS.join(', ')}`);
  }
  return kind;
}

/**
 * Imports the entries of the lines: an entry whose kind and code are stored has its attributes
 * replaced. One bad line refuses the whole file (OperatorError naming every bad line) and
 * nothing is written; otherwise every entry is written in one atomic write.
 */
export async function importReference(
  db: Db,
  lines: AsyncIterable<ReferenceLine> | Iterable<ReferenceLine>,
): Promise<ImportSummary> {
  const { entries, refused } = await checkLines(lines);
  if (refused.length > 0) throw refusal(refused);
  const byKind = new Map<ReferenceKind, ImportCounts>();
  for (const entry of entries) {
    if (!byKind.has(entry.kind)) byKind.set(entry.kind, { added: 0, changed: 0, unchanged: 0 });
  }
  const updatedAt = Date.now();
  // Serialised with every other reference write, so that the counts tell what this one did.
  await db.storage.exclusiveWrite(db.kysely, repository.REFERENCE_LOCK_KEY, async (executor) => {
    const stored = await repository.attributesOf(executor, [...byKind.keys()]);
    const rows = [];
    for (const { kind, code, attributes } of entries) {
      const counts = byKind.get(kind) as ImportCounts;
      const text = JSON.stringify(attributes);
      const before = stored.get(repository.entryKey(kind, code));
      if (before === text) {
        counts.unchanged++;
        continue;
      }
      if (before === undefined) counts.added++;
      else counts.changed++;
      rows.push({ kind, code, attributes: text, updated_at: updatedAt });
    }
    await repository.upsertEntries(executor, rows);
    if (rows.length > 0) await repository.bumpVersion(executor);
  });
  return summaryOf(byKind);
}

function summaryOf(byKind: ReadonlyMap<ReferenceKind, ImportCounts>): ImportSummary {
  const summary: ImportSummary = { added: 0, changed: 0, unchanged: 0, byKind: {} };
  for (const kind of KINDS) {
    const counts = byKind.get(kind);
    if (counts === undefined) continue;
    summary.byKind[kind] = counts;
    summary.added += counts.added;
    summary.changed += counts.changed;
    summary.unchanged += counts.unchanged;
  }
  return summary;
}

/** Whether the platform holds any reference entry. */
export function hasReferenceEntries(db: Db): Promise<boolean> {
  return repository.anyEntry(db.kysely);
}

/** Every entry, or those of one kind, ordered by kind then code. */
export async function listReference(db: Db, kind?: string): Promise<StoredReferenceEntry[]> {
  return repository.listEntries(db.kysely, kind === undefined ? undefined : referenceKind(kind));
}

/** Removes one entry; OperatorError when there is none. */
export async function removeReference(
  db: Db,
  rawKind: string,
  rawCode: string,
): Promise<StoredReferenceEntry> {
  const kind = referenceKind(rawKind);
  const code = rawCode.trim();
  const removed = await db.storage.exclusiveWrite(
    db.kysely,
    repository.REFERENCE_LOCK_KEY,
    async (executor) => {
      const entry = await repository.deleteEntry(executor, kind, code);
      if (entry !== undefined) await repository.bumpVersion(executor);
      return entry;
    },
  );
  if (removed === undefined) {
    throw new OperatorError(`${kind} ${quoted(code)} is not in the reference data`);
  }
  return removed;
}
