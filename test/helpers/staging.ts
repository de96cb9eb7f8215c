/** Many staged accounts at once, written straight through the staging statement (no HTTP). */
import type { Db } from '../../src/db/database.js';
import { stageProcess } from '../../src/imports/staging/staging.repository.js';
import { buildAccount } from '../account/factory.js';

/** Stages accounts `<prefix>-0` … `<prefix>-<count - 1>` of the supplier, 32 at a time. */
export async function stageMany(
  db: Db,
  organisationId: number,
  supplierCode: string,
  prefix: string,
  count: number,
): Promise<void> {
  const supplier = await db.kysely
    .selectFrom('import_suppliers')
    .select(['id', 'code', 'phone_region', 'rule_settings'])
    .where('code', '=', supplierCode)
    .executeTakeFirstOrThrow();
  const data = JSON.stringify(buildAccount({ import_supplier: supplierCode }));
  const parallel = 32;
  for (let from = 0; from < count; from += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, count - from) }, (_, i) =>
        stageProcess(db, {
          supplier,
          externalAccountNumber: `${prefix}-${from + i}`,
          data,
          // Not validated here: a creation validates it.
          checkedWith: null,
          organisationId,
          keyVersion: 1,
          now: Date.now(),
        }),
      ),
    );
  }
}
