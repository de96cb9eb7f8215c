/** `registration record`: the industry adapter reports a meter point's registration status. */
import type { Command } from 'commander';
import type { RecordedMove } from '../operator/registrations.service.js';
import { print, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../operator/registrations.service.js');

function moveJson(move: RecordedMove) {
  return {
    mpxn: move.mpxn,
    service_account_number: move.accountNumber,
    import_supplier_code: move.supplierCode,
    external_account_number: move.externalAccountNumber,
    previous_status: move.from,
    status: move.status,
    detail: move.detail,
    changed: move.changed,
  };
}

function describeMove(move: RecordedMove): string {
  const where = `meter point ${move.mpxn} of account ${move.accountNumber}`;
  return move.changed
    ? `recorded ${where}: ${move.from} -> ${move.status}`
    : `${where} is already ${move.status}; nothing changed`;
}

export function registerRegistration(program: Command): void {
  const group = program
    .command('registration')
    .description('meter point registrations of created accounts');

  group
    .command('record')
    .description('record the status the industry reports for a meter point (lifecycle moves only)')
    .argument('<mpxn>', 'the MPAN or MPRN of the meter point')
    .argument('<status>', 'its new status, one of the published meter point statuses')
    .option('--detail <text>', 'what the industry said, kept with the status')
    .option('--account <number>', 'the account (A-…) whose meter point it is; default: the newest')
    .action(
      async (
        mpxn: string,
        status: string,
        options: { detail?: string; account?: string },
        command: Command,
      ) => {
        const { recordRegistration } = await operations();
        const move = await withDatabase(command, (db) =>
          recordRegistration(db, mpxn, status, options),
        );
        print(command, moveJson(move), describeMove(move));
      },
    );
}
