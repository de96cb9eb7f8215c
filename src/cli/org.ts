/** `org add | grant | revoke | rotate-key | disable | enable | list`: organisations and keys. */
import type { Command } from 'commander';
import type { IssuedKey, Organisation } from '../operator/operator.types.js';
import { isoTime, print, printList, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../operator/organisations.service.js');

function organisationJson(organisation: Organisation) {
  return {
    name: organisation.name,
    enabled: organisation.enabled,
    suppliers: organisation.suppliers,
    key_id: organisation.keyId,
    key_version: organisation.keyVersion,
    created_at: isoTime(organisation.createdAt),
  };
}

/** The key is printed alone on its line so it can be copied or cut out by a script. */
function printKey(command: Command, key: IssuedKey, headline: string): void {
  print(
    command,
    { name: key.name, api_key: key.apiKey },
    `${headline}\nAPI key (shown only this once, store it now):\n${key.apiKey}`,
  );
}

function printOrganisation(command: Command, organisation: Organisation, action: string): void {
  const suppliers = organisation.suppliers.join(', ') || 'none';
  print(
    command,
    organisationJson(organisation),
    `${action} organisation "${organisation.name}" (suppliers: ${suppliers})`,
  );
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerOrg(program: Command): void {
  const group = program.command('org').description('manage organisations and their API keys');

  group
    .command('add')
    .description('add an organisation and print its new API key once')
    .argument('<name>', 'organisation name')
    .option('--supplier <code>', 'grant this import supplier; repeat for more', collect, [])
    .action(async (name: string, options: { supplier: string[] }, command: Command) => {
      const { addOrganisation } = await operations();
      const added = await withDatabase(command, (db) =>
        addOrganisation(db, name, options.supplier),
      );
      const suppliers = added.suppliers.join(', ') || 'none';
      printKey(command, added, `added organisation "${added.name}" (suppliers: ${suppliers})`);
    });

  for (const [verb, run, done] of [
    ['grant', 'grantSupplier', 'granted to'],
    ['revoke', 'revokeSupplier', 'revoked from'],
  ] as const) {
    group
      .command(verb)
      .description(`${verb} the use of an import supplier ${verb === 'grant' ? 'to' : 'from'} it`)
      .argument('<name>', 'organisation name')
      .requiredOption('--supplier <code>', 'import supplier code')
      .action(async (name: string, options: { supplier: string }, command: Command) => {
        const change = (await operations())[run];
        const organisation = await withDatabase(command, (db) =>
          change(db, name, options.supplier),
        );
        printOrganisation(command, organisation, `${options.supplier.trim()} ${done}`);
      });
  }

  group
    .command('rotate-key')
    .description('issue a new API key; the old key and its tokens stop working')
    .argument('<name>', 'organisation name')
    .action(async (name: string, _options: unknown, command: Command) => {
      const { rotateOrganisationKey } = await operations();
      const key = await withDatabase(command, (db) => rotateOrganisationKey(db, name));
      printKey(
        command,
        key,
        `new API key for organisation "${key.name}" (key version ${key.keyVersion}); ` +
          'the old key and every token obtained with it no longer work',
      );
    });

  for (const [verb, run, done] of [
    ['disable', 'disableOrganisation', 'disabled'],
    ['enable', 'enableOrganisation', 'enabled'],
  ] as const) {
    group
      .command(verb)
      .description(
        verb === 'disable'
          ? 'refuse the key and every token of the organisation'
          : 'accept a disabled organisation again, with its current key',
      )
      .argument('<name>', 'organisation name')
      .action(async (name: string, _options: unknown, command: Command) => {
        const change = (await operations())[run];
        const organisation = await withDatabase(command, (db) => change(db, name));
        printOrganisation(command, organisation, done);
      });
  }

  group
    .command('list')
    .description('list organisations with their state and suppliers')
    .action(async (_options: unknown, command: Command) => {
      const { listOrganisations } = await operations();
      const organisations = await withDatabase(command, listOrganisations);
      printList(
        command,
        organisations.map(organisationJson),
        ['NAME', 'STATE', 'SUPPLIERS', 'KEY ID', 'KEY VERSION'],
        organisations.map((o) => [
          o.name,
          o.enabled ? 'enabled' : 'disabled',
          o.suppliers.join(',') || '-',
          o.keyId,
          String(o.keyVersion),
        ]),
        'no organisations',
      );
    });
}
