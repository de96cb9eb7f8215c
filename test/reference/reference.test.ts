/**
 * Reference data on both databases: importing (all or nothing, idempotent, replacing), listing,
 * removing, and the in-memory catalogue with its change marker.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import {
  loadReferenceCatalogue,
  readReferenceVersion,
  refreshReferenceCatalogue,
} from '../../src/reference/reference.loader.js';
import { KINDS, type ReferenceKind } from '../../src/reference/reference.kinds.js';
import {
  importReference,
  listReference,
  removeReference,
} from '../../src/reference/reference.service.js';
import type { ReferenceLine } from '../../src/reference/reference.types.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { operatorRefusal } from '../helpers/operator-refusal.js';

/** A valid entry of every kind: the compiler asks for one more when a kind is declared. */
const EXAMPLES: Record<ReferenceKind, Record<string, unknown>> = {
  tariff: { code: 'E-1R-VAR', supply_type: 'ELECTRICITY', rate_bands: ['DAY', 'NIGHT'] },
  product: { code: 'VAR-24', characteristics: ['sales_channel'] },
  market_participant: { code: 'LOND', supply_type: 'ELECTRICITY', roles: ['SUPPLIER', 'DA'] },
  tpr: { code: '00001' },
  ledger_type: { code: 'ENERGY' },
  campaign: { code: 'spring-2026', name: 'Spring 2026' },
  dunning_path: { code: 'STANDARD' },
  reference_namespace: { code: 'legacy' },
  psr_code: { code: '14', supply_type: 'GAS', description: 'Pensionable age' },
  debt_collection_agency: { code: 'Acme Collections' },
  contribution_scheme: { code: 'WHD' },
  affiliate_organisation: { code: 'Citizens Advice' },
  partner_organisation: { code: 'partner-1' },
  payment_plan_strategy: { code: 'fixed-instalments' },
  complaint_type: { code: 'BILLING', subtypes: ['ESTIMATE', 'TARIFF'] },
  complaint_source: { code: 'PHONE' },
  official_complaints_organisation: { code: 'OMBUDSMAN', statuses: ['OPEN', 'CLOSED'] },
  customer_detail_namespace: { code: 'loyalty', value_type: 'OBJECT' },
  business_detail_key: { code: 'vat_number', value_type: 'STRING' },
  characteristic: { code: 'sales_channel', values: ['DIRECT', 'BROKER'] },
  agent_contract_reference: { code: 'C-100' },
  uploaded_document: { code: '/statements/2024/S-1.pdf' },
};

/** The lines of a file holding these values, numbered from 1. */
const linesOf = (...values: unknown[]): ReferenceLine[] =>
  values.map((value, i) => ({ line: i + 1, value }));

const entry = (kind: ReferenceKind, fields: Record<string, unknown> = {}) => ({
  kind,
  ...EXAMPLES[kind],
  ...fields,
});

await describeEachDialect('reference data', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());
  beforeEach(async () => {
    await db.kysely.deleteFrom('reference_entries').execute();
  });

  /** Everything stored, as the operator lists it, with the change marker. */
  const stored = async () => ({
    entries: await listReference(db),
    version: await readReferenceVersion(db),
  });

  it('imports an entry of every kind, and importing it again changes nothing', async () => {
    const all = KINDS.map((kind) => entry(kind));
    const before = await readReferenceVersion(db);
    const summary = await importReference(db, linesOf(...all));
    expect(summary).toMatchObject({ added: KINDS.length, changed: 0, unchanged: 0 });
    expect(Object.keys(summary.byKind)).toEqual(KINDS);
    expect(summary.byKind.tariff).toEqual({ added: 1, changed: 0, unchanged: 0 });

    const afterImport = await stored();
    expect(afterImport.version).toBe(before + 1);
    expect(afterImport.entries.find((e) => e.kind === 'tariff')).toMatchObject({
      code: 'E-1R-VAR',
      attributes: { supply_type: 'ELECTRICITY', rate_bands: ['DAY', 'NIGHT'] },
    });
    expect(afterImport.entries.find((e) => e.kind === 'tpr')?.attributes).toEqual({});

    const again = await importReference(db, linesOf(...all));
    expect(again).toMatchObject({ added: 0, changed: 0, unchanged: KINDS.length });
    // Nothing changed: neither the entries (their times included) nor the marker.
    expect(await stored()).toEqual(afterImport);
  });

  it('replaces the attributes of an entry already stored, and trims what it is given', async () => {
    await importReference(db, linesOf(entry('tariff'), entry('tpr')));
    const before = await readReferenceVersion(db);
    const summary = await importReference(
      db,
      linesOf(
        // rate_bands left out: the stored entry loses them.
        { kind: ' tariff ', code: ' E-1R-VAR ', supply_type: 'GAS' },
        entry('tpr'),
        entry('tpr', { code: '00002' }),
      ),
    );
    expect(summary).toEqual({
      added: 1,
      changed: 1,
      unchanged: 1,
      byKind: {
        tariff: { added: 0, changed: 1, unchanged: 0 },
        tpr: { added: 1, changed: 0, unchanged: 1 },
      },
    });
    const entries = await listReference(db);
    expect(entries.map((e) => [e.kind, e.code, e.attributes])).toEqual([
      ['tariff', 'E-1R-VAR', { supply_type: 'GAS' }],
      ['tpr', '00001', {}],
      ['tpr', '00002', {}],
    ]);
    // One write, one step of the marker, however many entries it changed.
    expect(await readReferenceVersion(db)).toBe(before + 1);
  });

  it('refuses the whole file for any bad line, naming each with its number', async () => {
    await importReference(db, linesOf(entry('tpr')));
    const before = await stored();
    const message = await operatorRefusal(
      importReference(db, [
        { line: 1, value: entry('tariff', { code: 'NEW' }) },
        { line: 2, value: { kind: 'tarif', code: 'X' } },
        { line: 3, value: { code: 'X' } },
        { line: 5, value: entry('tariff', { code: '  ' }) },
        { line: 6, value: { kind: 'tariff', supply_type: 'GAS' } },
        { line: 7, value: entry('tariff', { code: 'E2', supply_type: 'WATER', colour: 'red' }) },
        { line: 8, value: entry('market_participant', { roles: ['MOP', 'MOP', 'PILOT'] }) },
        { line: 9, value: entry('campaign', { name: undefined }) },
        { line: 10, value: entry('tariff', { code: 'NEW', supply_type: 'GAS' }) },
        // A reading problem quotes the line: what a terminal would act on is escaped.
        { line: 11, error: 'invalid JSON: Unexpected token \u001b[2J' },
        { line: 12, value: ['tpr', '1'] },
        { line: 13, value: entry('characteristic', { values: [] }) },
        { line: 14, value: entry('tpr', { code: 'a\u202Eb' }) },
      ]),
    );
    expect(message).toBe(
      'nothing imported: 12 lines are refused; ' +
        'line 2: kind: unknown kind "tarif"; `account-import reference import --help` lists the kinds; ' +
        'line 3: kind: missing; `account-import reference import --help` lists the kinds; ' +
        'line 5: code: This field may not be blank; ' +
        'line 6: code: This field is required; ' +
        'line 7: supply_type: Expected one of: ELECTRICITY, GAS; ' +
        'line 7: colour: This field is not allowed; ' +
        'line 8: roles.2: Expected one of: SUPPLIER, SHIPPER, MOP, DC, DA, MAM; ' +
        'line 8: roles.1: "MOP" is listed twice; ' +
        'line 9: name: This field is required; ' +
        'line 10: tariff "NEW" is given on line 1 already; ' +
        'line 11: invalid JSON: Unexpected token \\u001b[2J; ' +
        'line 12: expected a JSON object such as {"kind": "tpr", "code": "00001"}; ' +
        'line 13: values: Ensure this list has at least 1 item(s); ' +
        'line 14: code: Expected text without control or bidirectional formatting characters',
    );
    expect(await stored()).toEqual(before);
  });

  it('keys an uploaded document by a document path, as long as one may be', async () => {
    const long = `/statements/${'a'.repeat(1000)}.pdf`;
    await importReference(db, linesOf(entry('uploaded_document', { code: long })));
    expect((await listReference(db)).map((e) => e.code)).toEqual([long]);
    const before = await stored();
    const message = await operatorRefusal(
      importReference(
        db,
        linesOf(
          entry('uploaded_document', { code: 'statements/S-1.pdf' }),
          entry('uploaded_document', { code: '/statements/../S-1.pdf' }),
          entry('uploaded_document', { code: `/${'a'.repeat(1024)}` }),
        ),
      ),
    );
    expect(message.match(/line \d: code: Expected a path such as/g)).toHaveLength(3);
    // Longer than a key may be, in bytes: 1,000 characters of three bytes each.
    const wide = `/${'中'.repeat(1000)}`;
    expect(
      await operatorRefusal(
        importReference(db, linesOf(entry('uploaded_document', { code: wide }))),
      ),
    ).toMatch(/line 1: code: Expected a path of at most 2048 bytes in UTF-8$/);
    expect(await stored()).toEqual(before);
  });

  it('names the first 20 refused lines and counts the others', async () => {
    const bad = Array.from({ length: 23 }, (_, i) => ({ line: i + 1, value: { kind: 'tpr' } }));
    const message = await operatorRefusal(importReference(db, bad));
    expect(message).toMatch(/^nothing imported: 23 lines are refused; line 1: code: /);
    expect(message).toMatch(/; line 20: code: This field is required; and 3 more lines$/);
    expect(message).not.toMatch(/line 21:/);
  });

  it('imports more entries than one statement takes, and counts two imports at once exactly', async () => {
    const many = Array.from({ length: 1201 }, (_, i) => ({ kind: 'tpr', code: `T${i}` }));
    const before = await readReferenceVersion(db);
    // Written one after the other (a lock on PostgreSQL, the write lock on SQLite): one adds
    // every entry, the other finds them all in place.
    const both = await Promise.all([
      importReference(db, linesOf(...many)),
      importReference(db, linesOf(...many)),
    ]);
    expect(both.map((s) => [s.added, s.unchanged]).sort()).toEqual([
      [0, 1201],
      [1201, 0],
    ]);
    expect(await listReference(db, 'tpr')).toHaveLength(1201);
    expect(await readReferenceVersion(db)).toBe(before + 1);
  });

  it('lists one kind or all, in byte order of the codes', async () => {
    await importReference(
      db,
      linesOf(entry('tpr', { code: 'a0' }), entry('tpr', { code: 'B0' }), entry('ledger_type')),
    );
    expect((await listReference(db)).map((e) => `${e.kind}:${e.code}`)).toEqual([
      'ledger_type:ENERGY',
      'tpr:B0',
      'tpr:a0',
    ]);
    expect((await listReference(db, ' tpr ')).map((e) => e.code)).toEqual(['B0', 'a0']);
    expect(await listReference(db, 'campaign')).toEqual([]);
    expect(await operatorRefusal(listReference(db, 'tpr2'))).toMatch(
      /^unknown kind "tpr2": use one of /,
    );
  });

  it('removes an entry, and refuses one that is not there', async () => {
    await importReference(db, linesOf(entry('tpr'), entry('ledger_type')));
    const before = await readReferenceVersion(db);
    const removed = await removeReference(db, 'tpr', ' 00001 ');
    expect(removed).toMatchObject({ kind: 'tpr', code: '00001', attributes: {} });
    expect(await readReferenceVersion(db)).toBe(before + 1);
    expect(await operatorRefusal(removeReference(db, 'tpr', '00001'))).toBe(
      'tpr "00001" is not in the reference data',
    );
    expect(await operatorRefusal(removeReference(db, 'nope', '00001'))).toMatch(
      /^unknown kind "nope"/,
    );
    expect((await listReference(db)).map((e) => e.kind)).toEqual(['ledger_type']);
    expect(await readReferenceVersion(db)).toBe(before + 1);
  });

  describe('the catalogue', () => {
    it('holds every entry by kind and code, frozen, and is read again only after a change', async () => {
      await importReference(db, linesOf(entry('tariff'), entry('market_participant')));
      const catalogue = await loadReferenceCatalogue(db);
      expect(catalogue.version).toBe(await readReferenceVersion(db));
      expect(catalogue.find('tariff', 'E-1R-VAR')).toEqual({
        supply_type: 'ELECTRICITY',
        rate_bands: ['DAY', 'NIGHT'],
      });
      expect(catalogue.find('market_participant', 'LOND')?.roles).toEqual(['SUPPLIER', 'DA']);
      expect(catalogue.find('tariff', 'LOND')).toBeUndefined();
      expect([...catalogue.entries('market_participant').keys()]).toEqual(['LOND']);
      expect(catalogue.entries('tpr').size).toBe(0);
      const bands = catalogue.find('tariff', 'E-1R-VAR')?.rate_bands as string[];
      expect(() => bands.push('PEAK')).toThrow(TypeError);

      // Unchanged: the same catalogue, not read again; so after an import that changed nothing.
      expect(await refreshReferenceCatalogue(db, catalogue)).toBe(catalogue);
      await importReference(db, linesOf(entry('tariff')));
      expect(await refreshReferenceCatalogue(db, catalogue)).toBe(catalogue);

      await removeReference(db, 'market_participant', 'LOND');
      const afterRemove = await refreshReferenceCatalogue(db, catalogue);
      expect(afterRemove.version).toBe(catalogue.version + 1);
      expect(afterRemove.find('market_participant', 'LOND')).toBeUndefined();

      await importReference(db, linesOf(entry('tariff', { rate_bands: ['ALL'] })));
      const afterChange = await refreshReferenceCatalogue(db, afterRemove);
      expect(afterChange.version).toBe(catalogue.version + 2);
      expect(afterChange.find('tariff', 'E-1R-VAR')?.rate_bands).toEqual(['ALL']);
    });

    it('leaves out a kind this version does not declare', async () => {
      await db.kysely
        .insertInto('reference_entries')
        .values({ kind: 'future_kind', code: 'X', attributes: '{}', updated_at: 1 })
        .execute();
      await importReference(db, linesOf(entry('tpr')));
      const catalogue = await loadReferenceCatalogue(db);
      expect(KINDS.map((kind) => catalogue.entries(kind).size).reduce((a, b) => a + b)).toBe(1);
      expect((await listReference(db)).map((e) => e.kind)).toEqual(['future_kind', 'tpr']);
    });
  });
});
