/**
 * Lists order accounts staged in the same millisecond by external account number byte by byte,
 * on PostgreSQL whatever the database's collation, as on SQLite; so do the operator's listings
 * of supplier codes. The PostgreSQL database here sorts text as en-US does, unlike bytes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listSuppliers } from '../../../src/operator/suppliers.repository.js';
import { PATHS, createTestService, listPages, type TestService } from '../../helpers/app.js';
import { insertOngoingSupplier } from '../../helpers/auth.js';
import { describeEachDialect } from '../../helpers/databases.js';

/** Byte order (UTF-8): upper case, then `_`, then lower case, then `é`. */
const BYTE_ORDER = ['A0', 'B0', 'Z0', '_z0', 'a0', 'b0', 'z0', 'é0'];
const STAGED_AT = 1_700_000_000_000;

await describeEachDialect('list order on a database that sorts text as en-US', (dialect) => {
  let service: TestService;

  beforeAll(async () => {
    service = await createTestService(dialect, {}, { icuLocale: 'en-US' });
    const demo = await service.db.kysely
      .selectFrom('import_suppliers')
      .select('id')
      .where('code', '=', 'DEMO')
      .executeTakeFirstOrThrow();
    const shuffled = ['z0', 'B0', 'é0', 'a0', '_z0', 'Z0', 'b0', 'A0'];
    await service.db.kysely
      .insertInto('import_processes')
      .values(
        shuffled.map((external, i) => ({
          supplier_id: demo.id,
          external_account_number: external,
          state: i % 2 === 0 ? ('completed' as const) : ('pending' as const),
          version: 1,
          first_staged_at: STAGED_AT,
          last_staged_at: STAGED_AT,
          service_account_number: i % 2 === 0 ? `A-0000000${i}` : null,
          account_created_at: i % 2 === 0 ? STAGED_AT : null,
        })),
      )
      .execute();
    for (const code of ['a-1', '_C', 'B-1'])
      await insertOngoingSupplier(service.db, code, STAGED_AT);
  });
  afterAll(() => service.destroy());

  const numbers = (items: { external_account_number: string }[]) =>
    items.map((item) => item.external_account_number);

  it('has a database whose own order is not byte order', async () => {
    if (dialect === 'sqlite') return;
    const { rows } = await sql<{ sorted: string[] }>`
      select array_agg(x order by x) as sorted from unnest(array['B0', 'a0']) as x`.execute(
      service.db.kysely,
    );
    expect(rows[0]?.sorted).toEqual(['a0', 'B0']);
  });

  it('streams and pages every list in byte order of the number', async () => {
    const all = await service.request({ method: 'GET', url: PATHS.all('DEMO') });
    expect(numbers(all.json())).toEqual(BYTE_ORDER);
    const pages = await listPages<{ external_account_number: string }>(
      service,
      `${PATHS.all('DEMO')}?limit=3`,
    );
    expect(pages.map(numbers)).toEqual([
      BYTE_ORDER.slice(0, 3),
      BYTE_ORDER.slice(3, 6),
      BYTE_ORDER.slice(6),
    ]);
    const imported = await service.request({
      method: 'GET',
      url: `${PATHS.imported('DEMO')}?limit=10`,
    });
    expect(numbers(imported.json())).toEqual(['_z0', 'b0', 'z0', 'é0']);
    const pending = await listPages<{ external_account_number: string }>(
      service,
      `${PATHS.pending('DEMO')}?limit=1`,
    );
    expect(pending.flat().map((item) => item.external_account_number)).toEqual([
      'A0',
      'B0',
      'Z0',
      'a0',
    ]);
  });

  it('lists supplier codes in byte order for the operator', async () => {
    const codes = (await listSuppliers(service.db.kysely)).map((supplier) => supplier.code);
    expect(codes).toEqual(['B-1', 'DEMO', 'OTHER', '_C', 'a-1']);
  });
});
