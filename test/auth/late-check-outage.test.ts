/**
 * A refusal found before the caller's query (a bad body, a bad paging parameter) is thrown once
 * the caller is checked on its own (refuseConfirmed). When the database fails that check, the
 * answer is still in the error format, and tells nothing of the driver.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestService, PATHS, type TestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';

await describeEachDialect('the late caller check in an outage', (dialect) => {
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService(dialect);
    // The database goes away before any request has checked the caller.
    await service.db.close();
  });
  afterAll(async () => {
    await service.app.close();
    await service.destroy().catch(() => undefined);
  });

  it.each([
    ['a process body without its fields', { method: 'POST', url: PATHS.process, payload: {} }],
    [
      'broken JSON',
      {
        method: 'POST',
        url: PATHS.stage,
        payload: '{"broken',
        headers: { 'content-type': 'application/json' },
      },
    ],
    ['a bad limit', { method: 'GET', url: `${PATHS.all('DEMO')}?limit=abc` }],
  ] as const)('answers %s with 503 in the error format', async (_what, options) => {
    const response = await service.request({ ...options });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toEqual({
      detail: 'The database is unavailable; retry shortly.',
      code: 'service_unavailable',
      errors: [
        {
          detail: 'The database is unavailable; retry shortly.',
          code: 'service_unavailable',
          attr: null,
        },
      ],
    });
  });
});
