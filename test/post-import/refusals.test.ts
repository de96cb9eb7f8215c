/**
 * What every post-import endpoint refuses, in the same order and with the same codes, leaving
 * every table as it was; the shared security cases; and the paths without their trailing slash.
 */
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  securityCases,
  uniqueName,
} from '../helpers/auth.js';
import {
  addGrantedSupplier,
  rowCounts,
  stageDemoAccount,
  updateSupplier,
  useTestService,
  type TestService,
} from '../helpers/app.js';
import { buildAccount } from '../account/factory.js';
import { createAccount, POST_IMPORT_PATHS, send, validBody, type Endpoint } from './helpers.js';

const ENDPOINTS = Object.keys(POST_IMPORT_PATHS) as Endpoint[];

/** Sends the request and checks that it is refused with `status` and `code`, and wrote nothing. */
async function expectRefused(
  service: TestService,
  endpoint: Endpoint,
  body: unknown,
  status: number,
  code: string,
) {
  const before = await rowCounts(service.db);
  const response = await send(service, endpoint, body);
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { code: string; errors: unknown[] };
  expect(answer.code).toBe(code);
  expect(answer.errors.length).toBeGreaterThan(0);
  expect(await rowCounts(service.db)).toEqual(before);
  return answer;
}

await describeEachDialect('post-import refusals', (dialect) => {
  const service = useTestService(dialect);

  for (const endpoint of ENDPOINTS) {
    describe(POST_IMPORT_PATHS[endpoint], () => {
      const external = `RF-${endpoint}`;

      it('refuses a supplier that does not exist, or is not granted (404)', async () => {
        for (const supplier of ['NOPE', 'OTHER']) {
          const body = validBody(endpoint, external, { import_supplier: supplier });
          await expectRefused(service, endpoint, body, 404, 'import_supplier_not_found');
        }
      });

      it('refuses a supplier that is not Ongoing (400)', async () => {
        const code = `PAUSED-${endpoint.length}`;
        await addGrantedSupplier(service, code);
        await updateSupplier(service, code, { status: 'Paused' });
        const body = validBody(endpoint, external, { import_supplier: code });
        await expectRefused(service, endpoint, body, 400, 'import_supplier_migration_not_ongoing');
      });

      it('refuses an account nothing was staged for (404 import_process_does_not_exist)', async () => {
        const body = validBody(endpoint, `${external}-NONE`);
        await expectRefused(service, endpoint, body, 404, 'import_process_does_not_exist');
      });

      it('refuses an account staged but not created (404 account_not_found)', async () => {
        await stageDemoAccount(service, buildAccount({ external_account_number: `${external}-S` }));
        const body = validBody(endpoint, `${external}-S`);
        await expectRefused(service, endpoint, body, 404, 'account_not_found');
      });

      it('refuses a body that is not an object, not JSON, or empty', async () => {
        await expectRefused(service, endpoint, [1, 2], 400, 'malformed_request');
        const before = await rowCounts(service.db);
        // Only the send of registration flows takes an empty body (`emptyBodyAccepted`).
        for (const payload of ['{"import_supplier": ', '']) {
          const response = await service.request({
            method: 'POST',
            url: POST_IMPORT_PATHS[endpoint],
            headers: { 'content-type': 'application/json' },
            payload,
          });
          expect(response.statusCode).toBe(400);
          expect(response.json()).toMatchObject({ code: 'malformed_request' });
        }
        expect(await rowCounts(service.db)).toEqual(before);
      });

      it('reports every error of a bad body at once, before looking up the account', async () => {
        const answer = await expectRefused(
          service,
          endpoint,
          { import_supplier: 42, surprise: true },
          400,
          'account_failed_validation',
        );
        const attrs = answer.errors.map((error) => (error as { attr: string }).attr);
        expect(attrs).toEqual(expect.arrayContaining(['import_supplier', 'surprise']));
        expect(attrs.length).toBeGreaterThanOrEqual(3);
      });

      it('reports U+0000 in a string among the errors', async () => {
        const body = validBody(endpoint, external, { import_supplier: 'DE\u0000MO' });
        const answer = await expectRefused(
          service,
          endpoint,
          body,
          400,
          'account_failed_validation',
        );
        expect(answer.errors).toEqual([
          expect.objectContaining({ code: 'invalid_character', attr: 'import_supplier' }),
        ]);
      });

      it('answers the path without its trailing slash as with it', async () => {
        await createAccount(service, `${external}-SLASH`);
        const response = await service.request({
          method: 'POST',
          url: POST_IMPORT_PATHS[endpoint].replace(/\/$/, ''),
          payload: validBody(endpoint, `${external}-SLASH`),
        });
        expect(response.statusCode, response.body).toBe(201);
      });

      it('answers 401 to a revoked token before any refusal of its body or account', async () => {
        await createAccount(service, `${external}-REVOKED`);
        const { id, apiKey } = await createOrganisation(service.db, uniqueName('revoked'), [
          'DEMO',
        ]);
        const { token } = await obtainToken(service.app, apiKey);
        await changeOrganisation(service.db, id, { enabled: 0 });
        const bodies = [
          validBody(endpoint, `${external}-REVOKED`),
          { import_supplier: 42 },
          validBody(endpoint, `${external}-NONE`),
        ];
        for (const payload of bodies) {
          const before = await rowCounts(service.db);
          const response = await service.app.inject({
            method: 'POST',
            url: POST_IMPORT_PATHS[endpoint],
            headers: { authorization: `Token ${token}` },
            payload,
          });
          expect(response.statusCode).toBe(401);
          expect(response.json()).toMatchObject({ code: 'invalid_token' });
          expect(await rowCounts(service.db)).toEqual(before);
        }
      });

      securityCases(
        () => ({
          app: service.app,
          ctx: service.ctx,
          method: 'POST',
          url: POST_IMPORT_PATHS[endpoint],
          payload: validBody(endpoint, external),
        }),
        { ungranted: { status: 404, code: 'import_supplier_not_found' }, readsBody: true },
      );
    });
  }
});
