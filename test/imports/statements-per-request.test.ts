/**
 * How many SQL statements each data-import request sends, alone (no concurrent request to
 * share a caller check with), measured at the drivers. The caller check rides on each route's
 * first query, so checking it adds no statement of its own; these figures must not grow.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, createTestService, type TestService } from '../helpers/app.js';
import { statementsSentBy } from '../helpers/statements.js';
import { buildAccount } from '../account/factory.js';

/**
 * The most statements each request may send, on SQLite and PostgreSQL. A payload claiming
 * values an account holds alone (account or CAIS references) costs one statement more to
 * validate or stage (their look-up), and its creation none on PostgreSQL (its write inserts
 * them too). On SQLite a stage and a creation also send their event's insert (src/events/); on
 * PostgreSQL it is part of their one statement.
 */
const LIMITS = {
  validate: { sqlite: 1, postgres: 1 },
  'stage a new account': { sqlite: 9, postgres: 1 },
  're-stage it': { sqlite: 9, postgres: 1 },
  process: { sqlite: 23, postgres: 3 },
  'validate, claiming a reference': { sqlite: 2, postgres: 2 },
  'stage, claiming a reference': { sqlite: 10, postgres: 2 },
  'process, claiming a reference': { sqlite: 24, postgres: 3 },
  status: { sqlite: 1, postgres: 1 },
  'whole list': { sqlite: 2, postgres: 2 },
  'a page with items': { sqlite: 1, postgres: 1 },
  'an empty page': { sqlite: 2, postgres: 2 },
  'validate, broken JSON': { sqlite: 1, postgres: 1 },
  'stage, not an object': { sqlite: 1, postgres: 1 },
  'process, fields missing': { sqlite: 1, postgres: 1 },
  'page, bad limit': { sqlite: 1, postgres: 1 },
} as const;

type Case = keyof typeof LIMITS;

await describeEachDialect('statements per request', (dialect) => {
  let service: TestService;
  let number = 0;
  beforeAll(async () => {
    service = await createTestService(dialect);
  });
  afterAll(() => service.destroy());

  /** An account that claims no value within its import supplier (no references). */
  const account = (external = 'A-1000001') =>
    buildAccount({ external_account_number: external, references: undefined });
  const stage = (external: string, payload = account(external)) =>
    service.request({ method: 'POST', url: PATHS.stage, payload });
  const newAccount = () => `S-${++number}`;

  /** The statements the request of `options()` sends once warm (sent twice before). */
  async function measure(
    name: Case,
    status: number,
    options: () => InjectOptions | Promise<InjectOptions>,
  ): Promise<number> {
    for (let warm = 0; warm < 2; warm++) await service.request(await options());
    const request = await options();
    let answered = 0;
    const statements = await statementsSentBy(async () => {
      answered = (await service.request(request)).statusCode;
    });
    expect(answered, name).toBe(status);
    return statements;
  }

  it('sends no more statements than before per request', async () => {
    const counts: Partial<Record<Case, number>> = {};
    counts.validate = await measure('validate', 200, () => ({
      method: 'POST',
      url: PATHS.validate,
      payload: account(),
    }));
    counts['stage a new account'] = await measure('stage a new account', 201, () => ({
      method: 'POST',
      url: PATHS.stage,
      payload: account(newAccount()),
    }));
    await stage('RESTAGED');
    counts['re-stage it'] = await measure('re-stage it', 200, () => ({
      method: 'POST',
      url: PATHS.stage,
      payload: account('RESTAGED'),
    }));
    const processNew = (claiming: boolean) => async (): Promise<InjectOptions> => {
      const external = newAccount();
      const payload = claiming ? buildAccount({ external_account_number: external }) : undefined;
      expect((await stage(external, payload)).statusCode).toBe(201);
      return {
        method: 'POST',
        url: PATHS.process,
        payload: {
          external_account_number: external,
          import_supplier_code: 'DEMO',
          operations_team_name: 'Migrations',
        },
      };
    };
    counts.process = await measure('process', 201, processNew(false));
    counts['validate, claiming a reference'] = await measure(
      'validate, claiming a reference',
      200,
      () => ({ method: 'POST', url: PATHS.validate, payload: buildAccount() }),
    );
    counts['stage, claiming a reference'] = await measure(
      'stage, claiming a reference',
      201,
      () => ({
        method: 'POST',
        url: PATHS.stage,
        payload: buildAccount({ external_account_number: newAccount() }),
      }),
    );
    counts['process, claiming a reference'] = await measure(
      'process, claiming a reference',
      201,
      processNew(true),
    );
    counts.status = await measure('status', 200, () => ({
      method: 'GET',
      url: PATHS.status('DEMO', 'RESTAGED'),
    }));
    counts['whole list'] = await measure('whole list', 200, () => ({
      method: 'GET',
      url: PATHS.all('DEMO'),
    }));
    counts['a page with items'] = await measure('a page with items', 200, () => ({
      method: 'GET',
      url: `${PATHS.all('DEMO')}?limit=10`,
    }));
    counts['an empty page'] = await measure('an empty page', 200, () => ({
      method: 'GET',
      url: `${PATHS.all('DEMO')}?limit=10&after=${Buffer.from(`[${Number.MAX_SAFE_INTEGER},""]`).toString('base64url')}`,
    }));
    counts['validate, broken JSON'] = await measure('validate, broken JSON', 400, () => ({
      method: 'POST',
      url: PATHS.validate,
      payload: '{"import_supplier": ',
      headers: { 'content-type': 'application/json' },
    }));
    counts['stage, not an object'] = await measure('stage, not an object', 400, () => ({
      method: 'POST',
      url: PATHS.stage,
      payload: '[]',
      headers: { 'content-type': 'application/json' },
    }));
    counts['process, fields missing'] = await measure('process, fields missing', 400, () => ({
      method: 'POST',
      url: PATHS.process,
      payload: { unknown: 1 },
    }));
    counts['page, bad limit'] = await measure('page, bad limit', 400, () => ({
      method: 'GET',
      url: `${PATHS.all('DEMO')}?limit=abc`,
    }));
    for (const [name, count] of Object.entries(counts)) {
      expect(count, name).toBeLessThanOrEqual(LIMITS[name as Case][dialect]);
    }
  });
});
