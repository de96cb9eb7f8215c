/**
 * A file the loader writes line by line as the run goes (the report, a journal) without waiting
 * on each line. A write that fails (a full disk) is kept rather than thrown: the run asks
 * `failed`, stops taking records, and says so once it has printed what it has.
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';

export class LineFile {
  private error: Error | undefined;

  private constructor(private readonly stream: WriteStream) {
    stream.on('error', (error) => (this.error ??= error));
  }

  /** Opens the file now (`w` empties it, `a` appends), so a bad path fails before the run. */
  static async open(path: string, flags: 'w' | 'a'): Promise<LineFile> {
    const stream = createWriteStream(path, { flags });
    await once(stream, 'open');
    return new LineFile(stream);
  }

  /** The error a write failed with, if one did; the lines after it are not written. */
  get failed(): Error | undefined {
    return this.error;
  }

  write(line: string): void {
    if (this.error === undefined) this.stream.write(line);
  }

  /** Ends the file once every line is written; the error a write failed with, if one did. */
  async close(): Promise<Error | undefined> {
    this.stream.end();
    await finished(this.stream).catch((error: Error) => (this.error ??= error));
    return this.error;
  }
}
