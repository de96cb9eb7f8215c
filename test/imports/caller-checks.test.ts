/**
 * The caller checks that concurrent requests share (src/db/shared-lookups.ts), on the real app
 * and both databases: requests sent together share a query, each caller still gets its own
 * answer, and a change an operator made is seen by the next request at once.
 */
import { expect, it } from 'vitest';
import { confirmSupplierAccess, declaredBodyBytes } from '../../src/auth/access.js';
import {
  SHARED_CHECK_MAX_BODY,
  SHARED_CHECK_WAITING_BODIES,
  callerLookupsOf,
} from '../../src/auth/caller-lookups.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService } from '../helpers/app.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  uniqueName,
} from '../helpers/auth.js';
import { gate } from '../helpers/gate.js';
import { buildAccount } from '../account/factory.js';

const REQUESTS = 12;

await describeEachDialect('shared caller checks', (dialect) => {
  const service = useTestService(dialect);

  /** A new organisation granted `suppliers`, and a way to validate as it. */
  async function newCaller(suppliers: string[]) {
    const { id, apiKey } = await createOrganisation(service.db, uniqueName(), suppliers);
    const { token } = await obtainToken(service.app, apiKey);
    const validate = (number: string, supplier = 'DEMO', fields: Record<string, unknown> = {}) =>
      service.app.inject({
        method: 'POST',
        url: PATHS.validate,
        headers: { authorization: `Token ${token}` },
        payload: buildAccount({
          import_supplier: supplier,
          external_account_number: number,
          ...fields,
        }),
      });
    return { id, validate };
  }

  const statuses = (responses: { statusCode: number }[]) =>
    responses.map((response) => response.statusCode);

  it('answers validations sent together with fewer queries than requests', async () => {
    const caller = await newCaller(['DEMO']);
    const lookups = callerLookupsOf(service.db).suppliers;
    const before = lookups.queriesSent;
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => caller.validate(`SHARED-${i}`)),
    );
    expect(statuses(responses)).toEqual(Array(REQUESTS).fill(200));
    expect(responses.map((response) => response.json().external_account_number)).toEqual(
      Array.from({ length: REQUESTS }, (_, i) => `SHARED-${i}`),
    );
    const queries = lookups.queriesSent - before;
    expect(queries).toBeGreaterThanOrEqual(1);
    expect(queries).toBeLessThan(REQUESTS);
  });

  it('gives each caller its own answer when callers ask together', async () => {
    const granted = await newCaller(['DEMO']);
    const ungranted = await newCaller(['OTHER']);
    const responses = await Promise.all([
      granted.validate('MIXED-1'),
      ungranted.validate('MIXED-2'),
      granted.validate('MIXED-3'),
      ungranted.validate('MIXED-4'),
    ]);
    expect(statuses(responses)).toEqual([200, 400, 200, 400]);
    for (const refused of [responses[1], responses[3]]) {
      expect(refused?.json().errors).toContainEqual(
        expect.objectContaining({ code: 'import_supplier_not_found', attr: 'import_supplier' }),
      );
    }
  });

  it('refuses every request sent after the organisation was disabled', async () => {
    const caller = await newCaller(['DEMO']);
    const sendTogether = () =>
      Promise.all(Array.from({ length: REQUESTS }, (_, i) => caller.validate(`DISABLED-${i}`)));
    expect(statuses(await sendTogether())).toEqual(Array(REQUESTS).fill(200));
    await changeOrganisation(service.db, caller.id, { enabled: 0 });
    const refused = await sendTogether();
    expect(statuses(refused)).toEqual(Array(REQUESTS).fill(401));
    expect(refused[0]?.json()).toMatchObject({ code: 'invalid_token' });
  });

  it('refuses a supplier at once when its grant is revoked', async () => {
    const caller = await newCaller(['DEMO']);
    expect((await caller.validate('GRANT-1')).statusCode).toBe(200);
    await service.db.kysely
      .deleteFrom('organisation_suppliers')
      .where('organisation_id', '=', caller.id)
      .execute();
    const refused = await caller.validate('GRANT-2');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toContainEqual(
      expect.objectContaining({ code: 'import_supplier_not_found', attr: 'import_supplier' }),
    );
  });

  it('hands every request of a batch the same frozen answer', async () => {
    const caller = () => ({
      organisationId: service.organisationId,
      organisationName: 'acme',
      keyVersion: 1,
      bodyBytes: 0,
    });
    const [{ supplier: first }, { supplier: second }] = await Promise.all([
      confirmSupplierAccess(service.db, caller(), 'DEMO'),
      confirmSupplierAccess(service.db, caller(), 'DEMO'),
    ]);
    expect(first?.code).toBe('DEMO');
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('lets requests with large bodies check alone, at once', async () => {
    const caller = await newCaller(['DEMO']);
    const { suppliers, organisations } = callerLookupsOf(service.db);
    const before = suppliers.queriesSent + organisations.queriesSent;
    const large = { notes: ['x'.repeat(SHARED_CHECK_MAX_BODY)] };
    const responses = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => caller.validate(`LARGE-${i}`, 'DEMO', large)),
    );
    // Each was checked (and then refused for its over-long note), none by a shared query.
    expect(statuses(responses)).toEqual(Array(REQUESTS).fill(400));
    expect(responses[0]?.json()).toMatchObject({ code: 'account_failed_validation' });
    expect(suppliers.queriesSent + organisations.queriesSent - before).toBe(0);
  });

  it('confirms a caller alone when the answer is already written', async () => {
    const { id, apiKey } = await createOrganisation(service.db, uniqueName(), ['DEMO']);
    const { token } = await obtainToken(service.app, apiKey);
    const { organisations } = callerLookupsOf(service.db);
    const before = organisations.queriesSent;
    // Refused before any query: the check that the token is still good holds the response.
    const refuse = () =>
      service.app.inject({
        method: 'POST',
        url: PATHS.process,
        headers: { authorization: `Token ${token}` },
        payload: { unknown: 1 },
      });
    const refused = await Promise.all([refuse(), refuse(), refuse()]);
    expect(statuses(refused)).toEqual([400, 400, 400]);
    expect(organisations.queriesSent - before).toBe(0);
    await changeOrganisation(service.db, id, { enabled: 0 });
    expect((await refuse()).statusCode).toBe(401);
  });

  it('keeps the bodies waiting for shared checks within their budget', async () => {
    const lookups = callerLookupsOf(service.db);
    const held = gate();
    const ways: string[] = [];
    const ask = (bodyBytes: number | undefined) =>
      lookups.ask(
        bodyBytes,
        async () => {
          ways.push(`shared ${bodyBytes}`);
          await held.opened;
        },
        async () => {
          ways.push(`alone ${bodyBytes}`);
        },
      );
    const near = SHARED_CHECK_MAX_BODY;
    const waitingAtMost = Math.floor(SHARED_CHECK_WAITING_BODIES / near);
    const waiting = Array.from({ length: waitingAtMost }, () => ask(near));
    await Promise.all([ask(near), ask(1), ask(undefined), ask(near + 1)]);
    expect(ways).toEqual([
      ...Array(waitingAtMost).fill(`shared ${near}`),
      `alone ${near}`,
      `alone 1`,
      'alone undefined',
      `alone ${near + 1}`,
    ]);
    held.open();
    await Promise.all(waiting);
    // Once they are answered, their bytes are free again, and so after a failed check.
    ways.length = 0;
    await ask(near);
    const failing = Array.from({ length: waitingAtMost }, () =>
      lookups.ask(
        near,
        () => Promise.reject(new Error('database unavailable')),
        () => Promise.reject(new Error('asked alone')),
      ),
    );
    await Promise.allSettled(failing);
    await ask(near);
    expect(ways).toEqual([`shared ${near}`, `shared ${near}`]);
  });

  it('reads the declared body size of a request from its headers', () => {
    const size = (method: string, headers: Record<string, string>) =>
      declaredBodyBytes({ method, headers });
    expect(size('POST', { 'content-length': '3400' })).toBe(3400);
    expect(size('POST', {})).toBe(0);
    expect(size('GET', { 'content-length': '999999' })).toBe(0);
    expect(size('HEAD', {})).toBe(0);
    expect(size('POST', { 'transfer-encoding': 'chunked' })).toBeUndefined();
    for (const odd of ['abc', '-1', '1e3', '0x10', '', ' 5', '1234567890123456']) {
      expect(size('POST', { 'content-length': odd })).toBeUndefined();
    }
  });
});
