/** `serve`: runs the HTTP service until SIGTERM, with --host / --port over HOST / PORT. */
import { InvalidArgumentError, type Command } from 'commander';
import { decimalInteger } from '../config.js';
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
      // Loaded here, not at the top: operator commands then start fast and never load Fastify.
      const { startServer } = await import('../server.js');
      // The server logs its own address and shuts itself down on SIGTERM.
      await startServer(config, { log: true });
    });
}
