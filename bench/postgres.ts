/** A fresh PostgreSQL database per run, dropped afterwards (even when the run fails). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The server's version string, or undefined when it cannot be reached. */
export async function postgresVersion(adminUrl: string): Promise<string | undefined> {
  try {
    return await withAdmin(adminUrl, async (client) => {
      const { rows } = await client.query<{ v: string }>(
        "SELECT current_setting('server_version') AS v",
      );
      return rows[0]?.v;
    });
  } catch {
    return undefined;
  }
}

export interface TempDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createTempDatabase(adminUrl: string): Promise<TempDatabase> {
  const name = `account_import_bench_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await withAdmin(adminUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}
