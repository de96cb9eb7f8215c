import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { writeSample } from '../../src/cli/sample.js';
import { generateSample, sampleAccountNumber } from '../../src/sample/sample.generator.js';
import { mpan, mpanCheckDigit, mpanWithBadCheckDigit } from '../../src/sample/uk-data.js';
import { Prng } from '../../src/sample/prng.js';

const lines = (count: number, invalidRatio = 0, seed = 7) => [
  ...generateSample({ count, supplier: 'ACME', invalidRatio, seed }),
];

describe('generateSample', () => {
  it('is reproducible from its seed and differs between seeds', () => {
    expect(lines(50)).toEqual(lines(50));
    expect(JSON.stringify(lines(5, 0, 1))).not.toEqual(JSON.stringify(lines(5, 0, 2)));
  });

  it('gives every line a unique external account number of the supplier', () => {
    const numbers = lines(2000).map((line) => line.payload.external_account_number);
    expect(new Set(numbers).size).toBe(2000);
    expect(numbers[0]).toBe(sampleAccountNumber('ACME', 7, 0));
    expect(numbers[0]).toBe('ACME-7-0000001');
    for (const line of lines(20)) expect(line.payload.import_supplier).toBe('ACME');
  });

  it('makes exactly the requested fraction defective, each with one expected error', () => {
    const sample = lines(1000, 0.05);
    const defective = sample.filter((line) => line.defect !== undefined);
    expect(defective).toHaveLength(50);
    const codes = new Set(defective.map((line) => line.defect?.code));
    expect(codes.size).toBeGreaterThanOrEqual(5);
    expect(lines(1000, 0).every((line) => line.defect === undefined)).toBe(true);
    expect(lines(10, 1).every((line) => line.defect !== undefined)).toBe(true);
  });

  it('keeps the valid lines the same whatever the invalid ratio', () => {
    const plain = lines(200, 0);
    const mixed = lines(200, 0.2);
    mixed.forEach((line, i) => {
      if (line.defect === undefined) expect(line.payload).toEqual(plain[i]?.payload);
    });
  });
});

describe('MPAN check digits', () => {
  it('follows the weighted sum by hand and rejects a changed digit', () => {
    // 1×3 = 3 → 3 mod 11 mod 10 = 3; and 9×3+9×5+…+9×43 = 9×268 = 2412 → 2412 mod 11 = 3.
    expect(mpanCheckDigit('100000000000')).toBe(3);
    expect(mpanCheckDigit('999999999999')).toBe(3);
    // 2×3 + 3×5 = 21 → 21 mod 11 = 10 → 10 mod 10 = 0.
    expect(mpanCheckDigit('230000000000')).toBe(0);
    const random = new Prng(3);
    for (let i = 0; i < 200; i++) {
      const core = mpan(random);
      expect(core).toMatch(/^(1\d|2[0-3])\d{11}$/);
      expect(Number(core.slice(-1))).toBe(mpanCheckDigit(core.slice(0, 12)));
      const bad = mpanWithBadCheckDigit(core);
      expect(Number(bad.slice(-1))).not.toBe(mpanCheckDigit(bad.slice(0, 12)));
    }
  });
});

describe('writeSample', () => {
  it('streams NDJSON, one payload a line', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    expect(await writeSample(out, { count: 300, supplier: 'ACME', seed: 1 })).toBe(true);
    const written = text.trimEnd().split('\n');
    expect(written).toHaveLength(300);
    expect(JSON.parse(written[299] as string).external_account_number).toBe('ACME-1-0000300');
  });
});
