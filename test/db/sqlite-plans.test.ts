/**
 * SQLite statements run with their parameters written `+?`, so that STAT4 statistics (from
 * ANALYZE or PRAGMA optimize) never make SQLite plan a statement again on every execution
 * (src/db/sqlite-plans.ts). The rewrite itself, then the service on an analysed database: its
 * indexes still used, its answers unchanged. SQLite only: PostgreSQL has no such planner.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledSqlTexts } from '../../src/db/statements.js';
import { parametersUnplanned } from '../../src/db/sqlite-plans.js';
import {
  PATHS,
  createTestService,
  listPages,
  processDemoAccount,
  type TestService,
} from '../helpers/app.js';
import { buildAccount } from '../account/factory.js';

describe('parametersUnplanned', () => {
  it('writes every positional parameter with a unary plus', () => {
    expect(parametersUnplanned('select * from t where a = ? and b in (?, ?1) limit ?')).toBe(
      'select * from t where a = +? and b in (+?, +?1) limit +?',
    );
    expect(parametersUnplanned('insert into t (a, b) values (?,?)')).toBe(
      'insert into t (a, b) values (+?,+?)',
    );
  });

  it('leaves question marks in strings, quoted identifiers and comments alone', () => {
    const text = [
      `select 'a?b', 'it''s ? still', "col?", "say ""?""", \`x?\`, [y?]`,
      '-- a comment? yes',
      'from t /* why? */ where a = ?',
    ].join('\n');
    expect(parametersUnplanned(text)).toBe(text.replace('a = ?', 'a = +?'));
  });

  it('returns SQL without parameters unchanged, unterminated quotes included', () => {
    expect(parametersUnplanned('select 1')).toBe('select 1');
    expect(parametersUnplanned("select '?")).toBe("select '?");
    expect(parametersUnplanned('select 1 /* ?')).toBe('select 1 /* ?');
  });
});

describe('an analysed SQLite database [sqlite]', () => {
  let service: TestService;
  const externals = Array.from({ length: 30 }, (_, i) => `PLAN-${String(i).padStart(2, '0')}`);
  const stage = (external: string, billing = 'Name') =>
    service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ external_account_number: external, billing_name: billing }),
    });
  const processAccount = (external: string) => processDemoAccount(service, external);

  beforeAll(async () => {
    service = await createTestService('sqlite');
    for (const external of externals) expect((await stage(external)).statusCode).toBe(201);
    for (const external of externals.slice(0, 10)) {
      expect((await processAccount(external)).statusCode).toBe(201);
    }
    await sql`analyze`.execute(service.db.kysely);
  });
  afterAll(() => service.destroy());

  it('holds STAT4 statistics, the condition that made SQLite re-plan bound statements', async () => {
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(
      service.db.kysely,
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
  });

  /** The plan SQLite chooses for `text` as the service runs it (parameters rewritten). */
  async function plan(text: string, parameters: unknown[]): Promise<string[]> {
    const result = await service.db.kysely.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, parameters),
    );
    return result.rows.map((row) => row.detail);
  }

  it('still searches the indexes for parameters compared with indexed columns', async () => {
    expect(
      await plan(
        'select id from import_processes where supplier_id = ? and external_account_number = ?',
        [1, 'PLAN-01'],
      ),
    ).toEqual([expect.stringMatching(/^SEARCH import_processes USING .*INDEX/)]);
    expect(
      await plan(
        `select external_account_number from import_processes where supplier_id = ?
         order by first_staged_at, external_account_number limit ?`,
        [1, 10],
      ),
    ).toEqual([
      expect.stringMatching(/^SEARCH import_processes USING .*import_processes_order_idx/),
    ]);
  });

  it('reads every list page from its index alone (migration 0005)', async () => {
    for (const url of [PATHS.all('DEMO'), PATHS.pending('DEMO'), PATHS.imported('DEMO')]) {
      expect((await listPages(service, `${url}?limit=4`)).length).toBeGreaterThan(1);
      expect((await service.request({ method: 'GET', url })).statusCode).toBe(200);
    }
    const listStatements = compiledSqlTexts().filter((text) =>
      /from "import_processes" .*order by "first_staged_at"/s.test(text),
    );
    // For each list: the caller's first and next pages, and the first batch of the whole list.
    expect(listStatements).toHaveLength(9);
    for (const text of listStatements) {
      const parameters = Array.from(text.matchAll(/\?/g), () => 1);
      expect(await plan(text, parameters)).toContainEqual(
        expect.stringMatching(/^SEARCH import_processes USING COVERING INDEX import_processes_/),
      );
    }
  });

  it('stages, re-stages, processes and lists as before', async () => {
    expect((await stage('PLAN-NEW')).statusCode).toBe(201);
    expect((await stage('PLAN-20', 'Second')).statusCode).toBe(200);
    expect((await processAccount('PLAN-20')).statusCode).toBe(201);
    const status = await service.request({ method: 'GET', url: PATHS.status('DEMO', 'PLAN-20') });
    expect(status.json().status).toBe('COMPLETED');

    const pages = await listPages<{ external_account_number: string }>(
      service,
      `${PATHS.all('DEMO')}?limit=7`,
    );
    expect(pages.flat().map((item) => item.external_account_number)).toEqual([
      ...externals,
      'PLAN-NEW',
    ]);
    const imported = await service.request({ method: 'GET', url: PATHS.imported('DEMO') });
    expect(imported.json()).toHaveLength(11);
  });
});
