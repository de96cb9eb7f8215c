/** `serve`: runs the HTTP service until SIGTERM, with --host / --port over HOST / PORT. */
import { createServer } from 'node:net';
import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError, decimalInteger } from '../config.js';
import { quoted } from '../shared/quoted.js';
import { commandConfig } from './common.js';

interface ServeOptions {
  host?: string;
  port?: number;
}

function parsePort(value: string): number {
  const port = decimalInteger(value, 0, 65535);
  if (port === undefined) throw new InvalidArgumentError('use a whole number from 0 to 65535.');
  return port;
}

function parseHost(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('use a host name or address.');
  return value.trim();
}

/**
 * Bad input unless this machine can listen on `host` (on any free port): a name that resolves
 * to no address, or an address of no interface here, is refused before the database is touched.
 * `name` is the flag or variable it came from.
 */
async function checkHost(host: string, name: string): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(0, host, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND') {
      throw new ConfigError(`${name} ${quoted(host)} does not resolve to an address (${code})`);
    }
    if (code === 'EADDRNOTAVAIL') {
      throw new ConfigError(`${name} ${quoted(host)} is not an address of this machine (${code})`);
    }
    throw error;
  } finally {
    probe.close();
  }
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('migrate the database, then serve HTTP until SIGTERM')
    .option('--host <host>', 'listen address, overrides HOST (default 127.0.0.1)', parseHost)
    .option('--port <port>', 'listen port, overrides PORT (default 8000)', parsePort)
    .action(async (options: ServeOptions, command: Command) => {
      const config = commandConfig(command, {
        HOST: options.host,
        PORT: options.port === undefined ? undefined : String(options.port),
      });
      await checkHost(config.host, options.host === undefined ? 'HOST' : '--host');
      // Loaded here, not at the top: operator commands then start fast and never load Fastify.
      const { startServer } = await import('../server.js');
      // The server logs its own address and shuts itself down on SIGTERM.
      await startServer(config, { log: true });
    });
}
