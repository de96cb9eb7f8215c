import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  processRequestJsonSchema,
  validateProcessRequest,
} from '../../src/payload/process-request.js';

const request = (fields: Record<string, unknown> = {}) => ({
  external_account_number: 'A-1000001',
  import_supplier_code: 'DEMO',
  operations_team_name: 'Migrations',
  ...fields,
});
const problems = (input: unknown) => {
  const result = validateProcessRequest(input);
  return result.ok ? [] : result.errors.map(({ code, attr }) => ({ code, attr }));
};

describe('process request', () => {
  it('defaults dry_run to false and trims strings', () => {
    const result = validateProcessRequest(request({ operations_team_name: ' Migrations ' }));
    expect(result).toEqual({
      ok: true,
      value: {
        external_account_number: 'A-1000001',
        import_supplier_code: 'DEMO',
        operations_team_name: 'Migrations',
        dry_run: false,
      },
    });
  });

  it('keeps dry_run true', () => {
    const result = validateProcessRequest(request({ dry_run: true }));
    expect(result.ok && result.value.dry_run).toBe(true);
  });

  it('may leave the team out (the import supplier may allocate one)', () => {
    const result = validateProcessRequest(request({ operations_team_name: undefined }));
    expect(result.ok && result.value.operations_team_name).toBeUndefined();
  });

  it('reports required, blank, invalid_type and unknown fields together', () => {
    expect(
      problems({
        external_account_number: ' ',
        import_supplier_code: 7,
        dry_run: 'yes',
        force: true,
      }),
    ).toEqual([
      { code: 'blank', attr: 'external_account_number' },
      { code: 'invalid_type', attr: 'import_supplier_code' },
      { code: 'invalid_type', attr: 'dry_run' },
      { code: 'unknown_field', attr: 'force' },
    ]);
  });

  it('applies the external account number rule', () => {
    for (const number of ['A/1', '..']) {
      expect(problems(request({ external_account_number: number }))).toEqual([
        { code: 'invalid_external_account_number', attr: 'external_account_number' },
      ]);
    }
  });

  it('refuses a non-object with one error', () => {
    expect(problems([])).toEqual([{ code: 'invalid_type', attr: null }]);
  });

  it('publishes its schema, valid draft 2020-12', () => {
    expect(new Ajv2020({ strict: true }).validateSchema(processRequestJsonSchema)).toBe(true);
    expect(processRequestJsonSchema).toMatchObject({
      type: 'object',
      // Left out where the import supplier allocates its accounts to a team itself.
      required: ['external_account_number', 'import_supplier_code'],
      additionalProperties: false,
      properties: { dry_run: { type: 'boolean', default: false } },
    });
  });
});
