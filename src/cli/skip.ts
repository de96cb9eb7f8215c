/** `skip add | remove | list`: accounts the operator decided not to import. */
import type { Command } from 'commander';
import type { SkipMark } from '../operator/operator.types.js';
import { isoTime, print, printList, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../operator/skip-marks.service.js');

function skipMarkJson(mark: SkipMark) {
  return {
    supplier: mark.supplier,
    external_account_number: mark.externalAccountNumber,
    reason: mark.reason,
    created_at: isoTime(mark.createdAt),
  };
}

export function registerSkip(program: Command): void {
  const group = program.command('skip').description('mark accounts to be skipped, or unmark them');

  group
    .command('add')
    .description('mark an account so that staging and processing it are refused')
    .argument('<supplier>', 'import supplier code')
    .argument('<external_number>', 'external account number')
    .option('--reason <text>', 'why it is skipped, kept with the mark')
    .action(
      async (supplier: string, number: string, options: { reason?: string }, command: Command) => {
        const { addSkipMark } = await operations();
        const mark = await withDatabase(command, (db) =>
          addSkipMark(db, supplier, number, options.reason),
        );
        print(
          command,
          skipMarkJson(mark),
          `marked account ${mark.externalAccountNumber} of ${mark.supplier} to be skipped`,
        );
      },
    );

  group
    .command('remove')
    .description('remove the mark so the account can be imported again')
    .argument('<supplier>', 'import supplier code')
    .argument('<external_number>', 'external account number')
    .action(async (supplier: string, number: string, _options: unknown, command: Command) => {
      const { removeSkipMark } = await operations();
      const mark = await withDatabase(command, (db) => removeSkipMark(db, supplier, number));
      print(
        command,
        skipMarkJson(mark),
        `removed the skip mark of account ${mark.externalAccountNumber} of ${mark.supplier}`,
      );
    });

  group
    .command('list')
    .description('list skip marks, of one import supplier or of all')
    .argument('[supplier]', 'import supplier code')
    .action(async (supplier: string | undefined, _options: unknown, command: Command) => {
      const { listSkipMarks } = await operations();
      const marks = await withDatabase(command, (db) => listSkipMarks(db, supplier));
      printList(
        command,
        marks.map(skipMarkJson),
        ['SUPPLIER', 'EXTERNAL NUMBER', 'CREATED', 'REASON'],
        marks.map((m) => [
          m.supplier,
          m.externalAccountNumber,
          isoTime(m.createdAt),
          m.reason ?? '',
        ]),
        'no skip marks',
      );
    });
}
