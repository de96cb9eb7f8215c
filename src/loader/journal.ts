/**
 * The journal of a post-import load: one line per record the service took, the SHA-256 of the
 * record's JSON. A run started again skips the records of its journal, as an account load skips
 * the accounts already imported; a record edited since (a failure fixed) is sent again, since
 * its hash changed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { LineFile } from './line-file.js';

const hashOf = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

export class Journal {
  private constructor(
    private readonly done: Set<string>,
    private readonly file: LineFile,
  ) {}

  /** Reads the journal at `path` (none yet is an empty one) and opens it for appending. */
  static async open(path: string): Promise<Journal> {
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const done = new Set(text.split('\n').filter((line) => /^[0-9a-f]{64}$/.test(line)));
    return new Journal(done, await LineFile.open(path, 'a'));
  }

  /** The error a write failed with (a full disk), if one did: the run stops taking records. */
  get failed(): Error | undefined {
    return this.file.failed;
  }

  /** Whether a record with this value was taken by an earlier run (or this one). */
  has(value: unknown): boolean {
    return this.done.has(hashOf(value));
  }

  /** Records that the service took the record. */
  add(value: unknown): void {
    const hash = hashOf(value);
    if (this.done.has(hash)) return;
    this.done.add(hash);
    this.file.write(`${hash}\n`);
  }

  /** Ends the journal; the error a write failed with, if one did. */
  close(): Promise<Error | undefined> {
    return this.file.close();
  }
}
