/** `supplier add | set | list`: import suppliers and their configuration (docs/interface.md, Import supplier). */
import type { Command } from 'commander';
import type { Supplier, SupplierOptions } from '../operator/operator.types.js';
import { isoTime, print, printList, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../operator/suppliers.service.js');

/** The --json shape of a supplier: snake_case, like the service's wire format. */
function supplierJson(supplier: Supplier) {
  return {
    code: supplier.code,
    status: supplier.status,
    document_root: supplier.documentRoot,
    customer_emails: supplier.customerEmails,
    phone_region: supplier.phoneRegion,
    created_at: isoTime(supplier.createdAt),
  };
}

function describeSupplier(supplier: Supplier): string {
  return (
    `${supplier.status}, document root "${supplier.documentRoot}", ` +
    `customer e-mails ${supplier.customerEmails ? 'on' : 'off'}, ` +
    `phone region ${supplier.phoneRegion}`
  );
}

function withSupplierOptions(command: Command, defaults: boolean): Command {
  const or = (text: string) => (defaults ? ` (default ${text})` : '');
  return command
    .option('--status <status>', `Ongoing, Paused or Complete, any letter case${or('Ongoing')}`)
    .option('--document-root <path>', `prefix of document paths: "" or /a/path${or('""')}`)
    .option('--customer-emails', `send migration e-mails to customers${or('off')}`)
    .option('--no-customer-emails', 'send no migration e-mails to customers')
    .option('--phone-region <code>', `ISO country code for local phone numbers${or('GB')}`);
}

export function registerSupplier(program: Command): void {
  const group = program.command('supplier').description('manage import suppliers');

  withSupplierOptions(group.command('add').argument('<code>', 'supplier code'), true)
    .description('add an import supplier')
    .action(async (code: string, options: SupplierOptions, command: Command) => {
      const { addSupplier } = await operations();
      const supplier = await withDatabase(command, (db) => addSupplier(db, code, options));
      print(
        command,
        supplierJson(supplier),
        `added import supplier ${supplier.code}: ${describeSupplier(supplier)}`,
      );
    });

  withSupplierOptions(group.command('set').argument('<code>', 'supplier code'), false)
    .description('change the given options of an import supplier; the others stay')
    .action(async (code: string, options: SupplierOptions, command: Command) => {
      const { setSupplier } = await operations();
      const supplier = await withDatabase(command, (db) => setSupplier(db, code, options));
      print(
        command,
        supplierJson(supplier),
        `updated import supplier ${supplier.code}: ${describeSupplier(supplier)}`,
      );
    });

  group
    .command('list')
    .description('list import suppliers by code')
    .action(async (_options: unknown, command: Command) => {
      const { listSuppliers } = await operations();
      const suppliers = await withDatabase(command, listSuppliers);
      printList(
        command,
        suppliers.map(supplierJson),
        ['CODE', 'STATUS', 'DOCUMENT ROOT', 'CUSTOMER E-MAILS', 'PHONE REGION'],
        suppliers.map((s) => [
          s.code,
          s.status,
          s.documentRoot === '' ? '""' : s.documentRoot,
          s.customerEmails ? 'on' : 'off',
          s.phoneRegion,
        ]),
        'no import suppliers',
      );
    });
}
