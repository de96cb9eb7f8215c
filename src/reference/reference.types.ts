/** What the reference data services take and return. */
import type { ReferenceKind } from './reference.kinds.js';

/** An entry as checked, ready to store: its attributes hold only what its kind declares. */
export interface ReferenceEntry {
  kind: ReferenceKind;
  code: string;
  attributes: Readonly<Record<string, unknown>>;
}

/** An entry as stored. Its kind is a string: a newer version may have stored a kind this one lacks. */
export interface StoredReferenceEntry {
  kind: string;
  code: string;
  attributes: Readonly<Record<string, unknown>>;
  /** When it was added or its attributes last changed, epoch milliseconds. */
  updatedAt: number;
}

/** One line of an import file: its JSON value, or why it could not be read. */
export interface ReferenceLine {
  /** The line's number in the file, from 1. */
  line: number;
  value?: unknown;
  /** Set when the line is not JSON (or not UTF-8, or repeats a key): what is wrong. */
  error?: string;
}

export interface ImportCounts {
  added: number;
  changed: number;
  unchanged: number;
}

/** What an import did, in total and by kind (kinds in declaration order, those in the file only). */
export interface ImportSummary extends ImportCounts {
  byKind: Partial<Record<ReferenceKind, ImportCounts>>;
}
