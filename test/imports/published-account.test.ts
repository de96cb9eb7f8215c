/**
 * The published full account, end to end over HTTP: validated, staged and created, and kept
 * whole. Skipped without the reference (test/account/reference.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validateEnergyAccount } from '../../src/account/account.js';
import { readAccount } from '../../src/accounts/account-store.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, processDemoAccount, updateSupplier, useTestService } from '../helpers/app.js';
import { HAS_REFERENCE, publishedFullAccount } from '../account/reference.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

await describeEachDialect('the published full account', (dialect) => {
  const service = useTestService(dialect);
  beforeAll(async () => {
    await updateSupplier(service, 'DEMO', { document_root: 'demo-root/' });
  });

  /** The account as the service normalises it (phones in E.164, datetimes in UTC, ...). */
  const normalised = (account: Record<string, unknown>) => {
    const result = validateEnergyAccount(account, TEST_ACCOUNT_CONTEXT);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.value;
  };

  describe.skipIf(!HAS_REFERENCE)('with the reference', () => {
    it('validates to its normalised form', async () => {
      const account = publishedFullAccount('DEMO');
      const response = await service.request({
        method: 'POST',
        url: PATHS.validate,
        payload: account,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(normalised(account));
    });

    it('is staged and created, and the created account keeps every field', async () => {
      const account = publishedFullAccount('DEMO');
      const staged = await service.request({ method: 'POST', url: PATHS.stage, payload: account });
      expect(staged.statusCode).toBe(201);
      const external = account.external_account_number as string;
      expect(staged.json()).toEqual({
        import_supplier: 'DEMO',
        import_supplier_code: 'DEMO',
        external_account_number: external,
      });

      const created = await processDemoAccount(service, external);
      expect(created.statusCode).toBe(201);
      const number: string = created.json().service_account_number;
      expect(created.json()).toEqual({
        service_account_number: number,
        external_account_number: external,
      });
      const kept = await readAccount(service.db, number);
      expect(kept?.payload).toEqual(normalised(account));

      // Document paths are resolved under the supplier's root, with single slashes.
      const documents = await service.db.kysely
        .selectFrom('account_documents')
        .select(['source', 'location'])
        .where('account_id', '=', kept?.id ?? 0)
        .orderBy('id')
        .execute();
      expect(documents).toEqual([
        {
          source: 'notes.0.document_paths.0.document_path',
          location: 'account-documents/demo-root/notes/1234/attachment.jpg',
        },
        {
          source: 'statements.0.statement_path',
          location: 'account-documents/demo-root/EXTERNAL-1234/2019-06-01-to-2019-07-01.pdf',
        },
        {
          source: 'statements.1.statement_path',
          location: 'account-documents/demo-root/EXTERNAL-1234/2019-07-01-to-2019-08-01.pdf',
        },
      ]);
    });
  });
});
