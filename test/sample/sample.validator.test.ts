/** The generator checked against the service's own payload validator, line by line. */
import { describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { DEFECTS } from '../../src/sample/defects.js';
import { generateSample } from '../../src/sample/sample.generator.js';

const CONTEXT = { phoneRegion: 'GB', supplierFound: true } as const;

describe('sample data against validateEnergyAccount', () => {
  it('produces valid payloads on every line without a defect', () => {
    for (const seed of [1, 2, 3]) {
      for (const { payload, defect } of generateSample({ count: 400, supplier: 'ACME', seed })) {
        expect(defect).toBeUndefined();
        const result = validateEnergyAccount(payload, CONTEXT);
        expect(result.ok ? [] : result.errors).toEqual([]);
      }
    }
  });

  it('gives each defective line exactly its one expected error', () => {
    const seen = new Set<string>();
    const lines = generateSample({ count: 600, supplier: 'ACME', seed: 42, invalidRatio: 0.5 });
    for (const { payload, defect } of lines) {
      const result = validateEnergyAccount(payload, CONTEXT);
      if (defect === undefined) {
        expect(result.ok).toBe(true);
        continue;
      }
      seen.add(defect.code);
      expect(result.ok).toBe(false);
      const errors = result.ok ? [] : result.errors.map(({ code, attr }) => ({ code, attr }));
      expect(errors).toEqual([defect]);
    }
    // Every kind of defect was drawn and checked at least once.
    expect([...seen].sort()).toEqual(DEFECTS.map((d) => d.expected.code).sort());
  });
});
