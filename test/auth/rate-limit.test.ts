import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { authTestContext } from '../helpers/auth.js';
import { WHOAMI_URL, buildAuthApp, requestToken } from './auth-app.js';

const LIMIT = 3;

await describeEachDialect('token endpoint rate limit', (dialect) => {
  let app: FastifyInstance;
  let destroy: () => Promise<void>;

  beforeAll(async () => {
    const test = await openTestDb(dialect);
    destroy = test.destroy;
    app = await buildAuthApp(await authTestContext(test.db, { TOKEN_RATE_LIMIT: String(LIMIT) }));
  });
  afterAll(async () => {
    await app.close();
    await destroy();
  });

  it(`answers 429 with Retry-After after ${LIMIT} attempts a minute`, async () => {
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      const { response } = await requestToken(app, { apiKey: 'wrong' });
      expect(response.statusCode, `attempt ${attempt}`).toBe(200);
    }
    // Both spellings of the path count against one budget.
    const { response } = await requestToken(app, { apiKey: 'wrong' }, '/v1/graphql');
    expect(response.statusCode).toBe(429);
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = response.json();
    expect(body).toMatchObject({
      code: 'too_many_requests',
      detail: expect.any(String),
      errors: [
        { code: 'too_many_requests', attr: null, extensions: { code: 'too_many_requests' } },
      ],
    });
  });

  it('limits per client IP', async () => {
    const other = await app.inject({
      method: 'POST',
      url: '/v1/graphql/',
      remoteAddress: '10.1.2.3',
      payload: { query: '{ ping }' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('leaves other routes alone', async () => {
    const response = await app.inject({ method: 'GET', url: WHOAMI_URL });
    expect(response.statusCode).toBe(401);
  });
});
