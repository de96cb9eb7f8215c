/** `events prune`: the account event log's retention (src/events/README.md). */
import type { Command } from 'commander';
import { print, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../events/retention.js');

export function registerEvents(program: Command): void {
  const group = program.command('events').description('the account event log');

  group
    .command('prune')
    .description('delete the events older than DAYS days, in batches')
    .requiredOption('--older-than <days>', 'age in whole days of the events to delete')
    .action(async (options: { olderThan: string }, command: Command) => {
      const { pruneOlderThan, retentionDays } = await operations();
      const days = retentionDays(options.olderThan);
      const deleted = await withDatabase(command, (db) => pruneOlderThan(db, days));
      print(
        command,
        { deleted, older_than_days: days },
        `deleted ${deleted} event${deleted === 1 ? '' : 's'} older than ${days} day${days === 1 ? '' : 's'}`,
      );
    });
}
