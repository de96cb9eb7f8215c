/** The shared security cases, applied to every protected data-import route. */
import { describe } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { securityCases } from '../helpers/auth.js';
import { PROTECTED_ROUTES, useTestService } from '../helpers/app.js';

await describeEachDialect('security of data-import routes', (dialect) => {
  const service = useTestService(dialect);

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
