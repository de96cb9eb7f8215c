/** `reference import | list | remove`: the platform's reference data (src/reference/). */
import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import type { InputErrorCode } from '../loader/input.js';
import { OperatorError } from '../shared/operator-error.js';
import { REFERENCE_KINDS, KINDS } from '../reference/reference.kinds.js';
import type {
  ImportSummary,
  ReferenceLine,
  StoredReferenceEntry,
} from '../reference/reference.types.js';
import { quoted, showableJson } from '../shared/quoted.js';
import { formatTable, isoTime, print, printList, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../reference/reference.service.js');

/** The file name that stands for standard input. */
const STDIN = '-';

function entryJson(entry: StoredReferenceEntry) {
  return {
    kind: entry.kind,
    code: entry.code,
    attributes: entry.attributes,
    updated_at: isoTime(entry.updatedAt),
  };
}

function summaryJson({ added, changed, unchanged, byKind }: ImportSummary) {
  return { added, changed, unchanged, by_kind: byKind };
}

function describeSummary(summary: ImportSummary): string {
  const { added, changed, unchanged } = summary;
  const total = `imported reference data: ${added} added, ${changed} changed, ${unchanged} unchanged`;
  const rows = Object.entries(summary.byKind).map(([kind, counts]) => [
    kind,
    String(counts.added),
    String(counts.changed),
    String(counts.unchanged),
  ]);
  if (rows.length === 0) return total;
  return `${total}\n${formatTable(['KIND', 'ADDED', 'CHANGED', 'UNCHANGED'], rows)}`;
}

/** The loader's reading problems, worded for a reference file. */
const READING_PROBLEMS: Record<InputErrorCode, (error: string) => string> = {
  invalid_json: (error) => `invalid JSON: ${error}`,
  invalid_utf8: () => 'not valid UTF-8; convert the file to UTF-8',
  repeated_key: (error) => error.replace(/^the record/, 'the line'),
};

/**
 * The lines of the file (or of stdin), read as NDJSON as `load` reads it: blank lines skipped,
 * CRLF endings and a BOM accepted, a line that repeats a key in an object refused.
 */
async function* linesOf(file: string): AsyncGenerator<ReferenceLine> {
  const { readNdjson } = await import('../loader/input.js');
  try {
    for await (const record of readNdjson(file === STDIN ? process.stdin : file)) {
      yield record.error === undefined
        ? { line: record.line, value: record.value }
        : { line: record.line, error: READING_PROBLEMS[record.code](record.error) };
    }
  } catch (error) {
    // A file error (one with a system call) is the operator's to mend; anything else is a bug.
    const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
    if (typeof syscall !== 'string') throw error;
    throw new OperatorError(`cannot read ${quoted(file)}: ${String(code)}`);
  }
}

/** Refuses a file that is not there before the database is opened. */
async function checkReadable(file: string): Promise<void> {
  if (file === STDIN) return;
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) throw new OperatorError(`cannot read ${quoted(file)}: no such file`);
  if (!info.isFile()) throw new OperatorError(`cannot read ${quoted(file)}: not a file`);
}

/** The kinds and their attributes, for the import command's help. */
function kindsHelp(): string {
  const rows = KINDS.map((kind) => {
    const attributes = Object.entries(REFERENCE_KINDS[kind].attributes).map(([name, field]) =>
      field.required ? name : `[${name}]`,
    );
    return [kind, attributes.join(' ') || '-', REFERENCE_KINDS[kind].summary];
  });
  return `\nKinds ([optional] attributes):\n${formatTable(['KIND', 'ATTRIBUTES', 'WHAT'], rows)}`;
}

export function registerReference(program: Command): void {
  const group = program
    .command('reference')
    .description('manage the platform reference data (tariffs, market participants, TPRs…)');

  group
    .command('import')
    .description(
      'add or replace reference entries from NDJSON; one bad line refuses the whole file',
    )
    .argument('<file>', `one {"kind", "code", ...attributes} a line; ${STDIN} reads stdin`)
    .addHelpText('after', kindsHelp)
    .action(async (file: string, _options: unknown, command: Command) => {
      await checkReadable(file);
      const { importReference } = await operations();
      const summary = await withDatabase(command, (db) => importReference(db, linesOf(file)));
      print(command, summaryJson(summary), describeSummary(summary));
    });

  group
    .command('list')
    .description('list reference entries by kind and code, of one kind or of all')
    .argument('[kind]', 'a kind of reference data, such as tariff')
    .action(async (kind: string | undefined, _options: unknown, command: Command) => {
      const { listReference } = await operations();
      const entries = await withDatabase(command, (db) => listReference(db, kind));
      printList(
        command,
        entries.map(entryJson),
        ['KIND', 'CODE', 'UPDATED', 'ATTRIBUTES'],
        entries.map((entry) => [
          entry.kind,
          entry.code,
          isoTime(entry.updatedAt),
          Object.keys(entry.attributes).length === 0 ? '' : showableJson(entry.attributes),
        ]),
        kind === undefined ? 'no reference data' : `no reference data of kind ${kind.trim()}`,
      );
    });

  group
    .command('remove')
    .description('remove one reference entry')
    .argument('<kind>', 'its kind, such as tariff')
    .argument('<code>', 'its code')
    .action(async (kind: string, code: string, _options: unknown, command: Command) => {
      const { removeReference } = await operations();
      const entry = await withDatabase(command, (db) => removeReference(db, kind, code));
      print(
        command,
        entryJson(entry),
        `removed ${entry.kind} ${quoted(entry.code)} from the reference data`,
      );
    });
}
