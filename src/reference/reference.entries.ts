/**
 * Checking the lines of an import file: each one an entry `{"kind", "code", ...attributes}` of a
 * declared kind, and no kind and code given on two lines. Every problem of the file is found,
 * so that the operator mends them all at once.
 */
import { object, required, type Shape } from '../payload/object.js';
import { runType, startRun } from '../payload/run.js';
import { enumOf } from '../payload/scalars.js';
import { isObject, type Type } from '../payload/validators.js';
import { quoted } from '../shared/quoted.js';
import {
  isReferenceKind,
  KINDS,
  label,
  REFERENCE_KINDS,
  UNSHOWABLE,
  type KindDeclaration,
  type ReferenceKind,
} from './reference.kinds.js';
import type { ReferenceEntry, ReferenceLine } from './reference.types.js';

/** The check of a whole line of the kind: its kind, its code and its kind's attributes. */
function lineType(kind: ReferenceKind): Type<Record<string, unknown>> {
  const declaration: KindDeclaration = REFERENCE_KINDS[kind];
  const shape: Shape = {
    kind: required(enumOf([kind])),
    code: required(declaration.code ?? label),
    ...declaration.attributes,
  };
  return object(shape);
}

const LINE_TYPES = Object.fromEntries(KINDS.map((kind) => [kind, lineType(kind)])) as Record<
  ReferenceKind,
  Type<Record<string, unknown>>
>;

const EXAMPLE = '{"kind": "tpr", "code": "00001"}';
/** Where the operator finds the kinds: naming all of them on every bad line would bury the rest. */
const SEE_KINDS = '`account-import reference import --help` lists the kinds';

/** A field path as the message shows it: quoted unless it is plain letters, digits, `_` and `.`. */
const shownPath = (path: string) => (/^[\w.]+$/.test(path) ? path : quoted(path));

/** The entry the line's value describes, or what is wrong with it. */
function checkValue(value: unknown): ReferenceEntry | string[] {
  if (!isObject(value)) return [`expected a JSON object such as ${EXAMPLE}`];
  const kind = typeof value.kind === 'string' ? value.kind.trim() : value.kind;
  if (kind === undefined || kind === null || kind === '') return [`kind: missing; ${SEE_KINDS}`];
  if (typeof kind !== 'string') return [`kind: expected a string; ${SEE_KINDS}`];
  if (!isReferenceKind(kind)) return [`kind: unknown kind ${quoted(kind)}; ${SEE_KINDS}`];
  const result = runType(LINE_TYPES[kind], value, startRun());
  if (!result.ok) {
    return result.errors.map(({ attr, detail }) => {
      const text = detail.replace(/\.$/, '');
      return attr === null ? text : `${shownPath(attr)}: ${text}`;
    });
  }
  const { code, ...attributes } = result.value;
  delete attributes.kind;
  return { kind, code: code as string, attributes };
}

/** `text` with every character a terminal could act on written as a `\uXXXX` escape. */
const showable = (text: string) =>
  text.replace(
    new RegExp(UNSHOWABLE.source, 'gu'),
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );

/** A refused line: its number and what is wrong with it. */
export interface LineProblems {
  line: number;
  problems: string[];
}

export interface CheckedLines {
  entries: ReferenceEntry[];
  refused: LineProblems[];
}

/** Checks every line; `refused` lists the lines with problems, in file order. */
export async function checkLines(
  lines: AsyncIterable<ReferenceLine> | Iterable<ReferenceLine>,
): Promise<CheckedLines> {
  const entries: ReferenceEntry[] = [];
  const refused: LineProblems[] = [];
  /** The line of each kind and code seen, keyed by both. */
  const seen = new Map<string, number>();
  for await (const { line, value, error } of lines) {
    const checked = error === undefined ? checkValue(value) : [showable(error)];
    if (Array.isArray(checked)) {
      refused.push({ line, problems: checked });
      continue;
    }
    const key = `${checked.kind}\n${checked.code}`;
    const first = seen.get(key);
    if (first !== undefined) {
      refused.push({
        line,
        problems: [`${checked.kind} ${quoted(checked.code)} is given on line ${first} already`],
      });
      continue;
    }
    seen.set(key, line);
    entries.push(checked);
  }
  return { entries, refused };
}
