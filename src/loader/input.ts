/**
 * Reads account payloads from a file as a stream: NDJSON (one payload a line) or one JSON
 * array. Nothing is parsed before it is asked for, so memory does not grow with the file.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { none } from 'stream-chain/defs.js';
import streamArray from 'stream-json/streamers/stream-array.js';

export type InputFormat = 'ndjson' | 'json-array';

/** Why a record could not be read: its bytes are not UTF-8, or its text is not JSON. */
export type InputErrorCode = 'invalid_utf8' | 'invalid_json';

/** One record of the file: its value, or why it could not be read. */
export type InputRecord =
  | { line: number; value: unknown; error?: undefined }
  | { line: number; value?: undefined; error: string; code: InputErrorCode };

/**
 * Bytes that are not UTF-8 (a Latin-1 extract, say) would be decoded as U+FFFD and sent as
 * such: "Brontë" would be staged as "Bront\uFFFD" without a word. Such a record is refused.
 */
const NOT_UTF8 = 'the record is not valid UTF-8; convert the file to UTF-8 and send it again';

const BOM = '\uFEFF';
const PROBE_BYTES = 4096;

/** A JSON array file starts with `[` (after a BOM and white space); anything else is NDJSON. */
export async function detectFormat(path: string): Promise<InputFormat> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(PROBE_BYTES);
    for (let position = 0; ; position += PROBE_BYTES) {
      const { bytesRead } = await file.read(buffer, 0, PROBE_BYTES, position);
      if (bytesRead === 0) return 'ndjson';
      const text = buffer.subarray(0, bytesRead).toString('utf8').replace(BOM, '');
      const first = /\S/.exec(text);
      if (first) return first[0] === '[' ? 'json-array' : 'ndjson';
    }
  } finally {
    await file.close();
  }
}

/** The records of the file in order; `line` is the line number, or the element's position from 1. */
export function readRecords(path: string, format: InputFormat): AsyncGenerator<InputRecord> {
  return format === 'json-array' ? readJsonArray(path) : readNdjson(path);
}

/**
 * Bytes read at a time. The lines of one chunk are all the read-ahead there is, so a line is
 * parsed and sent within milliseconds of being read and its text dies young. (readline queued
 * up to a thousand lines ahead, about a second of loading; their text outlived the young
 * generation and piled up as old-space garbage, about 1 MB/s, until a full collection.)
 */
const CHUNK_BYTES = 16 * 1024;
const LF = 0x0a;

/**
 * The lines of an NDJSON file, split on LF (a CR before it is dropped), read as they are asked
 * for; undefined for a line that is not UTF-8.
 */
async function* readLines(path: string): AsyncGenerator<string | undefined> {
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  // The start of a line that continues in the next chunk.
  let carried: Buffer[] = [];
  const text = (bytes: Buffer) => {
    if (!isUtf8(bytes)) return undefined;
    const line = bytes.toString('utf8');
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      let start = 0;
      for (let end = chunk.indexOf(LF); end !== -1; end = chunk.indexOf(LF, start)) {
        const bytes = chunk.subarray(start, end);
        start = end + 1;
        if (carried.length === 0) {
          yield text(bytes);
        } else {
          carried.push(bytes);
          const whole = Buffer.concat(carried);
          carried = [];
          yield text(whole);
        }
      }
      if (start < chunk.length) carried.push(chunk.subarray(start));
    }
    if (carried.length > 0) yield text(Buffer.concat(carried));
  } finally {
    file.destroy();
  }
}

async function* readNdjson(path: string): AsyncGenerator<InputRecord> {
  let line = 0;
  for await (const raw of readLines(path)) {
    line++;
    if (raw === undefined) {
      yield { line, error: NOT_UTF8, code: 'invalid_utf8' };
      continue;
    }
    const text = line === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch (error) {
      yield { line, error: (error as Error).message, code: 'invalid_json' };
    }
  }
}

type ArrayElement = { key: number; value: unknown };
type ElementParser = (input: Buffer | typeof none) => AsyncIterable<ArrayElement>;

/**
 * The parser and array streamer as one function: fed a chunk (or `none`, at the end), it
 * yields the elements completed. (Its declared type is the untyped pipeline's.)
 */
const elementParser = () => streamArray.withParser() as unknown as ElementParser;

/** Thrown when a JSON array file's bytes are not UTF-8. */
class NotUtf8 extends Error {}

/** A streaming check that the bytes fed to it, chunk after chunk, are UTF-8. */
function utf8Check(): { feed(bytes: Buffer): void; end(): void } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes?: Buffer) => {
    try {
      decoder.decode(bytes, { stream: bytes !== undefined });
    } catch {
      throw new NotUtf8();
    }
  };
  return { feed: decode, end: () => decode() };
}

/**
 * The elements of a JSON array file. The parser is fed the file a chunk at a time and hands
 * over a chunk's elements only once the whole chunk parsed: a chunk in which the array
 * breaks (or its bytes stop being UTF-8) takes with it the elements it completed before the
 * break. Those are recovered by parsing the file again up to that chunk, then the chunk a
 * byte at a time (only when the file is broken, and only that chunk), so every element before
 * the break is read and the break is reported at the right position.
 */
async function* readJsonArray(path: string): AsyncGenerator<InputRecord> {
  const parse = elementParser();
  const utf8 = utf8Check();
  let position = 0;
  let parsedBytes = 0;
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
      try {
        utf8.feed(chunk as Buffer);
        for await (const item of parse(chunk as Buffer)) {
          position = item.key + 1;
          yield { line: position, value: item.value };
        }
      } catch (error) {
        if (isFileError(error)) throw error;
        yield* elementsBeforeBreak(path, parsedBytes, chunk as Buffer, position);
        return;
      }
      parsedBytes += (chunk as Buffer).length;
    }
    utf8.end();
    for await (const item of parse(none)) {
      position = item.key + 1;
      yield { line: position, value: item.value };
    }
  } catch (error) {
    if (isFileError(error)) throw error;
    yield brokenArray(position, error);
  }
}

/** The parser cannot find its way back into a broken array: where it broke, and why. */
function brokenArray(elementsRead: number, error: unknown): InputRecord {
  if (error instanceof NotUtf8)
    return { line: elementsRead + 1, error: NOT_UTF8, code: 'invalid_utf8' };
  return {
    line: elementsRead + 1,
    error: `not a valid JSON array: ${(error as Error).message}`,
    code: 'invalid_json',
  };
}

/**
 * The elements after the first `read` that `chunk` (at `offset` in the file) completes before
 * the array breaks in it, then the break.
 */
async function* elementsBeforeBreak(
  path: string,
  offset: number,
  chunk: Buffer,
  read: number,
): AsyncGenerator<InputRecord> {
  const parse = elementParser();
  const utf8 = utf8Check();
  if (offset > 0) {
    const before = createReadStream(path, { end: offset - 1, highWaterMark: CHUNK_BYTES });
    for await (const bytes of before) {
      utf8.feed(bytes as Buffer);
      for await (const _ of parse(bytes as Buffer));
    }
  }
  let position = read;
  try {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk.subarray(i, i + 1);
      utf8.feed(byte);
      for await (const item of parse(byte)) {
        position = item.key + 1;
        yield { line: position, value: item.value };
      }
    }
  } catch (error) {
    yield brokenArray(position, error);
  }
}

function isFileError(error: unknown): boolean {
  return typeof (error as { syscall?: unknown } | null)?.syscall === 'string';
}

/**
 * The number of non-empty lines of an NDJSON file, read in one quick pass, for the ETA; a JSON
 * array has no count short of parsing it (undefined). Lines of only spaces count: an estimate.
 */
export async function countRecords(
  path: string,
  format: InputFormat,
  signal?: AbortSignal,
): Promise<number | undefined> {
  if (format !== 'ndjson') return undefined;
  let count = 0;
  let lineBytes = 0;
  for await (const chunk of createReadStream(path, { signal }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      lineBytes += end - start - (end > start && chunk[end - 1] === 0x0d ? 1 : 0);
      if (lineBytes > 0) count++;
      lineBytes = 0;
      start = end + 1;
    }
    lineBytes += chunk.length - start;
  }
  return lineBytes > 0 ? count + 1 : count;
}
