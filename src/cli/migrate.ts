/** `migrate`: brings the schema to the newest version, or with --down reverts the newest one. */
import type { Command } from 'commander';
import { commandConfig, openDatabase, print } from './common.js';

interface MigrateOptions {
  down?: boolean;
}

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('bring the database schema to the newest version')
    .option('--down', 'revert the newest applied migration instead')
    .action(async (options: MigrateOptions, command: Command) => {
      const config = commandConfig(command);
      const db = await openDatabase(config);
      const { migrateDown, migrateToLatest, onMigrationConnection } =
        await import('../db/migrate.js');
      let done: string[];
      try {
        done = await onMigrationConnection(db, config.databaseUrl, (on) =>
          options.down ? migrateDown(on) : migrateToLatest(on),
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
