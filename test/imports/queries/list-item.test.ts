/**
 * A list item is written three ways (list-item.ts): by SQLite, by PostgreSQL and by itemJson.
 * All three must write the same bytes for the same row, or a client would see a page and the
 * streamed list disagree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.js';
import {
  ITEM_FIELDS,
  ITEM_SQL,
  ITEM_START,
  itemJson,
} from '../../../src/imports/queries/list-item.js';
import {
  listCallerPage,
  listProcesses,
  type ListKind,
} from '../../../src/imports/queries/lists.repository.js';
import { createOrganisation, uniqueName } from '../../helpers/auth.js';
import { describeEachDialect, openTestDb } from '../../helpers/databases.js';

const STAGED_AT = 1_700_000_000_000;

/** Numbers and account numbers that JSON must escape, and creation times at second edges. */
const ROWS: [external: string, service: string | null, createdAt: number | null][] = [
  ['plain', 'A-00000001', Date.UTC(2026, 10, 23, 1, 2, 3, 999)],
  ['quote"back\\slash', 'A-"2"', Date.UTC(2026, 0, 1, 0, 0, 0, 0)],
  ['tab\tnewline\ncontrol\u0001\u001f', 'A-\u007f', 1],
  ['é ü 漢字 😀 \u2028\u2029', null, null],
  ['</script>&<>', '😀', Date.UTC(1999, 11, 31, 23, 59, 59, 1)],
  ['pending-with-nothing', null, null],
];

describe('itemJson', () => {
  it('writes the fields of ITEM_FIELDS, in order, as JSON.stringify would', () => {
    for (const [external, service, createdAt] of ROWS) {
      const json = itemJson([external, service, createdAt]);
      expect(json.startsWith(ITEM_START)).toBe(true);
      expect(Object.keys(JSON.parse(json) as object)).toEqual(ITEM_FIELDS.map((f) => f.name));
      expect(json).toBe(
        JSON.stringify({
          external_account_number: external,
          service_account_number: service,
          account_created_at:
            createdAt === null ? null : new Date(createdAt).toISOString().slice(0, 19) + 'Z',
        }),
      );
    }
  });
});

await describeEachDialect('list items written by the database', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  let supplierId: number;
  let organisationId: number;
  const code = 'ITEMS';

  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
    ({ id: organisationId } = await createOrganisation(db, uniqueName(), [code]));
    ({ id: supplierId } = await db.kysely
      .selectFrom('import_suppliers')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirstOrThrow());
    await db.kysely
      .insertInto('import_processes')
      .values(
        ROWS.map(([external, service, createdAt], i) => ({
          supplier_id: supplierId,
          external_account_number: external,
          state: service === null ? ('pending' as const) : ('completed' as const),
          version: 1,
          first_staged_at: STAGED_AT + i,
          last_staged_at: STAGED_AT + i,
          service_account_number: service,
          account_created_at: createdAt,
        })),
      )
      .execute();
  });
  afterAll(() => destroy());

  it('writes each row byte for byte as itemJson does', async () => {
    const rows = await db.kysely
      .selectFrom('import_processes')
      .select([
        ITEM_SQL[dialect].as('item'),
        'external_account_number',
        'service_account_number',
        'account_created_at',
      ])
      .where('supplier_id', '=', supplierId)
      .orderBy('first_staged_at')
      .execute();
    expect(rows).toHaveLength(ROWS.length);
    for (const row of rows) {
      const values = [
        row.external_account_number,
        row.service_account_number,
        row.account_created_at,
      ] as const;
      expect(row.item).toBe(itemJson(values));
    }
  });

  it.each<ListKind>(['all', 'pending', 'imported'])(
    'pages the %s list as the whole list is streamed',
    async (kind) => {
      const rows = await listProcesses(db.kysely, supplierId, kind, 100, undefined);
      expect(rows.length).toBeGreaterThan(0);
      const caller = { organisationId, keyVersion: 1 };
      const page = await listCallerPage(db.kysely, {
        caller,
        code,
        kind,
        limit: 100,
        after: undefined,
      });
      expect(page.count).toBe(rows.length);
      expect(page.items).toBe(rows.map((row) => itemJson(row)).join(','));
    },
  );
});
