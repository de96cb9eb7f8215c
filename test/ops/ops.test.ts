import { expect, it } from 'vitest';
import { ERROR_CATALOGUE, TOKEN_ERROR_CODES } from '../../src/errors.js';
import { metricsText } from '../../src/ops/metrics.js';
import { FIELD_ERROR_CODES } from '../../src/payload/codes.js';
import { buildAccount } from '../account/factory.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService } from '../helpers/app.js';

await describeEachDialect('operations and documentation', (dialect) => {
  const service = useTestService(dialect);

  it('answers /healthz and /readyz', async () => {
    const health = await service.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await service.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  /** The import process gauges, counted afresh, by state. */
  const gauges = async () => {
    const text = await metricsText(service.ctx, 0);
    const lines = [...text.matchAll(/^account_import_processes\{state="(\w+)"\} (\d+)$/gm)];
    return Object.fromEntries(lines.map(([, state, count]) => [state, Number(count)]));
  };

  it('exposes import processes by state as Prometheus metrics, a lapsed claim as pending', async () => {
    const before = await gauges();
    expect(Object.keys(before)).toEqual(['pending', 'in_progress', 'completed']);
    for (const external of ['M-1', 'M-2', 'M-3']) {
      const staged = await service.request({
        method: 'POST',
        url: PATHS.stage,
        payload: buildAccount({ external_account_number: external }),
      });
      expect(staged.statusCode).toBe(201);
    }
    const claim = (external: string, leaseUntil: number) =>
      service.db.kysely
        .updateTable('import_processes')
        .set({ state: 'in_progress', claim_id: `claim-${external}`, lease_until: leaseUntil })
        .where('external_account_number', '=', external)
        .execute();
    await claim('M-2', Date.now() + 60_000);
    await claim('M-3', Date.now() - 60_000);
    expect(await gauges()).toEqual({
      pending: (before.pending ?? 0) + 2,
      in_progress: (before.in_progress ?? 0) + 1,
      completed: before.completed,
    });
    const response = await service.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toMatch(/^account_import_processes\{state="in_progress"\} \d+$/m);
    expect(response.body).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  it('counts processes at most once per max age, however often it is scraped', async () => {
    const pending = (text: string) =>
      Number(/^account_import_processes\{state="pending"\} (\d+)$/m.exec(text)?.[1]);
    const before = pending(await metricsText(service.ctx, 0));
    const staged = await service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ external_account_number: 'M-CACHED' }),
    });
    expect(staged.statusCode).toBe(201);
    const scrapes = await Promise.all([1, 2, 3].map(() => metricsText(service.ctx, 3_600_000)));
    expect(scrapes.map(pending)).toEqual([before, before, before]);
    expect(pending(await metricsText(service.ctx, 0))).toBe(before + 1);
  });

  it('publishes an OpenAPI 3.1 document of every data-import path with the error catalogue', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/v1/data-import/validate-account/',
        '/v1/data-import/account-import-process/create-or-update/',
        '/v1/data-import/account-import-process/process/',
        '/v1/data-import/account-transfer-status/{import_supplier}/{external_account_number}/',
        '/v1/data-import/all-account-import-processes/{import_supplier}/',
        '/v1/data-import/pending-account-import-processes/{import_supplier}/',
        '/v1/data-import/imported-account-import-processes/{import_supplier}/',
      ]),
    );
    const stage = document.paths['/v1/data-import/account-import-process/create-or-update/'].post;
    expect(Object.keys(stage.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401']),
    );
    // The token endpoint, registered by mercurius, documents its refusals and rate limit too.
    const token = document.paths['/v1/graphql/'].post;
    expect(Object.keys(token.responses)).toEqual(['200', '400', '405', '413', '415', '429']);
    expect(token.responses['429'].headers['Retry-After']).toBeDefined();
    for (const status of ['400', '429']) {
      expect(token.responses[status].content['application/json'].schema.required).toEqual([
        'detail',
        'code',
        'errors',
      ]);
    }
    // The body is the published account, a component (test/account/openapi-conformance.test.ts).
    const body = stage.requestBody.content['application/json'].schema;
    expect(body).toEqual({ $ref: '#/components/schemas/EnergyAccount' });
    expect(document.components.schemas.EnergyAccount.required).toEqual(
      expect.arrayContaining(['import_supplier', 'external_account_number']),
    );
    for (const code of [
      ...Object.keys(ERROR_CATALOGUE),
      ...Object.keys(FIELD_ERROR_CODES),
      ...Object.keys(TOKEN_ERROR_CODES),
    ]) {
      expect(document.info.description).toContain(`\`${code}\``);
    }
  });

  it('documents the error codes each query route answers, and only those', async () => {
    const document = (await service.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const codes = (response: { description: string }) =>
      [...response.description.matchAll(/`(\w+)`/g)].map((match) => match[1]);
    const status =
      document.paths[
        '/v1/data-import/account-transfer-status/{import_supplier}/{external_account_number}/'
      ].get.responses;
    expect(codes(status['404'])).toEqual([
      'import_supplier_not_found',
      'import_process_does_not_exist',
    ]);
    expect(codes(status['400'])).toEqual(['malformed_request']);
    const list =
      document.paths['/v1/data-import/pending-account-import-processes/{import_supplier}/'].get
        .responses;
    expect(codes(list['400'])).toEqual(['malformed_request']);
    expect(codes(list['404'])).toEqual(['import_supplier_not_found']);
    const validate = document.paths['/v1/data-import/validate-account/'].post.responses;
    expect(codes(validate['400'])).toEqual(['account_failed_validation', 'malformed_request']);
    expect(validate['409']).toBeUndefined();
    const process =
      document.paths['/v1/data-import/account-import-process/process/'].post.responses;
    expect(codes(process['400'])).toContain('dry_run_rolled_back');
    expect(codes(process['429'])).toEqual(['too_many_accounts_in_progress', 'too_many_requests']);
    // Any protected route may find its organisation past its share (organisation-shares.ts).
    expect(codes(list['429'])).toEqual(['too_many_requests']);
    expect(codes(status['429'])).toEqual(['too_many_requests']);
    // Only a route that reads a body can answer that it is too large or of the wrong type.
    for (const responses of [validate, process]) {
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['408', '413', '415', '431']));
    }
    for (const responses of [status, list]) {
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['408', '431']));
      expect(responses['413']).toBeUndefined();
      expect(responses['415']).toBeUndefined();
    }
  });

  it('serves a browsable docs page', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/docs' });
    const page =
      response.statusCode === 302
        ? await service.app.inject({ method: 'GET', url: response.headers.location as string })
        : response;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toMatch(/swagger/i);
  });
});
