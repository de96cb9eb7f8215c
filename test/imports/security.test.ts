/** The shared security cases, applied to every protected data-import route. */
import { afterAll, beforeAll, describe } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { securityCases } from '../helpers/auth.js';
import { PROTECTED_ROUTES, createTestService, type TestService } from '../helpers/app.js';

await describeEachDialect('security of data-import routes', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService(dialect);
  });
  afterAll(() => service.destroy());

  for (const route of PROTECTED_ROUTES) {
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
          : { ungranted: { status: 400, code: 'account_failed_validation' }, readsBody: true },
      );
    });
  }
});
