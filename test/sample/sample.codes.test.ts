/** Sample accounts name only platform codes of the demo catalogue, of the kind their field needs. */
import { describe, expect, it } from 'vitest';
import { demoCatalogue } from '../../src/reference/reference.demo.js';
import { supplierMpids } from '../../src/sample/codes.js';
import { generateSample } from '../../src/sample/sample.generator.js';
import { SAMPLE_SHAPES } from '../../src/sample/shape.js';
import { codesMissingFrom, platformCodesOf } from '../helpers/platform-codes.js';

type Json = Record<string, unknown>;

const catalogue = demoCatalogue();
const SEEDS = [1, 2, 3, 17, 2024];

const sample = (shape: (typeof SAMPLE_SHAPES)[number], seed: number, supplier = 'ACME') =>
  [...generateSample({ count: 60, supplier, seed, shape, asOf: '2026-03-15' })].map(
    (line) => line.payload,
  );

describe.each(SAMPLE_SHAPES)('%s sample accounts', (shape) => {
  it('name only codes of the demo catalogue, each of the right kind and market', () => {
    const kinds = new Set<string>();
    for (const seed of SEEDS) {
      for (const payload of sample(shape, seed)) {
        expect(codesMissingFrom(catalogue, payload)).toEqual([]);
        for (const { kind } of platformCodesOf(payload)) kinds.add(kind);
      }
    }
    // What each shape names: the full one every kind the generator draws.
    const expected = {
      minimal: ['market_participant', 'tariff', 'tpr'],
      typical: ['market_participant', 'psr_code', 'reference_namespace', 'tariff', 'tpr'],
      full: [
        'campaign',
        'debt_collection_agency',
        'dunning_path',
        'market_participant',
        'psr_code',
        'reference_namespace',
        'tariff',
        'tpr',
      ],
    }[shape];
    expect([...kinds].sort()).toEqual(expected);
  });

  it('put each electricity meter on a tariff with a rate band for each register', () => {
    for (const payload of sample(shape, 5)) {
      const supply = (payload.supply_addresses as Json[])[0] as Json;
      for (const point of supply.meter_points as Json[]) {
        if (point.supply_type !== 'ELECTRICITY') continue;
        const registers = ((point.meters as Json[])[0] as Json).registers as Json[];
        for (const agreement of point.agreements as Json[]) {
          const tariff = catalogue.find('tariff', String(agreement.tariff_code));
          expect(tariff?.rate_bands).toHaveLength(registers.length);
        }
      }
    }
  });
});

describe('the supplier market participant ids', () => {
  it("are the catalogue's pair that begins the supplier code, if there is one", () => {
    expect(supplierMpids('DEMO')).toEqual({ electricity: 'DEMO', gas: 'DEM' });
    expect(supplierMpids('TENTACLE_ENERGY')).toEqual({ electricity: 'TENT', gas: 'TEN' });
    expect(supplierMpids('ACME')).toEqual(supplierMpids('acme'));
  });

  /** The electricity and gas supplier MPIDs the file names. */
  const mpidsOf = (payloads: Json[]) =>
    new Set(
      payloads.flatMap((payload) =>
        ((payload.supply_addresses as Json[])[0]?.meter_points as Json[]).map(
          (point) => `${String(point.supply_type)} ${String(point.mpid)}`,
        ),
      ),
    );

  it('are the same throughout a supplier file, whatever the seed', () => {
    const acme = mpidsOf([...sample('full', 1), ...sample('full', 2)]);
    expect([...acme].map((mpid) => mpid.split(' ')[0]).sort()).toEqual(['ELECTRICITY', 'GAS']);
    const others = ['OTHER', 'NORTHERN', 'B', 'Z9'].map((supplier) =>
      [...mpidsOf(sample('full', 1, supplier))].sort().join(','),
    );
    // Suppliers draw from all the catalogue's suppliers, not one pair for all.
    expect(new Set([[...acme].sort().join(','), ...others]).size).toBeGreaterThan(1);
  });
});
