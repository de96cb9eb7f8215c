/**
 * Settings changed by the operator take effect on the account rules over HTTP: an import
 * supplier's rule settings at the next stage, a platform setting once the service has loaded it.
 */
import { afterAll, expect, it } from 'vitest';
import { setSupplier } from '../../src/operator/suppliers.service.js';
import { resetPlatformSetting, setPlatformSetting } from '../../src/settings/settings.service.js';
import { buildAccount } from '../account/factory.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService } from '../helpers/app.js';

await describeEachDialect('settings read by the account rules', (dialect) => {
  const service = useTestService(dialect);
  afterAll(async () => {
    await setSupplier(service.db, 'DEMO', { ruleSettings: { skip_property_creation: false } });
    await resetPlatformSetting(service.db, 'managed_accounts_allowed');
  });

  it("refuses a stage the supplier's rule settings forbid", async () => {
    const account = buildAccount({ external_account_number: 'SETTINGS-1' });
    const code = 'supply_addresses_provided_while_skip_property_creation_enabled';
    const stage = () => service.request({ method: 'POST', url: PATHS.stage, payload: account });
    const codesOf = (body: { errors?: { code: string }[] }) =>
      (body.errors ?? []).map((error) => error.code);
    expect(codesOf((await stage()).json())).not.toContain(code);

    await setSupplier(service.db, 'DEMO', { ruleSettings: { skip_property_creation: true } });
    const refused = await stage();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toContainEqual(
      expect.objectContaining({ code, attr: 'supply_addresses' }),
    );
  });

  it('applies a platform setting once the service has loaded it', async () => {
    const account = buildAccount({
      external_account_number: 'SETTINGS-2',
      account_type: 'MANAGED',
    });
    const code = 'managed_accounts_are_not_allowed';
    const validate = () =>
      service.request({ method: 'POST', url: PATHS.validate, payload: account });
    const codesOf = (body: { errors?: { code: string }[] }) =>
      (body.errors ?? []).map((error) => error.code);
    expect(codesOf((await validate()).json())).not.toContain(code);

    await setPlatformSetting(service.db, 'managed_accounts_allowed', 'off');
    await service.ctx.platform.refresh();
    const refused = await validate();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toContainEqual(
      expect.objectContaining({ code, attr: 'account_type' }),
    );
  });
});
