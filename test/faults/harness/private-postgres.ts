/**
 * A PostgreSQL cluster of the test's own (initdb into a temp dir, on a free port), so that it
 * can be stopped with `pg_ctl stop -m immediate` (a real outage: every backend killed, no
 * checkpoint) without touching the shared server other tests use.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './service.js';

const run = promisify(execFile);

/** The bin directory of the newest installed PostgreSQL, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** Runs a PostgreSQL tool as the `postgres` OS user when we are root (initdb refuses root). */
  private async tool(name: string, args: string[]): Promise<void> {
    const program = join(this.bin, name);
    if (userInfo().uid === 0) await run('runuser', ['-u', 'postgres', '--', program, ...args]);
    else await run(program, args);
  }

  /** initdb into a temp dir and start the cluster on a free port. */
  static async create(): Promise<PrivatePostgres> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
    const dir = mkdtempSync(join(tmpdir(), 'account-import-pg-'));
    if (userInfo().uid === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const cluster = new PrivatePostgres(bin, dir, await freePort());
    await cluster.tool('initdb', [
      '-D',
      cluster.dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ]);
    await cluster.start();
    return cluster;
  }

  async start(): Promise<void> {
    await this.tool('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'postgres.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
      '-w',
      'start',
    ]);
  }

  /** `immediate`: the postmaster kills every backend at once, as a crash would. */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    await this.tool('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
