/** Bad HTTP input: every refusal is in the documented error format, never a framework default. */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService, rowCounts } from '../helpers/app.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  uniqueName,
} from '../helpers/auth.js';
import { buildAccount } from '../account/factory.js';

function expectErrorShape(body: unknown): void {
  expect(body).toMatchObject({
    detail: expect.any(String),
    code: expect.any(String),
    errors: expect.any(Array),
  });
  for (const error of (body as { errors: unknown[] }).errors) {
    expect(error).toEqual({
      detail: expect.any(String),
      code: expect.any(String),
      attr:
        error && typeof (error as { attr: unknown }).attr === 'string' ? expect.any(String) : null,
    });
  }
}

function syntaxErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as SyntaxError).message;
  }
  throw new Error(`${text} is valid JSON`);
}

await describeEachDialect('HTTP input', (dialect) => {
  const service = useTestService(dialect);

  const post = (url: string, payload: string, contentType = 'application/json') =>
    service.request({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

  it.each([PATHS.validate, PATHS.stage, PATHS.process])(
    'refuses malformed JSON on %s',
    async (url) => {
      const text = '{"customers": [';
      const response = await post(url, text);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('malformed_request');
      // The stage route parses its body later than the others, with the same message.
      expect(response.json().detail).toBe(`The body is not valid JSON: ${syntaxErrorOf(text)}.`);
      expectErrorShape(response.json());
    },
  );

  it('refuses a process body repeating dry_run, and creates nothing', async () => {
    const account = buildAccount({ external_account_number: 'REPEATED-1' });
    expect((await post(PATHS.stage, JSON.stringify(account))).statusCode).toBe(201);
    const before = await rowCounts(service.db);
    // JSON.parse keeps the last value: without the check this was a creation, not a dry run.
    const text =
      '{"external_account_number":"REPEATED-1","import_supplier_code":"DEMO",' +
      '"operations_team_name":"Migrations","dry_run":true,"dry_run" : false}';
    const response = await post(PATHS.process, text);
    expect(response.statusCode).toBe(400);
    const detail =
      'The body gives the key "dry_run" more than once in one object (at attr); a key may appear only once.';
    expect(response.json()).toEqual({
      detail,
      code: 'malformed_request',
      errors: [{ detail, code: 'malformed_request', attr: 'dry_run' }],
    });
    expect(await rowCounts(service.db)).toEqual(before);
  });

  it.each([PATHS.validate, PATHS.stage])(
    'refuses an account repeating a key on %s, and stores nothing',
    async (url) => {
      const account = JSON.stringify(buildAccount({ external_account_number: 'REPEATED-2' }));
      // The same key twice in the first customer, the second written with an escape.
      const text = account.replace('"given_name":', '"given_name":"Ann","given\\u005fname":');
      expect(text).not.toBe(account);
      const before = await rowCounts(service.db);
      const response = await post(url, text);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'malformed_request',
        errors: [{ code: 'malformed_request', attr: 'customers.0.given_name' }],
      });
      expect(await rowCounts(service.db)).toEqual(before);
    },
  );

  it.each([PATHS.validate, PATHS.stage])(
    'takes colons written as \\u003a on %s (the exact check finds no repeated key)',
    async (url) => {
      const account = buildAccount({ external_account_number: 'COLON-1' });
      const text = JSON.stringify(account).replace('"COLON-1"', '"COLON\\u003a1"');
      const response = await post(url, text);
      expect(response.statusCode).toBeLessThan(300);
      expect(response.json().external_account_number).toBe('COLON:1');
    },
  );

  it.each([PATHS.validate, PATHS.stage, PATHS.process])(
    'refuses a request without a body or content type on %s with 400',
    async (url) => {
      for (const headers of [{}, { 'content-length': '0' }]) {
        const response = await service.request({ method: 'POST', url, headers });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'malformed_request',
          detail: 'The body must be a JSON object.',
        });
      }
    },
  );

  it('refuses a request without a body with 401 when its token was revoked since', async () => {
    const { id, apiKey } = await createOrganisation(service.db, uniqueName(), ['DEMO']);
    const { token } = await obtainToken(service.app, apiKey);
    await changeOrganisation(service.db, id, { enabled: 0 });
    for (const url of [PATHS.validate, PATHS.stage, PATHS.process]) {
      const response = await service.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Token ${token}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('invalid_token');
    }
  });

  it.each(['[]', '"text"', '42', 'null', ''])('refuses the non-object body %s', async (payload) => {
    const response = await post(PATHS.stage, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('malformed_request');
  });

  it('authenticates before reading the body', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: PATHS.stage,
      payload: '{"not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('not_authenticated');
  });

  it('refuses a wrong content type with 415', async () => {
    const response = await post(PATHS.validate, JSON.stringify(buildAccount()), 'text/plain');
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
    expectErrorShape(response.json());
  });

  it.each([
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json; foo=bar',
  ])('accepts JSON sent as %s', async (contentType) => {
    const account = buildAccount();
    const response = await post(PATHS.validate, JSON.stringify(account), contentType);
    expect(response.statusCode).toBe(200);
    expect(response.json().external_account_number).toBe(account.external_account_number);
  });

  it('answers GraphQL sent as application/json; charset=utf-8', async () => {
    const body = JSON.stringify({ query: '{ ping }' });
    const response = await post('/v1/graphql/', body, 'application/json; charset=utf-8');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { ping: 'pong' } });
  });

  it.each(['application/json; charset=iso-8859-1', 'application/json; charset=utf-16'])(
    'refuses JSON declared as %s with 415 and stores nothing',
    async (contentType) => {
      const before = await rowCounts(service.db);
      const response = await post(PATHS.stage, JSON.stringify(buildAccount()), contentType);
      expect(response.statusCode).toBe(415);
      expect(response.json().code).toBe('unsupported_media_type');
      expectErrorShape(response.json());
      expect(await rowCounts(service.db)).toEqual(before);
    },
  );

  it.each([PATHS.validate, PATHS.stage, PATHS.process, '/v1/graphql/'])(
    'refuses a compressed body on %s with 415 naming its coding, and stores nothing',
    async (url) => {
      const before = await rowCounts(service.db);
      const response = await service.request({
        method: 'POST',
        url,
        payload: gzipSync(JSON.stringify(buildAccount())),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect(response.statusCode).toBe(415);
      expect(response.headers['accept-encoding']).toBe('identity');
      expect(response.json()).toMatchObject({
        code: 'unsupported_media_type',
        detail: 'The body\'s Content-Encoding "gzip" is not supported; send the JSON uncompressed.',
      });
      // The token endpoint's error items also carry GraphQL's fields (graphql-requests.test).
      if (url !== '/v1/graphql/') expectErrorShape(response.json());
      expect(await rowCounts(service.db)).toEqual(before);
    },
  );

  it.each(['identity', 'Identity', ''])(
    'reads a body whose Content-Encoding is %j as it is',
    async (coding) => {
      const account = buildAccount();
      const response = await service.request({
        method: 'POST',
        url: PATHS.validate,
        payload: JSON.stringify(account),
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().external_account_number).toBe(account.external_account_number);
    },
  );

  it.each([PATHS.validate, PATHS.stage])(
    'refuses a body that is not UTF-8 on %s with 400 and stores nothing',
    async (url) => {
      // A Latin-1 extract: "é" as the single byte 0xE9, which UTF-8 decoding would replace.
      const account = buildAccount({ external_account_number: 'ACC-\u00e9' });
      const payload = Buffer.from(JSON.stringify(account), 'latin1');
      const before = await rowCounts(service.db);
      const response = await service.request({
        method: 'POST',
        url,
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('malformed_request');
      expect(response.json().detail).toMatch(/not valid UTF-8/);
      expectErrorShape(response.json());
      expect(await rowCounts(service.db)).toEqual(before);
      // The same account in UTF-8 is fine, and keeps its "é".
      const valid = await post(url, JSON.stringify(account));
      expect(valid.json().external_account_number).toBe('ACC-\u00e9');
    },
  );

  it('refuses a body over 1 MiB with 413 and stores nothing', async () => {
    const before = await rowCounts(service.db);
    const payload = JSON.stringify({ ...buildAccount(), billing_name: 'x'.repeat(1024 * 1024) });
    const response = await post(PATHS.stage, payload);
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('request_too_large');
    expect(await rowCounts(service.db)).toEqual(before);
  });

  it('serves every path with and without the trailing slash', async () => {
    for (const url of [PATHS.validate, PATHS.validate.slice(0, -1)]) {
      const response = await service.request({ method: 'POST', url, payload: buildAccount() });
      expect(response.statusCode).toBe(200);
    }
  });

  it('answers unknown routes with 404 not_found in the error format', async () => {
    const response = await service.request({ method: 'GET', url: '/v1/data-import/nothing-here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
    expectErrorShape(response.json());
  });

  it.each([
    ['POST', '/v1/data-import/all-account-import-processes/DEMO/', 'GET, HEAD'],
    ['DELETE', '/v1/data-import/account-transfer-status/DEMO/A-1', 'GET, HEAD'],
    ['GET', PATHS.validate, 'POST'],
    ['PUT', `${PATHS.stage}?x=1`, 'POST'],
  ] as const)(
    'answers %s on %s with 405 method_not_allowed and Allow: %s',
    async (method, url, allow) => {
      const before = await rowCounts(service.db);
      const response = await service.request({
        method,
        url,
        payload: method === 'PUT' ? {} : undefined,
      });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.json().code).toBe('method_not_allowed');
      expectErrorShape(response.json());
      expect(await rowCounts(service.db)).toEqual(before);
    },
  );

  it.each([
    ['an empty body', ''],
    ['a body that is not JSON', '[1'],
  ])('answers 404 or 405 whatever a JSON body holds, %s among them', async (_name, payload) => {
    // No token either: the route is looked for first.
    const post = (url: string) =>
      service.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload,
      });
    const unknown = await post('/v1/nothing/here/');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'not_found']);
    const wrongMethod = await post('/v1/data-import/account-transfer-status/DEMO/X/');
    expect([wrongMethod.statusCode, wrongMethod.json().code]).toEqual([405, 'method_not_allowed']);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });

  it('sends X-Request-Id and never X-Powered-By', async () => {
    const response = await service.request({
      method: 'POST',
      url: PATHS.validate,
      payload: buildAccount(),
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  describe('property: arbitrary JSON bodies', () => {
    it('never produce a 5xx and always the documented error shape', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(PATHS.validate, PATHS.stage, PATHS.process),
          fc.oneof(
            fc.jsonValue(),
            fc.dictionary(fc.string(), fc.jsonValue()),
            fc.record({
              import_supplier: fc.constantFrom('DEMO', 'OTHER'),
              external_account_number: fc.string(),
              customers: fc.jsonValue(),
            }),
          ),
          async (url, body) => {
            const response = await post(url, JSON.stringify(body));
            expect(response.statusCode).toBeLessThan(500);
            if (response.statusCode >= 400) expectErrorShape(response.json());
          },
        ),
        { numRuns: 150 },
      );
    });
  });
});
