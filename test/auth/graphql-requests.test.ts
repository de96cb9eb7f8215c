/**
 * What the token endpoint does with requests that are not well-formed GraphQL requests, and
 * with documents that ask for too much: refused before anything runs, in the error format.
 */
import type { FastifyInstance } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { FIXED_TEST_PLATFORM } from '../helpers/platform.js';

const URL = '/v1/graphql/';

let db: Db;
let app: FastifyInstance;
let production: FastifyInstance;

async function appFor(env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', TOKEN_RATE_LIMIT: '1000', ...env });
  return buildApp({
    config,
    db,
    tokenSecret: new Uint8Array(32),
    platform: FIXED_TEST_PLATFORM,
  });
}

beforeAll(async () => {
  db = connect('sqlite::memory:');
  app = await appFor({});
  production = await appFor({ NODE_ENV: 'production' });
});

afterAll(async () => {
  await app.close();
  await production.close();
  await db.close();
});

interface FailureBody {
  detail: string;
  code: string;
  errors: {
    detail: string;
    code: string;
    attr: null;
    message: string;
    extensions: { code: string };
  }[];
}

/** The response's body, checked to be in the error format with GraphQL's item fields too. */
function failure(
  response: { statusCode: number; json: () => unknown },
  status: number,
  code: string,
) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as FailureBody;
  expect(body.code).toBe(code);
  expect(body.detail).toEqual(expect.any(String));
  expect(body.errors.length).toBeGreaterThan(0);
  for (const item of body.errors) {
    expect(item).toMatchObject({ detail: item.message, attr: null, code: item.extensions.code });
  }
  return body;
}

const post = (target: FastifyInstance, payload: unknown, contentType = 'application/json') =>
  target.inject({
    method: 'POST',
    url: URL,
    headers: { 'content-type': contentType },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

describe('a body that is not one GraphQL request', () => {
  it.each([
    ['a query that is not a string', { query: 5 }, /"query" must be a string/],
    ['a query that is an object', { query: { a: 1 } }, /"query" must be a string/],
    ['no query', { variables: {} }, /"query" must be a string/],
    ['null', null, /JSON object/],
    ['a batch', [{ query: '{ ping }' }, { query: '{ ping }' }], /batches are not supported/],
    ['variables that are not an object', { query: '{ ping }', variables: 5 }, /"variables"/],
    ['variables that are a list', { query: '{ ping }', variables: ['x'] }, /"variables"/],
    [
      'an operation name that is not a string',
      { query: '{ ping }', operationName: 5 },
      /"operationName"/,
    ],
    ['a repeated key', '{"query":"{ ping }","query":"{ pong }"}', /key "query" more than once/],
  ])('refuses %s with 400 malformed_request', async (_case, payload, detail) => {
    const body = failure(await post(app, payload), 400, 'malformed_request');
    expect(body.detail).toMatch(detail);
  });

  it.each([
    ['a repeated query', '?query={ping}&query={ping}', /"query" once/],
    ['no query', '?operationName=x', /as "query"/],
    ['variables that are not a JSON object', '?query={ping}&variables=5', /"variables"/],
    ['variables that are not JSON', '?query={ping}&variables={', /"variables"/],
    [
      'variables repeating a key',
      `?query={ping}&variables=${encodeURIComponent('{"k":"a","k":"b"}')}`,
      /each key given once/,
    ],
  ])('refuses a GET with %s with 400 malformed_request', async (_case, search, detail) => {
    const response = await app.inject({ method: 'GET', url: `${URL}${search}` });
    expect(failure(response, 400, 'malformed_request').detail).toMatch(detail);
  });

  it.each([
    [
      'two operations and no operationName',
      '?query=query%20A%7Bping%7D%20query%20B%7Bping%7D',
      /several operations/,
    ],
    [
      'an operationName it does not have',
      '?query=query%20Q%7Bping%7D&operationName=Nope',
      /named "Nope"/,
    ],
    ['fragments only', '?query=fragment%20F%20on%20Query%7Bping%7D', /no operation\./],
  ])('refuses a GET with %s with 400 invalid_graphql_request', async (_case, search, detail) => {
    const response = await app.inject({ method: 'GET', url: `${URL}${search}` });
    expect(failure(response, 400, 'invalid_graphql_request').detail).toMatch(detail);
  });

  it('refuses HEAD, which would run a mutation answering nobody, with 405', async () => {
    const mutation = encodeURIComponent('mutation { obtainToken(input: {apiKey: "x"}) { token } }');
    for (const query of [mutation, encodeURIComponent('{ ping }')]) {
      const response = await app.inject({ method: 'HEAD', url: `${URL}?query=${query}` });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, POST');
    }
  });

  it('answers HTTP refusals in the error format: media type, size, method', async () => {
    failure(await post(app, '{ping}', 'text/plain'), 415, 'unsupported_media_type');
    const big = { query: `{ ping } # ${'x'.repeat(1024 * 1024)}` };
    failure(await post(app, big), 413, 'request_too_large');
    const mutation = encodeURIComponent('mutation { obtainToken(input: {apiKey: "x"}) { token } }');
    const overGet = await app.inject({ method: 'GET', url: `${URL}?query=${mutation}` });
    failure(overGet, 405, 'method_not_allowed');
  });

  it('still answers a well-formed request, over POST and GET', async () => {
    const variables = { name: 'Ping' };
    const query = 'query Ping { ping }';
    expect((await post(app, { query, variables, operationName: 'Ping' })).json()).toEqual({
      data: { ping: 'pong' },
    });
    expect((await post(app, { query, variables: null, operationName: null })).json()).toEqual({
      data: { ping: 'pong' },
    });
    for (const variables of ['{}', 'null', '']) {
      const search = `?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(variables)}`;
      expect((await app.inject({ method: 'GET', url: `${URL}${search}` })).json()).toEqual({
        data: { ping: 'pong' },
      });
    }
    const graphqlBody = await post(app, '{ ping }', 'application/graphql');
    expect(graphqlBody.json()).toEqual({ data: { ping: 'pong' } });
  });
});

describe('a GraphQL request refused before anything runs', () => {
  it.each([
    ['a syntax error', { query: 'mutation {' }, /Syntax Error/],
    ['an unknown field', { query: '{ nope }' }, /Cannot query field "nope"/],
    [
      'a required variable left out',
      { query: 'mutation ($k: String!) { obtainToken(input: {apiKey: $k}) { token } }' },
      /"\$k"/,
    ],
    ['an unknown operation name', { query: 'query A { ping }', operationName: 'B' }, /"B"/],
  ])('answers %s with 400 invalid_graphql_request', async (_case, payload, message) => {
    const body = failure(await post(app, payload), 400, 'invalid_graphql_request');
    expect(body.errors[0]?.message).toMatch(message);
    expect(body).toHaveProperty('data', null);
  });
});

describe('how much a document may ask for', () => {
  it('answers the introspection query GraphiQL sends, outside production', async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const response = await post(app, { query });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.__schema.mutationType).toMatchObject({ name: 'Mutation' });
  });

  it('refuses a document longer than 16 KiB before parsing it', async () => {
    const query = `{ ${Array.from({ length: 5_000 }, (_, i) => `a${i}: ping`).join(' ')} }`;
    const body = failure(await post(app, { query }), 400, 'invalid_graphql_request');
    expect(body.detail).toMatch(/longer than 16384 characters/);
    const overGet = await app.inject({
      method: 'GET',
      url: `${URL}?query=${encodeURIComponent(query)}`,
    });
    failure(overGet, 400, 'invalid_graphql_request');
  });

  it('refuses a hundred aliases of a nested introspection, which multiply the work', async () => {
    const aliases = Array.from(
      { length: 100 },
      (_, i) => `a${i}: __schema { types { fields { type { fields { name } } } } }`,
    );
    const query = `{ ${aliases.join(' ')} }`;
    expect(query.length).toBeLessThan(16 * 1024);
    const body = failure(await post(app, { query }), 400, 'invalid_graphql_request');
    expect(body.errors[0]).toMatchObject({ code: 'invalid_input', message: /too much/ });
    // A few of them are answered.
    const few = await post(app, { query: `{ ${aliases.slice(0, 5).join(' ')} }` });
    expect(few.statusCode).toBe(200);
  });

  it('refuses nested lists whose work multiplies, however few their fields', async () => {
    let selection = '{ name }';
    for (let level = 0; level < 6; level++) selection = `{ fields { type ${selection} } }`;
    const query = `{ __schema { types ${selection} } }`;
    expect(query.length).toBeLessThan(200);
    failure(await post(app, { query }), 400, 'invalid_graphql_request');
  });

  it('counts a fragment wherever it is spread', async () => {
    const spreads = Array.from({ length: 400 }, (_, i) => `a${i}: __schema { ...S }`).join(' ');
    const query = `{ ${spreads} } fragment S on __Schema { types { fields { name type { name } } } }`;
    failure(await post(app, { query }), 400, 'invalid_graphql_request');
  });

  it('accepts a hundred aliases of a cheap field', async () => {
    const query = `{ ${Array.from({ length: 100 }, (_, i) => `p${i}: ping`).join(' ')} }`;
    const response = await post(app, { query });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().data)).toHaveLength(100);
  });

  it.each([
    ['braces', (n: number) => `${'{a'.repeat(n)}${'}'.repeat(n)}`],
    ['list values', (n: number) => `{ ping(x: ${'['.repeat(n)}1${']'.repeat(n)}) }`],
    ['object values', (n: number) => `{ ping(x: ${'{a:'.repeat(n)}1${'}'.repeat(n)}) }`],
  ])('refuses %s nested past 64 levels before parsing, with its own message', async (_c, doc) => {
    for (const depth of [65, 4_000]) {
      const body = failure(
        await post(production, { query: doc(depth) }),
        400,
        'invalid_graphql_request',
      );
      expect(body.detail).toBe(
        'The GraphQL document nests deeper than 64 levels of braces, brackets and parentheses.',
      );
      expect(JSON.stringify(body)).not.toMatch(/call stack|RangeError/);
    }
    // Within the limit the parser has it, and answers as for any document it refuses.
    const atLimit = failure(
      await post(production, { query: doc(60) }),
      400,
      'invalid_graphql_request',
    );
    expect(atLimit.detail).not.toMatch(/nests deeper/);
  });

  it('does not count braces in strings, block strings and comments', async () => {
    const braces = '{'.repeat(100);
    const query = `# ${braces}\nmutation { obtainToken(input: { apiKey: "${braces}\\"" refreshToken: """${braces}\\""" """ }) { token } }`;
    // Past the depth check: refused by the resolver, which needs exactly one credential.
    const response = await post(production, { query });
    expect(response.statusCode).toBe(200);
    expect(response.json().errors[0].extensions.code).toBe('invalid_input');
  });

  it('suggests no names in production, as it does elsewhere', async () => {
    const query = '{ pin }';
    const inProduction = failure(await post(production, { query }), 400, 'invalid_graphql_request');
    expect(JSON.stringify(inProduction)).not.toMatch(/Did you mean/);
    const elsewhere = failure(await post(app, { query }), 400, 'invalid_graphql_request');
    expect(elsewhere.errors[0]?.message).toMatch(/Did you mean "ping"/);
    const variables = { k: { apiKy: 'x' } };
    const typo = 'mutation ($k: ObtainTokenInput!) { obtainToken(input: $k) { token } }';
    const coerced = await post(production, { query: typo, variables });
    expect(coerced.statusCode).toBe(400);
    expect(coerced.body).not.toMatch(/Did you mean/);
  });

  it('keeps introspection closed in production', async () => {
    const body = failure(
      await post(production, { query: '{ __schema { types { name } } }' }),
      400,
      'invalid_graphql_request',
    );
    expect(body.errors[0]?.message).toMatch(/introspection/i);
    const ping = await post(production, { query: '{ ping __typename }' });
    expect(ping.json()).toEqual({ data: { ping: 'pong', __typename: 'Query' } });
  });
});
