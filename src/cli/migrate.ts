/** `migrate`: brings the schema to the newest version, or with --down reverts the newest one. */
import type { Command } from 'commander';
import type { Db } from '../db/database.js';
import { OperatorError } from '../shared/operator-error.js';
import { commandConfig, openDatabase, print } from './common.js';

interface MigrateOptions {
  down?: boolean;
  dropAllData?: boolean;
}

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('bring the database schema to the newest version')
    .option('--down', 'revert the newest applied migration instead')
    .option(
      '--drop-all-data',
      'with --down, allow reverting the first migration, which drops every table and its data',
    )
    .action(async (options: MigrateOptions, command: Command) => {
      if (options.dropAllData && !options.down) {
        throw new OperatorError('--drop-all-data goes with --down');
      }
      const config = commandConfig(command);
      const db = await openDatabase(config);
      const migrations = await import('../db/migrate.js');
      const { dropAllData = false } = options;
      const down = (on: Db) =>
        migrations.migrateDown(on, { dropAllData }).catch((error: unknown) => {
          if (!(error instanceof migrations.InitialMigrationKept)) throw error;
          throw new OperatorError(
            `reverting ${migrations.INITIAL_MIGRATION} drops every table and all the data in ` +
              'them (organisations, keys, suppliers, teams, skip marks, staged data and ' +
              'accounts); add --drop-all-data to do so',
          );
        });
      let done: string[];
      try {
        done = await migrations.onMigrationConnection(db, config.databaseUrl, (on) =>
          options.down ? down(on) : migrations.migrateToLatest(on),
        );
      } finally {
        await db.close();
      }
      // The migrator reports "applied NAME" / "reverted NAME"; JSON keeps the names only.
      const names = done.map((line) => line.replace(/^(applied|reverted) /, ''));
      const nothing = options.down ? 'nothing to revert' : 'database schema is up to date';
      print(
        command,
        options.down ? { reverted: names } : { applied: names },
        done.length === 0 ? nothing : done.join('\n'),
      );
    });
}
