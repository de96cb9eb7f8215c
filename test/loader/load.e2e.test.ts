/**
 * The bulk loader end to end: the built CLI (and runLoad in-process) against a real service
 * listening on a port, on SQLite and on PostgreSQL.
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runLoad, type LoadSummary } from '../../src/loader/load.js';
import type { Failure } from '../../src/loader/report.js';
import { describeEachDialect } from '../helpers/databases.js';
import { until } from '../helpers/until.js';
import {
  AUTO_SUPPLIER,
  SUPPLIER,
  TEAM,
  accountsOf,
  duplicateAccounts,
  startLoad,
  startLoaderService,
  writeSampleFile,
  type LoaderService,
} from './loader-service.js';

/**
 * An HTTP proxy to `target` that drops the connection instead of answering when `drop` says so
 * of an answer, after the service has handled the request.
 */
async function startProxy(
  target: string,
  drop: (path: string, status: number) => boolean,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const upstream = httpRequest(
      `${target}${request.url ?? '/'}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        if (drop(request.url ?? '', answer.statusCode ?? 0)) {
          answer.resume();
          request.socket.destroy();
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => request.socket.destroy());
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The failures a run wrote to its report file, in order. */
function reportOf(path: string): Failure[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Failure);
}

await describeEachDialect('loader end to end', (dialect) => {
  let service: LoaderService;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loader-e2e-'));
    service = await startLoaderService(dialect);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads 1,000 accounts: exactly the defective ones are reported, the rest COMPLETED', async () => {
    const file = join(dir, 'thousand.ndjson');
    const report = join(dir, 'thousand.report.ndjson');
    const lines = writeSampleFile(file, { count: 1000, seed: 11, invalidRatio: 0.05 });
    const run = startLoad(service, file, '--team', TEAM, '--report', report, '--json');
    const { code, stdout } = await run.done;
    expect(code).toBe(1);

    const summary = JSON.parse(stdout) as LoadSummary;
    expect(summary).toMatchObject({ total: 1000, created: 950, failed: 50, succeeded: 950 });
    const reported = reportOf(report);
    const expected = lines.flatMap((line, i) =>
      line.defect === undefined
        ? []
        : [
            {
              line: i + 1,
              external_account_number: line.payload.external_account_number,
              step: 'stage',
              status: 400,
              errors: [line.defect],
            },
          ],
    );
    const actual = reported
      .map((f) => ({ ...f, errors: f.errors.map(({ code: c, attr }) => ({ code: c, attr })) }))
      .sort((a, b) => a.line - b.line);
    expect(actual).toEqual(expected);

    const accounts = await accountsOf(service.db);
    for (const line of lines) {
      expect(accounts.has(line.payload.external_account_number as string)).toBe(
        line.defect === undefined,
      );
    }
    const completed = await service.db.kysely
      .selectFrom('import_processes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'completed')
      .where('external_account_number', 'like', `${SUPPLIER}-11-%`)
      .executeTakeFirstOrThrow();
    expect(Number(completed.n)).toBe(950);
  });

  it('resumes a run killed halfway: no duplicate, no account created twice', async () => {
    const file = join(dir, 'killed.ndjson');
    const lines = writeSampleFile(file, { count: 600, seed: 12 });
    const first = startLoad(service, file, '--team', TEAM, '--concurrency', '4');
    const ours = async () => {
      const all = await accountsOf(service.db);
      return new Map([...all].filter(([external]) => external.startsWith(`${SUPPLIER}-12-`)));
    };
    await until(async () => (await ours()).size >= 100);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const before = await ours();
    expect(before.size).toBeLessThan(600);

    const second = await startLoad(service, file, '--team', TEAM, '--json').done;
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout) as LoadSummary;
    expect(summary.failed).toBe(0);
    expect(summary.skipped_completed).toBeGreaterThanOrEqual(before.size);
    expect(summary.skipped_completed + summary.created).toBe(600);

    const after = await ours();
    expect(after.size).toBe(lines.length);
    for (const [external, number] of before) expect(after.get(external)).toBe(number);
    expect(await duplicateAccounts(service.db)).toEqual([]);
  });

  it.each([[[]], [['--dry-run']]])(
    'ends the run at the first account refused for a team that does not exist %j',
    async (mode) => {
      const file = join(dir, `no-team${mode.join('')}.ndjson`);
      const report = join(dir, `no-team${mode.join('')}.report.ndjson`);
      const lines = writeSampleFile(file, { count: 500, seed: mode.length === 0 ? 18 : 19 });
      const run = startLoad(service, file, '--team', 'Nobody', '--report', report, '--json');
      const { code, stdout, stderr } = await run.done;
      expect(code).toBe(1);
      expect(JSON.parse(stderr)).toEqual({
        error:
          'the service has no operations team named "Nobody" (operations_team_name_does_not_exist); ' +
          'add it with `account-import team add`, or pass the name of an existing one with --team',
      });
      const summary = JSON.parse(stdout) as LoadSummary;
      // The accounts in flight when the first refusal came back finish; nothing more is read.
      expect(summary.failed).toBeGreaterThanOrEqual(1);
      expect(summary.failed).toBeLessThanOrEqual(8);
      expect(summary).toMatchObject({
        total: summary.failed,
        failed_by_step: { parse: 0, stage: 0, process: summary.failed },
        created: 0,
        dry_run_ok: 0,
      });
      const reported = reportOf(report);
      expect(reported).toHaveLength(summary.failed);
      for (const failure of reported) {
        expect(failure).toMatchObject({
          step: 'process',
          status: 400,
          errors: [{ code: 'operations_team_name_does_not_exist', attr: 'operations_team_name' }],
        });
      }
      const accounts = await accountsOf(service.db);
      expect(
        lines.some((line) => accounts.has(line.payload.external_account_number as string)),
      ).toBe(false);
    },
  );

  it('names no team without --team: a supplier that allocates one gets its accounts, any other is told per account', async () => {
    const allocated = join(dir, 'allocated.ndjson');
    writeSampleFile(allocated, { count: 10, seed: 31, supplier: AUTO_SUPPLIER });
    const created = await startLoad(service, allocated, '--json').done;
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ total: 10, created: 10, failed: 0 });
    const teams = await service.db.kysely
      .selectFrom('accounts')
      .innerJoin('import_suppliers', 'import_suppliers.id', 'accounts.supplier_id')
      .innerJoin('operations_teams', 'operations_teams.id', 'accounts.operations_team_id')
      .where('import_suppliers.code', '=', AUTO_SUPPLIER)
      .select('operations_teams.name')
      .execute();
    expect(teams.map((row) => row.name)).toEqual(Array<string>(10).fill(TEAM));

    // ACME allocates no team: each account is refused, and the run goes on to the last.
    const unallocated = join(dir, 'unallocated.ndjson');
    const report = join(dir, 'unallocated.report.ndjson');
    writeSampleFile(unallocated, { count: 10, seed: 32 });
    const refused = await startLoad(service, unallocated, '--report', report, '--json').done;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('');
    expect(JSON.parse(refused.stdout)).toMatchObject({
      total: 10,
      failed: 10,
      failed_by_step: { process: 10 },
    });
    for (const failure of reportOf(report)) {
      expect(failure).toMatchObject({
        step: 'process',
        status: 400,
        errors: [{ code: 'operations_team_should_be_provided', attr: 'operations_team_name' }],
      });
    }
  });

  it.runIf(existsSync('/dev/full')).each([1, 3000])(
    'stops at a report it cannot write (%i failures): the summary so far, one error line, exit 2',
    async (count) => {
      const file = join(dir, `unwritable-${count}.ndjson`);
      writeFileSync(file, 'not json\n'.repeat(count));
      const run = startLoad(service, file, '--team', TEAM, '--report', '/dev/full', '--json');
      const { code, stdout, stderr } = await run.done;
      expect(code).toBe(2);
      const summary = JSON.parse(stdout) as LoadSummary;
      expect(summary.failed).toBeGreaterThanOrEqual(1);
      expect(summary).toMatchObject({ report: '/dev/full', interrupted: false });
      expect(JSON.parse(stderr)).toEqual({
        error: 'cannot write the report /dev/full: ENOSPC: no space left on device, write',
      });
    },
  );

  it('stages only, tests creation with a dry run, and reads a JSON array with --supplier', async () => {
    const lines = writeSampleFile(join(dir, 'unused.ndjson'), { count: 20, seed: 13 });
    const array = join(dir, 'accounts.json');
    // Records without import_supplier, or with null: --supplier fills it in.
    const payloads = lines.map(({ payload }, i) => {
      const { import_supplier: _omitted, ...rest } = payload;
      return i % 2 === 0 ? rest : { ...rest, import_supplier: null };
    });
    writeFileSync(array, JSON.stringify(payloads, null, 2));
    const base = { url: service.url, apiKey: service.apiKey, file: array, supplier: SUPPLIER };

    const staged = await runLoad({ ...base, stageOnly: true });
    expect(staged.summary).toMatchObject({
      mode: 'stage-only',
      staged: 20,
      succeeded: 20,
      created: 0,
    });
    const dryRun = await runLoad({ ...base, team: TEAM, dryRun: true });
    expect(dryRun.summary).toMatchObject({
      mode: 'dry-run',
      dry_run_ok: 20,
      created: 0,
      failed: 0,
    });
    const accounts = await accountsOf(service.db);
    expect(lines.some((line) => accounts.has(line.payload.external_account_number as string))).toBe(
      false,
    );

    const created = await runLoad({ ...base, team: TEAM });
    expect(created.summary).toMatchObject({ created: 20, failed: 0 });
    const again = await runLoad({ ...base, team: TEAM, dryRun: true });
    expect(again.summary).toMatchObject({ skipped_completed: 20, dry_run_ok: 0 });
  });

  /** Loads the file into the service with the team, writing failures to `report`. */
  const loadReporting = (file: string, report: string, options: { concurrency?: number } = {}) =>
    runLoad({ file, url: service.url, apiKey: service.apiKey, team: TEAM, report, ...options });

  it('reports lines that are not JSON, or not objects, with their line numbers', async () => {
    const file = join(dir, 'broken.ndjson');
    const [good] = writeSampleFile(join(dir, 'one.ndjson'), { count: 1, seed: 14 });
    writeFileSync(file, `${JSON.stringify(good?.payload)}\n{"import_supplier": \n\n[1,2]\n`);
    const report = join(dir, 'broken.report.ndjson');
    const { summary } = await loadReporting(file, report);
    expect(summary).toMatchObject({
      total: 3,
      created: 1,
      failed: 2,
      failed_by_step: { parse: 2 },
    });
    const reported = reportOf(report);
    expect(reported.map((f) => [f.line, f.step, f.status, f.errors[0]?.code])).toEqual([
      [2, 'parse', null, 'invalid_json'],
      [4, 'parse', null, 'not_an_object'],
    ]);
  });

  it('reports failures beside the input when no report path is given', async () => {
    const file = join(dir, 'unreported.ndjson');
    writeFileSync(file, 'not json\n"a string"\n');
    const { summary } = await runLoad({
      file,
      url: service.url,
      apiKey: service.apiKey,
      team: TEAM,
    });
    const report = join(dir, 'unreported.failures.ndjson');
    expect(summary).toMatchObject({ total: 2, failed: 2, report });
    expect(reportOf(report).map((f) => [f.line, f.errors[0]?.code])).toEqual([
      [1, 'invalid_json'],
      [2, 'not_an_object'],
    ]);
  });

  it('reports a record whose supplier code cannot be listed as a failed stage, and goes on', async () => {
    const lines = writeSampleFile(join(dir, 'three.ndjson'), { count: 3, seed: 15 });
    const [first, second, third] = lines.map((line) => line.payload);
    const file = join(dir, 'odd-codes.ndjson');
    // A lone surrogate cannot go in a URL; 20,000 characters are too long for one.
    const odd = [
      { ...first, import_supplier: 'AC\ud800ME' },
      { ...first, import_supplier: 'X'.repeat(20_000) },
      { ...first, external_account_number: 12345 },
      second,
      third,
    ];
    writeFileSync(file, `${odd.map((payload) => JSON.stringify(payload)).join('\n')}\n`);
    const report = join(dir, 'odd-codes.report.ndjson');
    const { summary } = await loadReporting(file, report, { concurrency: 1 });
    expect(summary).toMatchObject({
      total: 5,
      created: 2,
      failed: 3,
      failed_by_step: { stage: 3 },
    });
    const reported = reportOf(report);
    expect(reported.map((f) => [f.line, f.external_account_number, f.step, f.status])).toEqual([
      [1, first?.external_account_number, 'stage', 400],
      [2, first?.external_account_number, 'stage', 400],
      [3, 12345, 'stage', 400],
    ]);
  });

  it('counts an account whose creation answer was lost as created, not as already completed', async () => {
    const file = join(dir, 'lost-answers.ndjson');
    const lines = writeSampleFile(file, { count: 20, seed: 17 });
    // Every third creation goes through, but its answer never reaches the loader.
    let created = 0;
    const proxy = await startProxy(service.url, (path, status) =>
      path.endsWith('/process/') && status === 201 ? ++created % 3 === 0 : false,
    );
    try {
      const { summary } = await runLoad({
        file,
        url: proxy.url,
        apiKey: service.apiKey,
        team: TEAM,
        report: join(dir, 'lost-answers.report.ndjson'),
      });
      expect(summary).toMatchObject({ created: 20, skipped_completed: 0, failed: 0 });
      expect(summary.retries).toBeGreaterThanOrEqual(6);
    } finally {
      await proxy.close();
    }
    const accounts = await accountsOf(service.db);
    for (const line of lines) {
      expect(accounts.has(line.payload.external_account_number as string)).toBe(true);
    }
  });
});

await describeEachDialect('loader end to end, with a busy service and short tokens', (dialect) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loader-e2e-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('completes every account with PROCESS_CONCURRENCY_LIMIT=1 (429s retried)', async () => {
    const service = await startLoaderService(dialect, { PROCESS_CONCURRENCY_LIMIT: '1' });
    try {
      const file = join(dir, 'limited.ndjson');
      writeSampleFile(file, { count: 100, seed: 21 });
      const { summary } = await runLoad({
        file,
        url: service.url,
        apiKey: service.apiKey,
        team: TEAM,
        concurrency: 8,
      });
      expect(summary).toMatchObject({ total: 100, created: 100, failed: 0 });
      expect((await accountsOf(service.db)).size).toBe(100);
    } finally {
      await service.close();
    }
  });

  it('renews a token that expires mid-run (ACCESS_TOKEN_TTL=2)', async () => {
    const service = await startLoaderService(dialect, { ACCESS_TOKEN_TTL: '2' });
    try {
      const file = join(dir, 'short-tokens.ndjson');
      writeSampleFile(file, { count: 6000, seed: 22 });
      // However fast the database, the run must outlive a few tokens: it is stopped (as by
      // Ctrl-C) after 3.5 s, while in-flight accounts finish, rather than sized by a guess.
      const { summary } = await runLoad({
        file,
        url: service.url,
        apiKey: service.apiKey,
        team: TEAM,
        concurrency: 2,
        signal: AbortSignal.timeout(3500),
      });
      expect(summary).toMatchObject({ interrupted: true, failed: 0 });
      expect(summary.created).toBeGreaterThan(0);
      expect(summary.token_renewals).toBeGreaterThanOrEqual(1);
      expect((await accountsOf(service.db)).size).toBe(summary.created);
    } finally {
      await service.close();
    }
  });
});
