import { mkdtempSync, rmSync, writeFileSync, type ReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  countRecords,
  detectFormat,
  readRecords,
  type InputRecord,
} from '../../src/loader/input.js';

// Every file stream the reader opens, so a test can see how far into the file it has read.
const { streams } = vi.hoisted(() => ({ streams: [] as ReadStream[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const createReadStream = (...args: Parameters<typeof fs.createReadStream>) => {
    const stream = fs.createReadStream(...args);
    streams.push(stream);
    return stream;
  };
  return { ...fs, createReadStream, default: { ...fs, createReadStream } };
});

const dir = mkdtempSync(join(tmpdir(), 'loader-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileNumber = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `input-${++fileNumber}`);
  writeFileSync(path, content);
  return path;
}

async function readAll(path: string): Promise<InputRecord[]> {
  const records: InputRecord[] = [];
  for await (const record of readRecords(path, await detectFormat(path))) records.push(record);
  return records;
}

describe('NDJSON input', () => {
  it('keeps line numbers across blank lines and CRLF endings', async () => {
    const path = file('{"a":1}\r\n\r\n   \r\n{"a":2}\r\n{"a":3}');
    expect(await detectFormat(path)).toBe('ndjson');
    expect(await readAll(path)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { a: 2 } },
      { line: 5, value: { a: 3 } },
    ]);
    // The quick count for the ETA skips empty lines (lines of spaces would count: an estimate).
    expect(await countRecords(file('{"a":1}\r\n\r\n{"a":2}\r\n{"a":3}'), 'ndjson')).toBe(3);
  });

  it('reports a line that is not UTF-8 as invalid_utf8 and goes on', async () => {
    const latin1 = Buffer.from('{"family_name":"Bront\u00eb"}', 'latin1');
    const path = file(
      Buffer.concat([Buffer.from('{"a":1}\n'), latin1, Buffer.from('\n{"a":"ë"}\n')]),
    );
    expect(await readAll(path)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: expect.stringMatching(/not valid UTF-8/), code: 'invalid_utf8' },
      { line: 3, value: { a: 'ë' } },
    ]);
  });

  it('reports a line that is not JSON with its number and goes on', async () => {
    const path = file('\uFEFF{"a":1}\n{"a":\n{"a":3}\n');
    const records = await readAll(path);
    expect(records[0]).toEqual({ line: 1, value: { a: 1 } });
    expect(records[1]?.line).toBe(2);
    expect(records[1]?.error).toMatch(/JSON/);
    expect(records[2]).toEqual({ line: 3, value: { a: 3 } });
  });

  it('reports a line that gives a key twice in one object as repeated_key and goes on', async () => {
    const path = file(
      [
        '{"external_account_number":"A-1","external_account_number":"A-2"}',
        '{"a":{"b":1},"c":[{"b":1},{"b":2}]}',
        '{"customers":[{"email":"x"},{"email":"y","\\u0065mail":"z"}]}',
      ].join('\n'),
    );
    expect(await readAll(path)).toEqual([
      {
        line: 1,
        error:
          'the record gives the key "external_account_number" (at external_account_number) more than once in one object; a key may appear only once',
        code: 'repeated_key',
      },
      { line: 2, value: { a: { b: 1 }, c: [{ b: 1 }, { b: 2 }] } },
      {
        line: 3,
        error:
          'the record gives the key "email" (at customers.1.email) more than once in one object; a key may appear only once',
        code: 'repeated_key',
      },
    ]);
  });

  it('reads lines longer than a chunk and characters split between chunks', async () => {
    // Multi-byte characters at every offset, lines from 1 byte to several 16 KB chunks long.
    const values = [1, 7, 3_000, 16_383, 16_384, 40_000, 5].map((length, i) => ({
      i,
      text: 'é€😀x'.repeat(Math.ceil(length / 4)).slice(0, length),
    }));
    const content = values.map((value) => JSON.stringify(value)).join('\r\n');
    const records = await readAll(file(content));
    expect(records).toEqual(values.map((value, i) => ({ line: i + 1, value })));
  });

  it('reads an empty file as no records', async () => {
    expect(await readAll(file(''))).toEqual([]);
    expect(await countRecords(file('\n\n'), 'ndjson')).toBe(0);
  });

  it('reads ahead only a bounded part of a large file', async () => {
    const line = `${JSON.stringify({ pad: 'x'.repeat(200) })}\n`;
    await expectBoundedReadAhead(file(line.repeat(100_000)), 'ndjson'); // 21 MB
  });
});

/** Takes 10 records, lets the stream buffer whatever it wants, and checks how much it read. */
async function expectBoundedReadAhead(path: string, format: 'ndjson' | 'json-array') {
  const records = readRecords(path, format);
  for (let i = 0; i < 10; i++) expect((await records.next()).done).toBe(false);
  // Time for a stream that ignores backpressure to run ahead; this one must not.
  await delay(100);
  const bytesRead = streams.at(-1)?.bytesRead ?? Number.NaN;
  await records.return(undefined);
  expect(bytesRead).toBeGreaterThan(0);
  expect(bytesRead).toBeLessThan(1024 * 1024);
}

describe('JSON array input', () => {
  it('yields each element with its position from 1', async () => {
    const path = file(' \n [ {"a":1},\n {"b":[1,2]}, 3 ]');
    expect(await detectFormat(path)).toBe('json-array');
    expect(await readAll(path)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: [1, 2] } },
      { line: 3, value: 3 },
    ]);
    expect(await countRecords(path, 'json-array')).toBeUndefined();
  });

  it('reports an element that gives a key twice in one object as repeated_key and goes on', async () => {
    const big = 'x'.repeat(40_000); // over two chunks, so a repeat spans chunk boundaries
    const path = file(
      `[{"a":1,"b":{"a":2}},{"a":1,"a":2},[{"k":"${big}"},{"k":1,"j":{"k":2},"k":3}],` +
        `{"k":"${big}","k":"\\u0041"},"s",{"a":[{"a":1}]},{"a":1,"b":2,"a":{"x":`,
    );
    const records = await readAll(path);
    expect(records.map((r) => [r.line, r.error === undefined ? 'ok' : r.code])).toEqual([
      [1, 'ok'],
      [2, 'repeated_key'],
      [3, 'repeated_key'],
      [4, 'repeated_key'],
      [5, 'ok'],
      [6, 'ok'],
      [7, 'invalid_json'],
    ]);
    expect(records[1]?.error).toBe(
      'the record gives the key "a" more than once in one object; a key may appear only once',
    );
    expect(records[2]?.error).toBe(
      'the record gives the key "k" more than once in one object; a key may appear only once',
    );
    expect(records[5]?.value).toEqual({ a: [{ a: 1 }] });
  });

  it('reports where a broken array breaks and stops there', async () => {
    const records = await readAll(file('[{"a":1},{"b":2},{"c":'));
    expect(records).toHaveLength(3);
    expect(records[2]?.line).toBe(3);
    expect(records[2]?.error).toMatch(/not a valid JSON array/);
  });

  it('reads every element before a break in the middle, in the first chunk or a later one', async () => {
    const element = (n: number) => JSON.stringify({ n, text: `é😀 ${'x'.repeat(3000)}` });
    const elements = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => element(from + i)).join(',');
    for (const before of [2, 90]) {
      const records = await readAll(
        file(`[${elements(0, before)},{"x":,${elements(before, 100)}]`),
      );
      expect(records).toHaveLength(before + 1);
      expect(records.slice(0, before).map((r) => (r.value as { n: number }).n)).toEqual(
        Array.from({ length: before }, (_, i) => i),
      );
      expect(records[before - 1]?.value).toEqual(JSON.parse(element(before - 1)));
      expect(records[before]).toMatchObject({ line: before + 1, error: /not a valid JSON array/ });
    }
  });

  it('stops at bytes that are not UTF-8, in the first chunk or a later one, as invalid_utf8', async () => {
    const element = (n: number) => JSON.stringify({ n, text: `é😀 ${'x'.repeat(3000)}` });
    const elements = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => element(from + i)).join(',');
    for (const before of [2, 90]) {
      // "Brontë" written in Latin-1: 0xEB alone is not UTF-8.
      const latin1 = Buffer.from(`{"family_name":"Bront\u00eb"}`, 'latin1');
      const records = await readAll(
        file(
          Buffer.concat([
            Buffer.from(`[${elements(0, before)},`),
            latin1,
            Buffer.from(`,${elements(before, 100)}]`),
          ]),
        ),
      );
      expect(records).toHaveLength(before + 1);
      expect(records[before - 1]?.value).toEqual(JSON.parse(element(before - 1)));
      expect(records[before]).toMatchObject({
        line: before + 1,
        code: 'invalid_utf8',
        error: /not valid UTF-8/,
      });
    }
  });

  it('reads ahead only a bounded part of a large array', async () => {
    const element = JSON.stringify({ pad: 'x'.repeat(200) });
    await expectBoundedReadAhead(
      file(`[${Array(100_000).fill(element).join(',\n')}]`),
      'json-array',
    );
  });
});
