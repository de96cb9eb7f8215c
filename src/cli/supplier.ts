/** `supplier add | set | list`: import suppliers and their configuration (docs/interface.md, Import supplier). */
import type { Command } from 'commander';
import type {
  Supplier,
  SupplierOptions,
  SupplierSettingInput,
} from '../operator/operator.types.js';
import {
  DEFAULT_SUPPLIER_SETTINGS,
  SUPPLIER_SETTING_KEYS,
  supplierSetting,
  supplierSettingOption,
  type SupplierSettingKey,
  type SupplierSettings,
} from '../settings/settings.declared.js';
import { quoted } from '../shared/quoted.js';
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
    rule_settings: supplier.settings,
  };
}

/** A rule setting's value as listed: on or off, a quoted name, or none. */
function shownSetting(value: SupplierSettings[SupplierSettingKey]): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return value === null ? 'none' : quoted(value);
}

/** The rule settings that differ from their default, `key value` each, in declaration order. */
function changedSettings(settings: SupplierSettings): string[] {
  return SUPPLIER_SETTING_KEYS.filter(
    (key) => settings[key] !== DEFAULT_SUPPLIER_SETTINGS[key],
  ).map((key) => `${key} ${shownSetting(settings[key])}`);
}

function describeSupplier(supplier: Supplier): string {
  const changed = changedSettings(supplier.settings);
  return (
    `${supplier.status}, document root "${supplier.documentRoot}", ` +
    `customer e-mails ${supplier.customerEmails ? 'on' : 'off'}, ` +
    `phone region ${supplier.phoneRegion}, ` +
    `rule settings ${changed.length === 0 ? 'all default' : changed.join(', ')}`
  );
}

/** `--send-registration-flows` → `sendRegistrationFlows`, as Commander names the option's value. */
const attributeOf = (key: SupplierSettingKey) =>
  key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** Commander's options: the declared ones, then one per rule setting. */
type SupplierFlags = Omit<SupplierOptions, 'ruleSettings'> &
  Record<string, SupplierSettingInput | undefined>;

/** The service's options from Commander's: the rule settings gathered by key. */
function supplierOptions(flags: SupplierFlags): SupplierOptions {
  const { status, documentRoot, customerEmails, phoneRegion } = flags;
  const ruleSettings: SupplierOptions['ruleSettings'] = {};
  for (const key of SUPPLIER_SETTING_KEYS) {
    const value = flags[attributeOf(key)];
    if (value !== undefined) ruleSettings[key] = value;
  }
  return { status, documentRoot, customerEmails, phoneRegion, ruleSettings };
}

/** Each rule setting's pair of options: `--x` / `--no-x`, or `--x <value>` / `--no-x`. */
function withRuleSettingOptions(command: Command, defaults: boolean): Command {
  for (const key of SUPPLIER_SETTING_KEYS) {
    const { argument, summary } = supplierSetting(key);
    const option = supplierSettingOption(key);
    const negated = option.replace(/^--/, '--no-');
    if (argument === undefined) {
      command.option(option, `${summary}${defaults ? ' (default off)' : ''}`);
      command.option(negated, `turn ${option} off`);
    } else {
      command.option(`${option} ${argument}`, `${summary}${defaults ? ' (default none)' : ''}`);
      command.option(negated, `no ${option}`);
    }
  }
  return command;
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

/** The options of `add` and `set`: the supplier's own, then its rule settings. */
function withAllOptions(command: Command, defaults: boolean): Command {
  return withRuleSettingOptions(withSupplierOptions(command, defaults), defaults);
}

export function registerSupplier(program: Command): void {
  const group = program.command('supplier').description('manage import suppliers');

  withAllOptions(group.command('add').argument('<code>', 'supplier code'), true)
    .description('add an import supplier')
    .action(async (code: string, flags: SupplierFlags, command: Command) => {
      const { addSupplier } = await operations();
      const options = supplierOptions(flags);
      const supplier = await withDatabase(command, (db) => addSupplier(db, code, options));
      print(
        command,
        supplierJson(supplier),
        `added import supplier ${supplier.code}: ${describeSupplier(supplier)}`,
      );
    });

  withAllOptions(group.command('set').argument('<code>', 'supplier code'), false)
    .description('change the given options of an import supplier; the others stay')
    .action(async (code: string, flags: SupplierFlags, command: Command) => {
      const { setSupplier } = await operations();
      const options = supplierOptions(flags);
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
        ['CODE', 'STATUS', 'DOCUMENT ROOT', 'CUSTOMER E-MAILS', 'PHONE REGION', 'RULE SETTINGS'],
        suppliers.map((s) => [
          s.code,
          s.status,
          s.documentRoot === '' ? '""' : s.documentRoot,
          s.customerEmails ? 'on' : 'off',
          s.phoneRegion,
          changedSettings(s.settings).join(', ') || 'all default',
        ]),
        'no import suppliers',
      );
    });
}
