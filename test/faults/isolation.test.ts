/**
 * Promise 6: isolation between organisations. For every route and every supplier path or body
 * field, another organisation's supplier is answered exactly like one that does not exist (404
 * import_supplier_not_found on paths, the field error on bodies), never with its data; another
 * organisation's accounts are invisible. No response carries internals.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { createOrganisation, obtainToken } from '../helpers/auth.js';
import { PATHS, createTestService, rowCounts, type TestService } from '../helpers/app.js';
import { buildAccount } from '../account/factory.js';
import { internalsIn } from './harness/internals.js';

/** Suppliers the caller (acme, granted DEMO) may not use, and what each one is. */
const FOREIGN = [
  ['OTHER', "another organisation's supplier"],
  ['ORPHAN', 'a supplier granted to nobody'],
  ['NOPE', 'a supplier that does not exist'],
  ['other', "another organisation's, in lower case"],
  [' OTHER ', "another organisation's, padded"],
] as const;

type Check = { code: string; status: number; attr?: string };

/** Every supplier-bearing input of every route: how to send it, and the refusal expected. */
const ROUTES: [
  string,
  (supplier: string) => { method: 'GET' | 'POST'; url: string; payload?: unknown },
  Check,
][] = [
  [
    'validate import_supplier',
    (s) => ({
      method: 'POST',
      url: PATHS.validate,
      payload: buildAccount({ import_supplier: s, external_account_number: 'RIVAL-1' }),
    }),
    { status: 400, code: 'account_failed_validation', attr: 'import_supplier' },
  ],
  [
    'stage import_supplier',
    (s) => ({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ import_supplier: s, external_account_number: 'RIVAL-1' }),
    }),
    { status: 400, code: 'account_failed_validation', attr: 'import_supplier' },
  ],
  [
    'process import_supplier_code',
    (s) => ({
      method: 'POST',
      url: PATHS.process,
      payload: {
        import_supplier_code: s,
        external_account_number: 'RIVAL-1',
        operations_team_name: 'Migrations',
      },
    }),
    { status: 400, code: 'account_failed_validation', attr: 'import_supplier_code' },
  ],
  [
    'dry-run process import_supplier_code',
    (s) => ({
      method: 'POST',
      url: PATHS.process,
      payload: {
        import_supplier_code: s,
        external_account_number: 'RIVAL-2',
        operations_team_name: 'Migrations',
        dry_run: true,
      },
    }),
    { status: 400, code: 'account_failed_validation', attr: 'import_supplier_code' },
  ],
  [
    'status path',
    (s) => ({ method: 'GET', url: PATHS.status(s, 'RIVAL-1') }),
    { status: 404, code: 'import_supplier_not_found' },
  ],
  [
    'status path (imported account)',
    (s) => ({ method: 'GET', url: PATHS.status(s, 'RIVAL-2') }),
    { status: 404, code: 'import_supplier_not_found' },
  ],
  [
    'all list path',
    (s) => ({ method: 'GET', url: PATHS.all(encodeURIComponent(s)) }),
    { status: 404, code: 'import_supplier_not_found' },
  ],
  [
    'pending list path',
    (s) => ({ method: 'GET', url: PATHS.pending(encodeURIComponent(s)) }),
    { status: 404, code: 'import_supplier_not_found' },
  ],
  [
    'imported list path',
    (s) => ({ method: 'GET', url: PATHS.imported(encodeURIComponent(s)) }),
    { status: 404, code: 'import_supplier_not_found' },
  ],
  [
    'paged list path',
    (s) => ({ method: 'GET', url: `${PATHS.all(encodeURIComponent(s))}?limit=1` }),
    { status: 404, code: 'import_supplier_not_found' },
  ],
];

await describeEachDialect('isolation between organisations', (dialect) => {
  let service: TestService;
  let rivalToken: string;
  let rivalNumber: string;
  const seen: LightMyRequestResponse[] = [];

  const asAcme = async (request: { method: 'GET' | 'POST'; url: string; payload?: unknown }) => {
    const response = await service.request({ ...request, payload: request.payload as object });
    seen.push(response);
    return response;
  };
  const asRival = async (request: { method: 'GET' | 'POST'; url: string; payload?: unknown }) => {
    const response = await service.app.inject({
      ...request,
      payload: request.payload as object,
      headers: { authorization: `Token ${rivalToken}` },
    });
    seen.push(response);
    return response;
  };

  beforeAll(async () => {
    service = await createTestService(dialect);
    // createTestService made OTHER for organisation other-org; rival is granted it too.
    const rival = await createOrganisation(service.db, 'rival', ['OTHER']);
    rivalToken = (await obtainToken(service.app, rival.apiKey)).token;
    await service.db.kysely
      .insertInto('import_suppliers')
      .values({
        code: 'ORPHAN',
        status: 'Ongoing',
        document_root: '',
        customer_emails: 0,
        phone_region: 'GB',
        created_at: Date.now(),
      })
      .execute();
    for (const external of ['RIVAL-1', 'RIVAL-2', 'SHARED-1']) {
      const staged = await asRival({
        method: 'POST',
        url: PATHS.stage,
        payload: buildAccount({ import_supplier: 'OTHER', external_account_number: external }),
      });
      expect(staged.statusCode).toBe(201);
    }
    const processed = await asRival({
      method: 'POST',
      url: PATHS.process,
      payload: {
        import_supplier_code: 'OTHER',
        external_account_number: 'RIVAL-2',
        operations_team_name: 'Migrations',
      },
    });
    expect(processed.statusCode).toBe(201);
    rivalNumber = processed.json().service_account_number;
  });
  afterAll(() => service.destroy());

  for (const [route, request, expected] of ROUTES) {
    describe(route, () => {
      it.each(FOREIGN.map(([code, what]) => [what, code]))(
        '%s: refused like a missing one',
        async (_what, supplier) => {
          const before = await rowCounts(service.db);
          const response = await asAcme(request(supplier));
          expect(response.statusCode).toBe(expected.status);
          const body = response.json();
          expect(body.code).toBe(expected.code);
          if (expected.attr) {
            expect(body.errors).toContainEqual({
              detail: expect.any(String),
              code: 'import_supplier_not_found',
              attr: expected.attr,
            });
          }
          // Nothing of the rival's account leaks, and nothing was written.
          expect(response.body).not.toContain(rivalNumber);
          expect(response.body).not.toMatch(/RIVAL-\d","service_account_number|UNKNOWN|COMPLETED/);
          expect(await rowCounts(service.db)).toEqual(before);
          // The same answer as for a supplier that does not exist, but for the code echoed.
          const missing = await asAcme(request('NOPE'));
          const normalise = (text: string) =>
            text
              .replaceAll(supplier.trim(), 'X')
              .replaceAll('NOPE', 'X')
              .replace(/\s*X\s*/g, ' X ');
          expect(normalise(response.body)).toBe(normalise(missing.body));
        },
      );
    });
  }

  it("does not show another organisation's accounts in its own supplier's status or lists", async () => {
    for (const external of ['RIVAL-1', 'RIVAL-2']) {
      const status = await asAcme({ method: 'GET', url: PATHS.status('DEMO', external) });
      expect(status.statusCode).toBe(404);
      expect(status.json().code).toBe('import_process_does_not_exist');
    }
    const process = await asAcme({
      method: 'POST',
      url: PATHS.process,
      payload: {
        import_supplier_code: 'DEMO',
        external_account_number: 'RIVAL-2',
        operations_team_name: 'Migrations',
      },
    });
    expect(process.json().code).toBe('import_process_does_not_exist');
    expect(process.body).not.toContain(rivalNumber);
    for (const url of [
      PATHS.all('DEMO'),
      PATHS.pending('DEMO'),
      PATHS.imported('DEMO'),
      `${PATHS.all('DEMO')}?limit=1000`,
    ]) {
      const list = await asAcme({ method: 'GET', url });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain('RIVAL-');
      expect(list.body).not.toContain(rivalNumber);
    }
  });

  it('keeps the same external number of two organisations apart', async () => {
    expect(
      (
        await asAcme({
          method: 'POST',
          url: PATHS.stage,
          payload: buildAccount({ external_account_number: 'SHARED-1' }),
        })
      ).statusCode,
    ).toBe(201);
    // Staging the rival's imported number under DEMO is a new account, not "already imported as …".
    const restaged = await asAcme({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ external_account_number: 'RIVAL-2' }),
    });
    expect(restaged.statusCode).toBe(201);
    const created = await asAcme({
      method: 'POST',
      url: PATHS.process,
      payload: {
        import_supplier_code: 'DEMO',
        external_account_number: 'SHARED-1',
        operations_team_name: 'Migrations',
      },
    });
    expect(created.statusCode).toBe(201);
    const theirs = await asRival({ method: 'GET', url: PATHS.status('OTHER', 'SHARED-1') });
    expect(theirs.json()).toEqual({
      import_supplier: 'OTHER',
      external_account_number: 'SHARED-1',
      status: 'UNKNOWN',
      service_account_number: '',
    });
    const ours = await asAcme({ method: 'GET', url: PATHS.status('DEMO', 'SHARED-1') });
    expect(ours.json()).toMatchObject({
      status: 'COMPLETED',
      service_account_number: created.json().service_account_number,
    });
    const theirList = await asRival({ method: 'GET', url: PATHS.imported('OTHER') });
    expect(theirList.body).not.toContain(created.json().service_account_number);
  });

  it('never answers with internals: no stack, no SQL, no x-powered-by', () => {
    expect(seen.length).toBeGreaterThan(ROUTES.length * FOREIGN.length);
    for (const response of seen) {
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers.server).toBeUndefined();
      expect(internalsIn(response.body), response.body.slice(0, 200)).toBeUndefined();
    }
  });
});
