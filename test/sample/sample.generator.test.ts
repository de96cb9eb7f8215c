import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { writeSample } from '../../src/cli/sample.js';
import { GAS_SHIPPERS, supplierMpids } from '../../src/sample/codes.js';
import { generateSample, sampleAccountNumber } from '../../src/sample/sample.generator.js';
import { SAMPLE_SHAPES, type SampleShape } from '../../src/sample/shape.js';
import { mpan, mpanCheckDigit, mpanWithBadCheckDigit } from '../../src/sample/uk-data.js';
import { Prng } from '../../src/sample/prng.js';

type Json = Record<string, unknown>;

const AS_OF = '2026-03-15';
/** The market participant ids of supplier ACME's meter points, from the demo catalogue. */
const ACME_MPIDS = supplierMpids('ACME');
const lines = (count: number, invalidRatio = 0, seed = 7, shape?: SampleShape, asOf = AS_OF) => [
  ...generateSample({ count, supplier: 'ACME', invalidRatio, seed, shape, asOf }),
];

/** Every date and datetime string in `value`, with its path. */
function datesIn(value: unknown, path = ''): { path: string; value: string }[] {
  if (typeof value === 'string') {
    return /^\d{4}-\d{2}-\d{2}/.test(value) ? [{ path, value }] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    datesIn(item, path === '' ? key : `${path}.${key}`),
  );
}

// What a live account plans ahead: the dunning path may not start in the past.
const AHEAD =
  /^(?:dunning_path\.start_date|next_bill_due_date|payment_schedules\.\d+\.debt_repayment_end_date)$/;

describe('generateSample', () => {
  it.each(SAMPLE_SHAPES)('is reproducible from its seed and as-of date (%s)', (shape) => {
    expect(lines(30, 0.2, 7, shape)).toEqual(lines(30, 0.2, 7, shape));
    const text = (seed: number, asOf = AS_OF) => JSON.stringify(lines(5, 0, seed, shape, asOf));
    expect(text(1)).not.toEqual(text(2));
    expect(text(1)).not.toEqual(text(1, '2025-07-01'));
  });

  it('draws typical accounts unless told otherwise, and each shape differently', () => {
    expect(lines(20)).toEqual(lines(20, 0, 7, 'typical'));
    const [minimal, typical, full] = SAMPLE_SHAPES.map((shape) =>
      JSON.stringify(lines(3, 0, 7, shape)),
    );
    expect(new Set([minimal, typical, full]).size).toBe(3);
  });

  it('gives every line a unique external account number of the supplier', () => {
    const numbers = lines(2000).map((line) => line.payload.external_account_number);
    expect(new Set(numbers).size).toBe(2000);
    expect(numbers[0]).toBe(sampleAccountNumber('ACME', 7, 0));
    expect(numbers[0]).toBe('ACME-7-0000001');
    for (const shape of SAMPLE_SHAPES) {
      for (const line of lines(20, 0, 7, shape)) expect(line.payload.import_supplier).toBe('ACME');
    }
  });

  it.each(SAMPLE_SHAPES)('makes exactly the requested fraction defective (%s)', (shape) => {
    const sample = lines(1000, 0.05, 7, shape);
    const defective = sample.filter((line) => line.defect !== undefined);
    expect(defective).toHaveLength(50);
    expect(new Set(defective.map((line) => line.defect?.code)).size).toBeGreaterThanOrEqual(5);
    expect(lines(300, 0, 7, shape).every((line) => line.defect === undefined)).toBe(true);
    expect(lines(10, 1, 7, shape).every((line) => line.defect !== undefined)).toBe(true);
  });

  it.each(SAMPLE_SHAPES)(
    'keeps the valid lines the same whatever the invalid ratio (%s)',
    (shape) => {
      const plain = lines(200, 0, 7, shape);
      const mixed = lines(200, 0.2, 7, shape);
      mixed.forEach((line, i) => {
        if (line.defect === undefined) expect(line.payload).toEqual(plain[i]?.payload);
        else expect(line.payload).not.toEqual(plain[i]?.payload);
      });
    },
  );

  it.each(SAMPLE_SHAPES)(
    'dates history up to the as-of day and plans only ahead of it (%s)',
    (shape) => {
      let ahead = 0;
      for (const { payload } of lines(300, 0, 3, shape)) {
        for (const { path, value } of datesIn(payload)) {
          if (AHEAD.test(path)) {
            ahead += value > AS_OF ? 1 : 0;
            if (path === 'dunning_path.start_date') expect(value > AS_OF).toBe(true);
          } else if (value.length === 10) {
            expect(value <= AS_OF, `${path} ${value}`).toBe(true);
          } else {
            // A moment of the as-of day could still be ahead of the clock.
            expect(value.slice(0, 10) < AS_OF, `${path} ${value}`).toBe(true);
          }
        }
      }
      expect(ahead > 0).toBe(shape === 'full');
    },
  );

  it('keeps a minimal account to the fields a useful account needs', () => {
    for (const { payload } of lines(50, 0, 5, 'minimal')) {
      expect(Object.keys(payload).sort()).toEqual([
        'billing_address',
        'customers',
        'external_account_number',
        'import_supplier',
        'supply_addresses',
      ]);
      expect(Object.keys((payload.customers as Json[])[0] as Json).sort()).toEqual([
        'email',
        'family_name',
        'given_name',
      ]);
      const supply = (payload.supply_addresses as Json[])[0] as Json;
      expect(supply.meter_points).toHaveLength(1);
      const point = (supply.meter_points as Json[])[0] as Json;
      expect(point).toMatchObject({ supply_type: 'ELECTRICITY', mpid: ACME_MPIDS.electricity });
      expect(point.agreements).toHaveLength(1);
      const meter = (point.meters as Json[])[0] as Json;
      expect(meter.registers).toHaveLength(1);
      expect(meter.transfer_readings).toHaveLength(1);
    }
  });

  it('fills every rich section of the published account in the full shape, varied by seed', () => {
    const seen = new Set<string>();
    for (const { payload } of lines(200, 0, 11, 'full')) {
      const ledger = (payload.ledgers as Json[])[0] as Json;
      expect((ledger.historical_statement_transactions as Json[]).length).toBeGreaterThan(1);
      expect((ledger.current_statement_transactions as Json[]).length).toBeGreaterThan(0);
      expect(payload.transfer_balance).toBe(ledger.ledger_balance);
      expect(payload.payment_schedules).toHaveLength(2);
      expect(((payload.debts as Json[])[0] as Json).aged_debt).not.toHaveLength(0);
      expect(payload.warm_home_discount).not.toHaveLength(0);
      expect(payload.dunning_path).toHaveProperty('start_date');
      expect((payload.statements as Json[]).length).toBeGreaterThan(1);
      for (const key of ['payment_instructions', 'account_campaigns', 'metadata', 'consents']) {
        expect(payload[key], key).not.toHaveLength(0);
      }
      const psr = ((payload.customers as Json[])[0] as Json).psr as Json[];
      expect(psr.some((entry) => entry.elec_industry_code !== undefined)).toBe(true);
      expect(psr.some((entry) => entry.gas_industry_code !== undefined)).toBe(true);
      const supply = (payload.supply_addresses as Json[])[0] as Json;
      expect(supply.property_administrators).toHaveLength(1);
      const [electricity, gas] = supply.meter_points as Json[];
      expect((electricity?.eac_history as Json[]).length).toBeGreaterThan(0);
      const electricityMeter = (electricity?.meters as Json[])[0] as Json;
      expect((electricityMeter.reading_history as Json[]).length).toBeGreaterThan(1);
      expect(gas).toMatchObject({ supply_type: 'GAS', mpid: ACME_MPIDS.gas });
      expect(GAS_SHIPPERS).toContain(gas?.shipper_mpid);
      expect((gas?.aq_history as Json[]).length).toBeGreaterThan(0);
      const gasMeter = (gas?.meters as Json[])[0] as Json;
      expect([4, 5]).toContain(gasMeter.gas_number_of_digits);
      expect((gasMeter.reading_history as Json[]).length).toBeGreaterThan(1);
      if (gasMeter.is_prepay === true) seen.add('prepay gas meter');
      if (gasMeter.prepay_details !== undefined) seen.add('prepay details');
      if (electricityMeter.smart_type !== undefined) seen.add('smart meter');
      if ((electricityMeter.registers as Json[]).length === 2) seen.add('Economy 7');
      if (payload.billing_address1 !== undefined) seen.add('legacy billing lines');
      if (payload.billing_address !== undefined) seen.add('structured billing address');
      for (const customer of payload.customers as Json[]) {
        if (customer.consents !== undefined) seen.add('customer consents');
        if (customer.customer_preferences !== undefined) seen.add('customer preferences');
      }
      const schedule = (payload.payment_schedules as Json[])[1] as Json;
      if (schedule.is_debt_repayment_plan === true) seen.add('debt repayment plan');
    }
    expect([...seen].sort()).toEqual(
      [
        'prepay gas meter',
        'prepay details',
        'smart meter',
        'Economy 7',
        'legacy billing lines',
        'structured billing address',
        'customer consents',
        'customer preferences',
        'debt repayment plan',
      ].sort(),
    );
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
    expect(mpan(random, 12)).toMatch(/^12\d{11}$/);
  });
});

describe('writeSample', () => {
  it('streams NDJSON, one payload a line, in the shape asked for', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const options = { count: 300, supplier: 'ACME', seed: 1, shape: 'full' as const, asOf: AS_OF };
    expect(await writeSample(out, options)).toBe(true);
    const written = text.trimEnd().split('\n');
    expect(written).toHaveLength(300);
    const last = JSON.parse(written[299] as string) as Json;
    expect(last.external_account_number).toBe('ACME-1-0000300');
    expect(last).toEqual(lines(300, 0, 1, 'full')[299]?.payload);
  });
});
