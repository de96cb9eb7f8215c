/**
 * The demo catalogue: every entry passes its kind's checks on import, on both databases, and it
 * holds every platform code of the published full example and of the tests' account factory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import {
  DEMO_REFERENCE,
  demoCatalogue,
  demoReferenceLines,
} from '../../src/reference/reference.demo.js';
import { KINDS } from '../../src/reference/reference.kinds.js';
import { loadReferenceCatalogue } from '../../src/reference/reference.loader.js';
import { rowsOf } from '../../src/reference/reference.catalogue.js';
import { importReference, listReference } from '../../src/reference/reference.service.js';
import { buildAccount } from '../account/factory.js';
import { example, HAS_REFERENCE } from '../account/reference.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { codesMissingFrom, platformCodesOf } from '../helpers/platform-codes.js';

await describeEachDialect('the demo catalogue', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  it('imports without a refused line, and importing it again changes nothing', async () => {
    const summary = await importReference(db, demoReferenceLines());
    expect(summary).toMatchObject({ added: DEMO_REFERENCE.length, changed: 0, unchanged: 0 });
    const stored = await listReference(db);
    expect(stored).toHaveLength(DEMO_REFERENCE.length);
    // Stored as given: the checks neither add nor drop an attribute.
    const catalogue = await loadReferenceCatalogue(db);
    expect(sorted(rowsOf(catalogue))).toEqual(sorted(rowsOf(demoCatalogue())));

    const again = await importReference(db, demoReferenceLines());
    expect(again).toMatchObject({ added: 0, changed: 0, unchanged: DEMO_REFERENCE.length });
  });
});

const sorted = <T extends { kind: string; code: string }>(rows: T[]) =>
  [...rows].sort((a, b) => `${a.kind}\n${a.code}`.localeCompare(`${b.kind}\n${b.code}`));

describe('the demo catalogue in memory', () => {
  it('lists each kind and code once, kinds in declaration order', () => {
    const keys = DEMO_REFERENCE.map(({ kind, code }) => `${kind} ${code}`);
    expect(new Set(keys).size).toBe(keys.length);
    const kinds = [...new Set(DEMO_REFERENCE.map(({ kind }) => kind))];
    expect(kinds).toEqual(KINDS.filter((kind) => kinds.includes(kind)));
    expect(rowsOf(demoCatalogue())).toHaveLength(DEMO_REFERENCE.length);
  });

  it('serves both markets with each PSR code, described', () => {
    const psr = demoCatalogue().entries('psr_code');
    expect(psr.get('01')).toEqual({ description: 'Nebuliser and apnoea monitor' });
    for (const attributes of psr.values()) expect(attributes.supply_type).toBeUndefined();
  });

  it("holds every platform code of the tests' account factory", () => {
    const account = buildAccount();
    expect(platformCodesOf(account).map(({ kind, code }) => `${kind} ${code}`)).toEqual(
      expect.arrayContaining([
        'market_participant LOND',
        'market_participant BGT',
        'market_participant TCL',
        'tariff E-1R-VAR-22-11-01-C',
        'tpr 00001',
        'reference_namespace legacy-crm',
      ]),
    );
    expect(codesMissingFrom(demoCatalogue(), account)).toEqual([]);
  });

  it.skipIf(!HAS_REFERENCE)('holds every platform code of the published full example', () => {
    const account = example('full-account.json');
    const named = platformCodesOf(account).map(({ kind, code }) => `${kind} ${code}`);
    expect([...new Set(named)].sort()).toEqual([
      'campaign super_account',
      'debt_collection_agency Debt R Us',
      'dunning_path standard_domestic',
      'market_participant TCL',
      'market_participant TEN',
      'market_participant TENT',
      'psr_code 01',
      'reference_namespace tentacle-energy.allpay-client-reference-number',
      'tariff ELEC-1234-J',
      'tariff GAS-1234-J',
      'tpr 00001',
      'tpr 00043',
    ]);
    expect(codesMissingFrom(demoCatalogue(), account)).toEqual([]);
  });
});
