import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKey, verifyApiKeySecret } from '../../src/auth/api-keys.js';
import { connect } from '../../src/db/connect.js';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { CLI_PATH, json, runCli } from './run-cli.js';

/** Resolves with the URL the server logs once it listens; rejects if it exits first. */
function listening(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const match = /Server listening at (http:\/\/[^"\s]+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code} before listening`)));
  });
}

await describeEachDialect('cli: serve', (dialect) => {
  let database: TestDatabase;
  let child: ChildProcessWithoutNullStreams;
  let url: string;
  let stderr = '';
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // HOST would fail to listen and PORT is not even a port: the flags must win over them.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      HOST: '203.0.113.1',
      PORT: 'http',
    };
    delete env.NODE_ENV;
    child = spawn(process.execPath, [CLI_PATH, 'serve', '--host', '127.0.0.1', '--port', '0'], {
      env,
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    url = await listening(child);
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await database.destroy();
  });

  it('listens on the --host and --port given', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('seeds the demo and prints instructions whose requests work', async () => {
    const apiKey = /^ {2}(aik_\S+)$/m.exec(stderr)?.[1];
    expect(apiKey).toBeDefined();
    const bodies = [...stderr.matchAll(/-d '([^']+)'/g)].map((m) => m[1] ?? '');
    expect(bodies).toHaveLength(2);
    const post = (path: string, body: string, token?: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Token ${token}` } : {}),
        },
        body,
      });
    const answer = (await (await post('/v1/graphql/', bodies[0] ?? '')).json()) as {
      data: { obtainToken: { token: string } };
    };
    const token = answer.data.obtainToken.token;
    expect(token).toBeTruthy();
    const validated = await post('/v1/data-import/validate-account/', bodies[1] ?? '', token);
    expect(validated.status).toBe(200);
  });

  it('warns in production when TOKEN_SECRET is not set', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url };
    env.NODE_ENV = 'production';
    delete env.TOKEN_SECRET;
    const production = spawn(process.execPath, [CLI_PATH, 'serve', '--port', '0'], { env });
    let logged = '';
    production.stdout.setEncoding('utf8').on('data', (chunk: string) => (logged += chunk));
    try {
      await listening(production);
      const warning = logged.split('\n').find((line) => line.includes('TOKEN_SECRET'));
      expect(JSON.parse(warning ?? '{}')).toMatchObject({
        level: 40,
        msg: expect.stringMatching(/^TOKEN_SECRET is not set/),
      });
    } finally {
      production.kill('SIGKILL');
      await once(production, 'exit');
    }
  });

  it('stops cleanly on SIGTERM', async () => {
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});

await describeEachDialect('cli: serve that cannot listen on an empty database', (dialect) => {
  let database: TestDatabase;
  let blocker: Server;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
  });
  afterAll(async () => {
    blocker.close();
    await database.destroy();
  });

  it('still prints the demo API key it created, and the key works', async () => {
    const { port } = blocker.address() as AddressInfo;
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url };
    delete env.NODE_ENV;
    const failed = spawn(process.execPath, [CLI_PATH, 'serve', '--port', String(port)], { env });
    let stderr = '';
    failed.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(failed, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toMatch(/The service did not start \(below\); its demo data is kept\./);
    expect(stderr).toMatch(/EADDRINUSE/);
    const apiKey = /^ {2}(aik_\S+)$/m.exec(stderr)?.[1] ?? '';

    const db = connect(database.url);
    try {
      const { key_id, key_hash } = await db.kysely
        .selectFrom('organisations')
        .select(['key_id', 'key_hash'])
        .where('name', '=', 'demo')
        .executeTakeFirstOrThrow();
      const parsed = parseApiKey(apiKey);
      expect(parsed?.keyId).toBe(key_id);
      expect(verifyApiKeySecret(parsed?.secret ?? '', key_hash)).toBe(true);
    } finally {
      await db.close();
    }
  });
});

describe('cli: serve on a host it cannot listen on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-host-'));
  const database = join(dir, 'never.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    // Not an IPv4 address, so a name; and one that resolves to nothing.
    ['999.1.1.1', 'does not resolve to an address (ENOTFOUND)'],
    // A documentation address: on no interface of this machine.
    ['203.0.113.1', 'is not an address of this machine (EADDRNOTAVAIL)'],
  ])('refuses --host %s as bad input, before it touches the database', async (host, why) => {
    const env = { DATABASE_URL: `sqlite:${database}` };
    const result = await runCli(env, 'serve', '--host', host, '--port', '0');
    expect(result).toMatchObject({ code: 1, stderr: `error: --host "${host}" ${why}\n` });
    const fromVariable = await runCli({ ...env, HOST: host }, 'serve', '--port', '0', '--json');
    expect(fromVariable.code).toBe(1);
    expect(json(fromVariable.stderr)).toEqual({ error: `HOST "${host}" ${why}` });
    expect(existsSync(database)).toBe(false);
  });
});
