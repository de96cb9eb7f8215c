/**
 * Creation checks the staged account against the reference data as it is then, not as it was
 * at staging: a tariff the operator removed in between is refused with its published code, and
 * nothing is created until it is back.
 */
import { expect, it } from 'vitest';
import { demoReferenceLines } from '../../src/reference/reference.demo.js';
import { importReference, removeReference } from '../../src/reference/reference.service.js';
import { buildAccount, buildMeterPoint } from '../account/factory.js';
import { describeEachDialect } from '../helpers/databases.js';
import { processDemoAccount, stageDemoAccount, useTestService } from '../helpers/app.js';

await describeEachDialect('reference data read at creation', (dialect) => {
  const service = useTestService(dialect);

  it('refuses an account whose tariff was removed after it was staged, and creates it once the tariff is back', async () => {
    const tariff = (buildMeterPoint().agreements as { tariff_code: string }[])[0]?.tariff_code;
    expect(tariff).toBeDefined();
    const external = 'TARIFF-GONE-1';
    await stageDemoAccount(service, buildAccount({ external_account_number: external }));

    await removeReference(service.db, 'tariff', tariff ?? '');
    await service.ctx.platform.refresh();
    const refused = await processDemoAccount(service, external);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors).toContainEqual({
      code: 'tariff_code_not_found',
      attr: 'supply_addresses.0.meter_points.0.agreements.0.tariff_code',
      detail: expect.any(String),
    });
    const accounts = await service.db.kysely.selectFrom('accounts').select('id').execute();
    expect(accounts).toEqual([]);

    await importReference(service.db, demoReferenceLines());
    await service.ctx.platform.refresh();
    const created = await processDemoAccount(service, external);
    expect(created.statusCode, created.body).toBe(201);
  });
});
