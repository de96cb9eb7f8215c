/** The shared security cases, applied to every protected data-import route. */
import { afterAll, beforeAll, describe } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { securityCases } from '../helpers/auth.js';
import { PATHS, createTestService, type TestService } from '../helpers/app.js';
import { buildAccount } from '../payload/factory.js';

const ROUTES = [
  { method: 'POST' as const, url: PATHS.validate, payload: () => buildAccount() },
  { method: 'POST' as const, url: PATHS.stage, payload: () => buildAccount() },
  {
    method: 'POST' as const,
    url: PATHS.process,
    payload: () => ({
      external_account_number: 'X-1',
      import_supplier_code: 'DEMO',
      operations_team_name: 'Migrations',
    }),
  },
  { method: 'GET' as const, url: PATHS.status('DEMO', 'X-1') },
  { method: 'GET' as const, url: PATHS.all('DEMO') },
  { method: 'GET' as const, url: PATHS.pending('DEMO') },
  { method: 'GET' as const, url: PATHS.imported('DEMO') },
];

await describeEachDialect('security of data-import routes', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService(dialect);
  });
  afterAll(() => service.destroy());

  for (const route of ROUTES) {
    describe(`${route.method} ${route.url}`, () => {
      const isPathSupplier = route.method === 'GET';
      securityCases(
        () => ({
          app: service.app,
          ctx: service.ctx,
          method: route.method,
          url: route.url,
          payload: route.payload?.(),
        }),
        isPathSupplier
          ? { ungranted: { status: 404, code: 'import_supplier_not_found' } }
          : { ungranted: { status: 400, code: 'account_failed_validation' } },
      );
    });
  }
});
