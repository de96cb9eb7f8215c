/**
 * The account's OpenAPI components as a JSON Schema: they compile as draft 2020-12, refer to
 * each other by $ref, are closed, and describe the normalised values the validator writes.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { accountComponents, validateEnergyAccount } from '../../src/account/account.js';
import { buildAccount, buildCustomer } from './factory.js';
import { CONTEXT } from './helpers.js';
import { HAS_REFERENCE, example } from './reference.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;

const ajv = addFormats(new Ajv2020({ strict: true, strictRequired: false, allErrors: true }));
// OpenAPI's own words: the decimal format (its pattern does the checking), the discriminator
// (an annotation here: the closed variants tell themselves apart), the components section.
ajv.addFormat('decimal', true);
ajv.addKeyword('discriminator');
ajv.addKeyword('components');
const validate = ajv.compile({
  $ref: '#/components/schemas/EnergyAccount',
  components: { schemas: accountComponents },
});

describe('the account components', () => {
  it('refer to each other by $ref', () => {
    const account = accountComponents.EnergyAccount as { properties: Record<string, Json> };
    expect(account.properties.customers).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/EnergyCustomer' },
    });
    expect(accountComponents.MeterPoint).toMatchObject({
      oneOf: [
        { $ref: '#/components/schemas/ElectricityMeterPoint' },
        { $ref: '#/components/schemas/GasMeterPoint' },
      ],
      discriminator: { propertyName: 'supply_type' },
    });
  });

  it('close every object and list the required fields', () => {
    expect(accountComponents.EnergyAccount).toMatchObject({ additionalProperties: false });
    expect(accountComponents.EnergyAccount?.required).toEqual(
      expect.arrayContaining(['import_supplier', 'external_account_number']),
    );
    expect(accountComponents.EnergyCustomer).toMatchObject({ additionalProperties: false });
    expect(validate(buildAccount())).toBe(true);
    expect(validate(buildAccount({ customers: [buildCustomer({ nickname: 'x' })] }))).toBe(false);
    expect(validate(buildAccount({ external_account_number: undefined }))).toBe(false);
  });

  it('state the shape of an external account number, which travels in URL paths', () => {
    for (const number of ['a b', '', '.', '..', 'a/b', 'x%41']) {
      expect(validate(buildAccount({ external_account_number: number })), number).toBe(false);
    }
    expect(validate(buildAccount({ external_account_number: 'ACC-1.2_é' }))).toBe(true);
  });

  it.skipIf(!HAS_REFERENCE)('describe the normalised published example', () => {
    const full = example('full-account.json');
    full.dunning_path = { ...(full.dunning_path as object), start_date: '2027-01-04' };
    // As published, its PSR dates are bare dates, which the validator reads as datetimes.
    expect(validate(full)).toBe(false);
    const result = validateEnergyAccount(full, { ...CONTEXT, today: '2026-11-26' });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(validate(result.value)).toBe(true);
  });
});
