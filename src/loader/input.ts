/**
 * Reads account payloads from a file as a stream: NDJSON (one payload a line) or one JSON
 * array. Nothing is parsed before it is asked for, so memory does not grow with the file.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { gen } from 'stream-chain/core';
import { none } from 'stream-chain/defs.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import parser from 'stream-json/parser.js';
import { repeatedKey } from '../shared/json-keys.js';

export type InputFormat = 'ndjson' | 'json-array';

/**
 * Why a record could not be read: its bytes are not UTF-8, its text is not JSON, or an object
 * in it gives a key twice.
 */
export type InputErrorCode = 'invalid_utf8' | 'invalid_json' | 'repeated_key';

/** One record of the file: its value, or why it could not be read. */
export type InputRecord =
  | { line: number; value: unknown; error?: undefined }
  | { line: number; value?: undefined; error: string; code: InputErrorCode };

/**
 * Bytes that are not UTF-8 (a Latin-1 extract, say) would be decoded as U+FFFD and sent as
 * such: "Brontë" would be staged as "Bront\uFFFD" without a word. Such a record is refused.
 */
const NOT_UTF8 = 'the record is not valid UTF-8; convert the file to UTF-8 and send it again';

/**
 * JSON.parse keeps the last of a key given twice, and the payload then sent would hold only
 * it: one of the extract's values would be dropped without a word. The service refuses such a
 * body (docs/decisions.md); the loader, which sends what it parsed, refuses the record.
 */
const repeated = (key: string) =>
  `the record gives the key ${key} more than once in one object; a key may appear only once`;

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
 * The lines of an NDJSON file (or of a stream, such as stdin), split on LF (a CR before it is
 * dropped), read as they are asked for; undefined for a line that is not UTF-8.
 */
async function* readLines(source: string | Readable): AsyncGenerator<string | undefined> {
  const file =
    typeof source === 'string' ? createReadStream(source, { highWaterMark: CHUNK_BYTES }) : source;
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

/**
 * The records of NDJSON read from a file or a stream: blank lines skipped (their numbers
 * counted), a BOM dropped, each line refused that is not UTF-8, not JSON or repeats a key.
 */
export async function* readNdjson(source: string | Readable): AsyncGenerator<InputRecord> {
  let line = 0;
  for await (const raw of readLines(source)) {
    line++;
    if (raw === undefined) {
      yield { line, error: NOT_UTF8, code: 'invalid_utf8' };
      continue;
    }
    const text = line === 1 && raw.startsWith(BOM) ? raw.slice(1) : raw;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: (error as Error).message, code: 'invalid_json' };
      continue;
    }
    const key = repeatedKey(text, value);
    yield key === undefined
      ? { line, value }
      : {
          line,
          error: repeated(`${JSON.stringify(key.key)} (at ${key.path})`),
          code: 'repeated_key',
        };
  }
}

type ArrayElement = { key: number; value: unknown };
type ElementParser = (input: Buffer | typeof none) => AsyncIterable<ArrayElement>;
type Token = { name: string; value?: unknown };

/** The tokens that end a value that is not an object or an array (with packValues). */
const SCALAR_ENDS = new Set(['stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/**
 * The parser and array streamer as one function: fed a chunk (or `none`, at the end), it
 * yields the elements completed, each as its record. (Its declared type is the untyped
 * pipeline's.) The streamer assembles objects as JSON.parse does, keeping the last of a key
 * given twice, so the parser's tokens are watched on their way to it for the keys of each
 * object: an element that repeats one is that error instead. The pipeline runs ahead of the
 * elements it hands over, so what was found travels in a queue, one entry per element.
 */
function elementParser(): (input: Buffer | typeof none) => AsyncGenerator<InputRecord> {
  // The keys of each open object (undefined for an array); the file's array is the first.
  const open: (Set<unknown> | undefined)[] = [];
  let found: string | undefined;
  const foundByElement: (string | undefined)[] = [];
  const elementEnded = () => {
    foundByElement.push(found);
    found = undefined;
  };
  const watch = (token: Token): Token => {
    if (token.name === 'startObject') open.push(new Set());
    else if (token.name === 'startArray') open.push(undefined);
    else if (token.name === 'endObject' || token.name === 'endArray') {
      open.pop();
      if (open.length === 1) elementEnded();
    } else if (token.name === 'keyValue') {
      const keys = open[open.length - 1];
      if (keys?.has(token.value) === true) found ??= JSON.stringify(token.value);
      keys?.add(token.value);
    } else if (open.length === 1 && SCALAR_ENDS.has(token.name)) {
      elementEnded();
    }
    return token;
  };
  // The pipeline's own types cannot follow a token through `watch`: it is declared here.
  const pipeline = gen as unknown as (...steps: unknown[]) => ElementParser;
  const elements = pipeline(parser({ packKeys: true }), watch, streamArray());
  return async function* (input) {
    for await (const { key, value } of elements(input)) {
      const line = key + 1;
      const repeatedKey = foundByElement.shift();
      yield repeatedKey === undefined
        ? { line, value }
        : { line, error: repeated(repeatedKey), code: 'repeated_key' };
    }
  };
}

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
        for await (const record of parse(chunk as Buffer)) {
          position = record.line;
          yield record;
        }
      } catch (error) {
        if (isFileError(error)) throw error;
        yield* elementsBeforeBreak(path, parsedBytes, chunk as Buffer, position);
        return;
      }
      parsedBytes += (chunk as Buffer).length;
    }
    utf8.end();
    for await (const record of parse(none)) {
      position = record.line;
      yield record;
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
      for await (const record of parse(byte)) {
        position = record.line;
        yield record;
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
