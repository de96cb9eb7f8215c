import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ServiceError } from '../src/errors.js';

describe('ServiceError', () => {
  it('takes its status from the catalogue and its detail from the summary by default', () => {
    const error = new ServiceError({ code: 'not_found' });
    expect(error.status).toBe(404);
    expect(error.body).toEqual({
      detail: ERROR_CATALOGUE.not_found.summary,
      code: 'not_found',
      errors: [{ detail: ERROR_CATALOGUE.not_found.summary, code: 'not_found', attr: null }],
    });
    expect(error.headers).toEqual({});
  });

  it('answers a code with the status its catalogue entry names for the endpoint', () => {
    const code = 'import_process_does_not_exist';
    expect(new ServiceError({ code }).status).toBe(400);
    expect(new ServiceError({ code, endpoint: 'account_status' }).status).toBe(404);
  });

  it('puts the extra fields, field errors and headers it is given in the answer', () => {
    const item = { detail: 'Too long.', code: 'too_long', attr: 'customers.0.given_name' };
    const error = new ServiceError({
      code: 'account_failed_validation',
      detail: 'Refused.',
      errors: [item],
      extra: { external_account_number: 'A-1', detail: 'not this one' },
      headers: { 'Retry-After': '1' },
    });
    expect(error.body).toEqual({
      external_account_number: 'A-1',
      detail: 'Refused.',
      code: 'account_failed_validation',
      errors: [item],
    });
    expect(error.headers).toEqual({ 'Retry-After': '1' });
    expect(error.status).toBe(400);
  });
});
