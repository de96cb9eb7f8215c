/**
 * Fairness between organisations: an organisation past its share of requests in flight, or of
 * unpaged list streams, is refused with 429 and Retry-After; another organisation is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganisationShares } from '../../src/http/organisation-shares.js';
import { ServiceError } from '../../src/errors.js';
import { createOrganisation, obtainToken } from '../helpers/auth.js';
import { createTestService, type TestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { stageMany } from '../helpers/staging.js';
import { until } from '../helpers/until.js';

describe('OrganisationShares', () => {
  it('bounds each organisation alone, and gives a share back once', () => {
    const shares = new OrganisationShares(2, 'things');
    const first = shares.take(1);
    shares.take(1);
    expect(() => shares.take(1)).toThrow(ServiceError);
    shares.take(2);
    first();
    first();
    expect(shares.inFlight(1)).toBe(1);
    shares.take(1);
    try {
      shares.take(1);
      expect.unreachable();
    } catch (error) {
      const refusal = error as ServiceError;
      expect(refusal.status).toBe(429);
      expect(refusal.code).toBe('too_many_requests');
      expect(refusal.headers).toEqual({ 'Retry-After': '1' });
      expect(refusal.message).toMatch(/already has 2 things in flight/);
    }
  });
});

const LIST = '/v1/data-import/all-account-import-processes';

async function readToEnd(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream);
}

await describeEachDialect('shares of organisations', (dialect) => {
  /**
   * A service with these limits, 2,000 accounts of DEMO (one stream batch: an unread unpaged
   * list of them stays open) and a second organisation's token.
   */
  async function serviceWith(env: Record<string, string>) {
    const service = await createTestService(dialect, env);
    await stageMany(service.db, service.organisationId, 'DEMO', 'S', 2_000);
    const other = await createOrganisation(service.db, 'second', ['SECOND']);
    const otherToken = (await obtainToken(service.app, other.apiKey)).token;
    /** Opens the unpaged list and leaves it unread: the stream stays open until read. */
    const openStream = async () => {
      const response = await service.app.inject({
        method: 'GET',
        url: `${LIST}/DEMO/`,
        headers: { authorization: `Token ${service.token}` },
        payloadAsStream: true,
      });
      expect(response.statusCode).toBe(200);
      return response.stream();
    };
    const asOther = (url: string) =>
      service.app.inject({ method: 'GET', url, headers: { authorization: `Token ${otherToken}` } });
    return { service, openStream, asOther };
  }

  const expectRefused = (response: { statusCode: number; headers: object; json(): unknown }) => {
    expect(response.statusCode).toBe(429);
    expect(response.headers).toMatchObject({ 'retry-after': '1' });
    expect(response.json()).toMatchObject({ code: 'too_many_requests' });
  };

  describe('unpaged list streams', () => {
    let setup: Awaited<ReturnType<typeof serviceWith>>;
    let service: TestService;
    beforeAll(async () => {
      setup = await serviceWith({ ORGANISATION_LIST_STREAMS: '1' });
      service = setup.service;
    });
    afterAll(() => service.destroy());

    it('refuses a second stream of one organisation only, until the first ends', async () => {
      const open = await setup.openStream();
      expectRefused(await service.request({ method: 'GET', url: `${LIST}/DEMO/` }));
      // Pages of the same organisation, and another organisation's stream, are served.
      const page = await service.request({ method: 'GET', url: `${LIST}/DEMO/?limit=5` });
      expect(page.statusCode).toBe(200);
      expect((await setup.asOther(`${LIST}/SECOND/`)).statusCode).toBe(200);
      await readToEnd(open);
      await until(async () => {
        const again = await service.request({ method: 'GET', url: `${LIST}/DEMO/` });
        return again.statusCode === 200;
      });
    });
  });

  describe('requests in flight', () => {
    let setup: Awaited<ReturnType<typeof serviceWith>>;
    let service: TestService;
    beforeAll(async () => {
      setup = await serviceWith({ ORGANISATION_REQUESTS_IN_FLIGHT: '1' });
      service = setup.service;
    });
    afterAll(() => service.destroy());

    it('refuses an organisation past its share, and serves another meanwhile', async () => {
      const open = await setup.openStream();
      expectRefused(await service.request({ method: 'GET', url: `${LIST}/DEMO/?limit=5` }));
      expect((await setup.asOther(`${LIST}/SECOND/?limit=5`)).statusCode).toBe(200);
      await readToEnd(open);
      await until(async () => {
        const again = await service.request({ method: 'GET', url: `${LIST}/DEMO/?limit=5` });
        return again.statusCode === 200;
      });
    });
  });
});
