import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { accountPayloadJsonSchema } from '../../src/account/account.js';
import { processRequestJsonSchema } from '../../src/payload/process-request.js';
import { buildAccount, buildCustomer } from './factory.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const ajv = addFormats(new Ajv2020({ strict: true, strictRequired: false, allErrors: true }));
const validate = ajv.compile(accountPayloadJsonSchema);

type Schema = Record<string, unknown> & { properties: Record<string, Schema> };
const schema = accountPayloadJsonSchema as Schema;
const itemsOf = (s: Schema) => s.items as Schema;

describe('the account payload JSON Schema', () => {
  it('is valid draft 2020-12 and accepts the factory account', () => {
    expect(validate(buildAccount())).toBe(true);
    expect(ajv.validateSchema(processRequestJsonSchema)).toBe(true);
  });

  it('closes every object and lists required fields', () => {
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['import_supplier', 'external_account_number']);
    const customer = itemsOf(schema.properties.customers as Schema);
    expect(customer.additionalProperties).toBe(false);
    expect(customer.required).toEqual(['given_name', 'family_name']);
    expect(validate(buildAccount({ customers: [buildCustomer({ nickname: 'x' })] }))).toBe(false);
  });

  it('carries enums, lengths, patterns, formats, defaults and nullability', () => {
    const p = schema.properties;
    expect(p.account_type).toMatchObject({ enum: ['DOMESTIC', 'BUSINESS'], default: 'DOMESTIC' });
    expect(p.billing_name).toMatchObject({ type: 'string', maxLength: 510 });
    expect(p.transfer_balance).toMatchObject({ pattern: '^-?\\d{1,10}(?:\\.\\d{1,10})?$' });
    expect(p.billing_email).toMatchObject({ format: 'email', maxLength: 254 });
    expect(p.customers).toMatchObject({ type: 'array', maxItems: 10 });
    const customer = itemsOf(p.customers as Schema).properties;
    expect(customer.mobile).toMatchObject({ type: ['string', 'null'] });
    expect(customer.date_of_birth).toMatchObject({ type: ['string', 'null'], format: 'date' });
    const meterPoints = itemsOf(p.supply_addresses as Schema).properties.meter_points as Schema;
    expect(meterPoints).toMatchObject({ minItems: 1, maxItems: 20 });
    expect(itemsOf(meterPoints).properties.supply_type).toMatchObject({
      enum: ['ELECTRICITY', 'GAS'],
    });
  });

  it('expresses the conditional rules', () => {
    expect(validate(buildAccount({ account_type: 'BUSINESS' }))).toBe(false);
    expect(validate(buildAccount({ account_type: 'BUSINESS', business_type: 'LTD' }))).toBe(true);
    expect(validate(buildAccount({ business_type: 'LTD' }))).toBe(false);
    expect(validate(buildAccount({ billing_address: undefined }))).toBe(false);
    expect(validate(buildAccount({ billing_address1: '1 Road', billing_postcode: 'M1 1AE' }))).toBe(
      false,
    );
    const legacy = {
      billing_address: undefined,
      billing_address1: '1 Road',
      billing_postcode: 'M1 1AE',
    };
    expect(validate(buildAccount(legacy))).toBe(true);
    const foreign = { country: 'FR', street_address: '1 rue', postal_code: '75008' };
    expect(validate(buildAccount({ billing_address: foreign }))).toBe(true);
    const gbWithoutPostcode = { country: 'GB', street_address: '1 Road' };
    expect(validate(buildAccount({ billing_address: gbWithoutPostcode }))).toBe(false);
    expect(validate(buildAccount({ notes: [{ is_pinned: true }] }))).toBe(false);
  });
});
