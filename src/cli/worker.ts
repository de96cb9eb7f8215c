/** `worker`: runs a pool of schedule workers (and nothing else) until SIGTERM. */
import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError, decimalInteger } from '../config.js';
import { commandConfig } from './common.js';

interface WorkerOptions {
  concurrency?: number;
}

function parseConcurrency(value: string): number {
  const concurrency = decimalInteger(value, 1, 1000);
  if (concurrency === undefined)
    throw new InvalidArgumentError('use a whole number from 1 to 1000.');
  return concurrency;
}

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('migrate the database, then create scheduled accounts until SIGTERM')
    .option(
      '--concurrency <n>',
      'creations at once, overrides WORKER_CONCURRENCY (default 8)',
      parseConcurrency,
    )
    .action(async (options: WorkerOptions, command: Command) => {
      const config = commandConfig(command, {
        WORKER_CONCURRENCY:
          options.concurrency === undefined ? undefined : String(options.concurrency),
      });
      if (config.workerConcurrency === 0) {
        throw new ConfigError('WORKER_CONCURRENCY is 0: a worker needs at least 1');
      }
      // Loaded here, not at the top, as serve does: other commands never load the drivers.
      const { startWorker, logLine } = await import('../schedules/worker/worker-runner.js');
      const worker = await startWorker(config);
      let signalled = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (signalled) process.exit(130);
        signalled = true;
        logLine('info', 'stopping: finishing the creations in flight', { signal });
        worker.close().then(
          () => process.exit(0),
          (error: unknown) => {
            logLine('error', 'stop failed', { err: String(error) });
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    });
}
