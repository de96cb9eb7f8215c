/**
 * Promise 4: hostile input. Property-based fuzzing (fast-check) of every endpoint's body, path
 * and query, plus the worst bodies that fit in 1 MiB: never a 5xx, always the error format,
 * never internals, every answer within 2 s, no prototype polluted. Document paths built to
 * climb out of the supplier's root are refused as invalid_document_path at their attr.
 * (test/imports/http.test.ts has the first property over JSON bodies; this one goes wider.)
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService } from '../helpers/app.js';
import { buildAccount, buildStatement } from '../account/factory.js';
import { isErrorShape } from './harness/client.js';
import { internalsIn } from './harness/internals.js';
import { MIB, WORST_BODIES, accountWith, nested, wrongEverywhere } from './harness/bodies.js';

const MAX_MS = 2_000;
const POST_PATHS = [PATHS.validate, PATHS.stage, PATHS.process] as const;
const DANGEROUS_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

/** Checks the promises every answer to hostile input keeps; `input` is what was sent. */
function expectComposure(response: LightMyRequestResponse, ms: number, input: string): void {
  const context = `${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeLessThan(500);
  expect(ms, context).toBeLessThan(MAX_MS);
  expect(response.headers['x-powered-by']).toBeUndefined();
  if (response.statusCode >= 400) {
    expect(isErrorShape(response.json()), context).toBe(true);
    // Input echoed in a detail is the caller's own; only what the caller did not send counts.
    if (internalsIn(input) === undefined)
      expect(internalsIn(response.body), context).toBeUndefined();
  }
}

/** A valid account where one field, chosen by path, is replaced with arbitrary JSON. */
const mutatedAccount = fc
  .tuple(
    fc.constantFrom(
      'customers',
      'billing_address',
      'supply_addresses',
      'statements',
      'notes',
      'metadata',
      'external_account_number',
      'import_supplier',
      'account_type',
      'transfer_balance',
    ),
    fc.jsonValue({ maxDepth: 4 }),
  )
  .map(([field, value]) => buildAccount({ [field]: value }));

/** Objects whose keys are the ones that pollute prototypes when merged carelessly. */
const dangerousObject = fc
  .tuple(fc.constantFrom(...DANGEROUS_KEYS), fc.jsonValue({ maxDepth: 2 }))
  .map(([key, value]) => `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`);

const dangerousBody = fc.oneof(
  dangerousObject,
  dangerousObject.map((inner) => accountWith('billing_address', inner)),
  dangerousObject.map((inner) => accountWith('customers', `[${inner}]`)),
  dangerousObject.map((inner) => accountWith('metadata', `[{"key":"k","value":${inner}}]`)),
);

const jsonBody = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
  mutatedAccount.map((value) => JSON.stringify(value)),
  fc
    .record({
      external_account_number: fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.jsonValue()),
      import_supplier_code: fc.oneof(
        fc.constantFrom('DEMO', 'OTHER', ' DEMO ', 'demo'),
        fc.jsonValue(),
      ),
      operations_team_name: fc.oneof(fc.string(), fc.jsonValue()),
      dry_run: fc.jsonValue(),
    })
    .map((value) => JSON.stringify(value)),
  dangerousBody,
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/problem+json',
  'text/plain',
  'text/json',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  '',
);

/** A path segment: printable, encoded arbitrary text, raw percent-escapes, traversal attempts. */
const pathSegment = fc.oneof(
  fc.constantFrom('DEMO', 'OTHER', 'X-1', 'A-1000001'),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
  fc
    .array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 12 })
    .map((bytes) => bytes.map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E%2F',
    '..%2F..%2F',
    '%00',
    '%5C..%5C',
    'x'.repeat(300),
    '%C0%AF',
  ),
);

const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('limit', 'after', '__proto__', 'constructor', 'limit[]'),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(
        fc.constantFrom('0', '1', '1000', '1001', '-1', '1e3', '0x10', '9'.repeat(30), ''),
        fc.string({ maxLength: 30 }),
        fc.base64String({ maxLength: 60 }),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'),
  );

await describeEachDialect('hostile input', (dialect) => {
  const service = useTestService(dialect);

  async function post(url: string, payload: string | Buffer, type = 'application/json') {
    const started = performance.now();
    const response = await service.request({
      method: 'POST',
      url,
      payload,
      headers: type === '' ? {} : { 'content-type': type },
    });
    return { response, ms: performance.now() - started };
  }

  async function get(url: string) {
    const started = performance.now();
    const response = await service.request({ method: 'GET', url });
    return { response, ms: performance.now() - started };
  }

  it('property: any JSON body, under any content type, on every POST endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_PATHS),
        jsonBody,
        contentType,
        async (url, body, type) => {
          const { response, ms } = await post(url, body, type);
          expectComposure(response, ms, body);
          if (!/json/.test(type) || /utf-16|text\/json/.test(type))
            expect(response.statusCode).toBe(415);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: arbitrary bytes, invalid UTF-8 included, as a JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_PATHS),
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 200 }),
          fc
            .tuple(
              fc.uint8Array({ minLength: 1, maxLength: 8 }),
              fc.constantFrom('customers', 'billing_name'),
            )
            .map(([bytes, field]) => {
              const [head, tail] = accountWith(field, '"@@"').split('@@');
              return new Uint8Array(
                Buffer.concat([
                  Buffer.from(head ?? ''),
                  Buffer.from(bytes),
                  Buffer.from(tail ?? ''),
                ]),
              );
            }),
        ),
        async (url, bytes) => {
          const payload = Buffer.from(bytes);
          const { response, ms } = await post(url, payload);
          expectComposure(response, ms, payload.toString('latin1'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: arbitrary path segments and query strings on every GET endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('status', 'all', 'pending', 'imported'),
        pathSegment,
        pathSegment,
        queryString,
        async (route, first, second, query) => {
          const path =
            route === 'status'
              ? `/v1/data-import/account-transfer-status/${first}/${second}/`
              : `/v1/data-import/${route}-account-import-processes/${first}/`;
          const url = query ? `${path}?${query}` : path;
          const { response, ms } = await get(url);
          expectComposure(response, ms, decodeURIComponentSafe(url));
          expect([200, 400, 404]).toContain(response.statusCode);
        },
      ),
      { numRuns: 300 },
    );
  });

  describe('the worst bodies that fit in 1 MiB', () => {
    const PATH_OF = { validate: PATHS.validate, stage: PATHS.stage, process: PATHS.process };
    for (const [name, kind, make] of WORST_BODIES) {
      it(`${name}: answered within ${MAX_MS} ms, never a 5xx`, async () => {
        const body = make();
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MIB);
        const { response, ms } = await post(PATH_OF[kind], body);
        expectComposure(response, ms, body);
      });
    }

    it('an account of 1 MiB wrong everywhere: 400 within 1 s, 1,000 errors at most, memory bounded', async () => {
      const body = wrongEverywhere();
      expect(Buffer.byteLength(body)).toBeGreaterThan(MIB - 64 * 1024);
      for (const path of [PATHS.validate, PATHS.stage]) {
        const heapBefore = process.memoryUsage().heapUsed;
        const { response, ms } = await post(path, body);
        const grown = process.memoryUsage().heapUsed - heapBefore;
        expectComposure(response, ms, body);
        expect(ms).toBeLessThan(1_000);
        expect(response.statusCode).toBe(400);
        const { errors } = response.json() as { errors: { code: string }[] };
        expect(errors).toHaveLength(1_000);
        expect(errors.at(-1)?.code).toBe('too_many_errors');
        // The answer is bounded by the error cap, not by the body: well under 1 MiB.
        expect(Buffer.byteLength(response.body)).toBeLessThan(MIB / 4);
        // Reading, checking and answering a 1 MiB body holds a few times its size, not more.
        expect(grown).toBeLessThan(64 * MIB);
      }
    });

    it('just over 1 MiB: 413 request_too_large, whatever the content', async () => {
      for (const body of [
        accountWith('billing_name', JSON.stringify('x'.repeat(MIB))),
        nested(MIB / 2 + 1),
        'x'.repeat(MIB + 1),
      ]) {
        expect(Buffer.byteLength(body)).toBeGreaterThan(MIB);
        const { response, ms } = await post(PATHS.stage, body);
        expectComposure(response, ms, body);
        expect(response.statusCode).toBe(413);
        expect(response.json().code).toBe('request_too_large');
      }
    });
  });

  it('refuses __proto__ and constructor keys as unknown fields at their path, polluting nothing', async () => {
    const body = accountWith(
      'customers',
      '[{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}]',
    );
    const { response } = await post(PATHS.validate, body);
    expect(response.statusCode).toBe(400);
    const attrs = (response.json().errors as { code: string; attr: string }[])
      .filter((e) => e.code === 'unknown_field')
      .map((e) => e.attr);
    expect(attrs).toEqual(
      expect.arrayContaining(['customers.0.__proto__', 'customers.0.constructor']),
    );
    // A free-form metadata value may hold such keys: it is stored as data, nothing more.
    const metadata = accountWith(
      'metadata',
      '[{"key":"k","value":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}]',
    ).replace('"A-1000001"', '"PROTO-1"');
    expect((await post(PATHS.stage, metadata)).response.statusCode).toBe(201);
    const stored = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'PROTO-1') });
    expect(stored.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });

  it('refuses U+0000 in the URL with 400 malformed_request, and reports it in a body among the field errors', async () => {
    for (const url of [
      '/v1/data-import/account-transfer-status/DE%00MO/X-1/',
      '/v1/data-import/account-transfer-status/DEMO/X%00/',
      '/v1/data-import/pending-account-import-processes/%00/',
      '/v1/data-import/all-account-import-processes/DEMO/?limit=1%00',
    ]) {
      const { response, ms } = await get(url);
      expectComposure(response, ms, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: 'malformed_request' });
    }
    const cursor = Buffer.from(JSON.stringify([1, 'A\u0000'])).toString('base64url');
    // A forged cursor holding it is refused on both dialects (never a 500 on PostgreSQL).
    const forged = await get(`/v1/data-import/all-account-import-processes/DEMO/?after=${cursor}`);
    expectComposure(forged.response, forged.ms, '');
    expect(forged.response.statusCode).toBe(400);
    expect(forged.response.json()).toMatchObject({
      errors: [{ code: 'invalid_cursor', attr: 'after' }],
    });
    for (const [url, body, attr, code] of [
      [
        PATHS.stage,
        buildAccount({ billing_name: 'Ada\u0000' }),
        'billing_name',
        'invalid_character',
      ],
      // A code holding it names no supplier (on PostgreSQL it could not even be compared).
      [
        PATHS.stage,
        buildAccount({ import_supplier: 'DE\u0000MO' }),
        'import_supplier',
        'import_supplier_not_found',
      ],
      [
        PATHS.validate,
        buildAccount({ customers: [{ given_name: '\u0000' }] }),
        'customers.0.given_name',
        'invalid_character',
      ],
      [
        PATHS.process,
        {
          external_account_number: 'X-1',
          import_supplier_code: 'DEMO',
          operations_team_name: 'M\u0000',
        },
        'operations_team_name',
        'invalid_character',
      ],
    ] as const) {
      const { response, ms } = await post(url, JSON.stringify(body));
      expectComposure(response, ms, '');
      expect(response.statusCode, attr).toBe(400);
      expect(response.json().code).toBe('account_failed_validation');
      expect(response.json().errors).toContainEqual({ detail: expect.any(String), code, attr });
    }
  });

  describe('document paths built to climb out of the supplier root', () => {
    const safe = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const hostileSegment = fc.constantFrom(
      '..',
      '.',
      '',
      '..\\..',
      'a\\b',
      '\\',
      'a\u0000b',
      '\u0000',
      'x\u0007y',
      '\u007f',
      '\u0085',
      'x?y=1',
      'x#frag',
      '..\u0000',
    );
    const traversal = fc.oneof(
      fc
        .tuple(
          fc.array(safe, { maxLength: 3 }),
          hostileSegment,
          fc.array(safe, { maxLength: 2 }),
          safe,
        )
        .map(
          ([before, bad, after, file]) => `/${[...before, bad, ...after, `${file}.pdf`].join('/')}`,
        ),
      fc
        .tuple(
          fc.constantFrom('s3:', 'http:', 'https:', 'file:', 'javascript:', 'HTTPS:', 'a+b.c-d:'),
          safe,
        )
        .chain(([scheme, rest]) =>
          fc.constantFrom(
            `/${scheme}//${rest}/x.pdf`,
            `${scheme}//${rest}/x.pdf`,
            `/${scheme}${rest}.pdf`,
          ),
        ),
      // A path without its leading slash is a published form, given one (not hostile).
      safe.map((name) => `//${name}/x.pdf`),
      safe.map((name) => `/${name}/`),
    );

    it('property: refused as invalid_document_path at statements.N.statement_path and notes.N.…', async () => {
      await fc.assert(
        fc.asyncProperty(traversal, fc.boolean(), async (path, inNote) => {
          const account = inNote
            ? buildAccount({
                notes: [
                  { body: 'n' },
                  { document_paths: [{ document_path: '/ok/a.pdf' }, { document_path: path }] },
                ],
              })
            : buildAccount({
                statements: [buildStatement(1), buildStatement(2, { statement_path: path })],
              });
          const { response, ms } = await post(PATHS.validate, JSON.stringify(account));
          expectComposure(response, ms, path);
          expect(response.statusCode, JSON.stringify(path)).toBe(400);
          const attr = inNote
            ? 'notes.1.document_paths.1.document_path'
            : 'statements.1.statement_path';
          // A path holding U+0000 is refused by the path rule (a control character) at the attr
          // where it is, and not a second time as an invalid character.
          const errors = response.json().errors as { attr: string; code: string }[];
          expect(errors).toContainEqual({
            detail: expect.any(String),
            code: 'invalid_document_path',
            attr,
          });
          expect(errors.filter((error) => error.attr === attr)).toHaveLength(1);
        }),
        { numRuns: 300 },
      );
    });
  });
});

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
