/** The real server process: JSON logs with the request id, X-Request-Id, graceful SIGTERM. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';

interface LogLine {
  msg: string;
  reqId?: string;
  [key: string]: unknown;
}

await describeEachDialect('server process', (dialect) => {
  let database: TestDatabase;
  let child: ChildProcessWithoutNullStreams;
  const lines: LogLine[] = [];
  let baseUrl = '';
  const waiters: (() => void)[] = [];

  /** Resolves once a logged line satisfies the predicate (log lines arrive asynchronously). */
  async function waitForLine(predicate: (line: LogLine) => boolean): Promise<void> {
    while (!lines.some(predicate)) {
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    child = spawn(process.execPath, ['dist/cli/main.js', 'serve'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: '0',
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
      },
    });
    const reader = createInterface({ input: child.stdout });
    baseUrl = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      reader.on('line', (line) => {
        const parsed = JSON.parse(line) as LogLine;
        lines.push(parsed);
        waiters.splice(0).forEach((wake) => wake());
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(parsed.msg);
        if (match?.[1]) resolve(match[1]);
      });
    });
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await database.destroy();
  });

  it('logs JSON lines that carry the request id sent back in X-Request-Id', async () => {
    const response = await fetch(`${baseUrl}/healthz`, {
      headers: { 'x-request-id': 'trace-abc-123' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('trace-abc-123');
    const generated = await fetch(`${baseUrl}/v1/data-import/validate-account/`, {
      method: 'POST',
    });
    const id = generated.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await waitForLine((line) => line.reqId === id && line.msg === 'request completed');
    await waitForLine((line) => line.reqId === 'trace-abc-123' && line.msg === 'request completed');
    const ofRequest = lines.filter((line) => line.reqId === id);
    expect(ofRequest.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
    expect(lines.filter((line) => line.reqId === 'trace-abc-123').length).toBeGreaterThanOrEqual(2);
  });

  it('creates no demo data in production', async () => {
    const db = connect(database.url);
    try {
      const organisations = await db.kysely.selectFrom('organisations').select('id').execute();
      expect(organisations).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('exits 0 on SIGTERM after closing', async () => {
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
