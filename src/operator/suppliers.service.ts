/** Import suppliers (docs/interface.md, Import supplier): the operator creates, configures and lists them. */
import type { Kysely, Updateable } from 'kysely';
import type { Database, Db, ImportSuppliersTable } from '../db/database.js';
import {
  DEFAULT_SUPPLIER_SETTINGS,
  readSupplierSettings,
  supplierSettingsText,
} from '../settings/settings.declared.js';
import { quoted } from '../shared/quoted.js';
import { OperatorError } from '../shared/operator-error.js';
import { documentRoot, phoneRegion, supplierCode, supplierStatus } from './operator.rules.js';
import type { Supplier, SupplierOptions } from './operator.types.js';
import {
  givenRuleSettings,
  requireSettingTeams,
  RULE_SETTING_OPTIONS,
} from './supplier-settings.js';
import * as repository from './suppliers.repository.js';

/** The advisory lock that serialises the changes to suppliers' rule settings on PostgreSQL. */
const RULE_SETTINGS_LOCK_KEY = 7_201_403;

/**
 * Creates a supplier: Ongoing, document root '', customer e-mails off, region GB and the
 * default rule settings unless given.
 */
export async function addSupplier(
  db: Db,
  code: string,
  options: SupplierOptions = {},
): Promise<Supplier> {
  const settings = givenRuleSettings(options);
  const row = {
    code: supplierCode(code),
    status: supplierStatus(options.status ?? 'Ongoing'),
    document_root: documentRoot(options.documentRoot ?? ''),
    customer_emails: options.customerEmails === true ? 1 : 0,
    phone_region: phoneRegion(options.phoneRegion ?? 'GB'),
    created_at: Date.now(),
    rule_settings: supplierSettingsText({ ...DEFAULT_SUPPLIER_SETTINGS, ...settings }),
  };
  // Teams are never removed, so one found here is still there when the row is inserted.
  await requireSettingTeams(db.kysely, settings);
  const created = await repository.insertSupplier(db.kysely, row);
  if (created === undefined) {
    throw new OperatorError(`import supplier "${row.code}" already exists`);
  }
  return created;
}

/** Every option of `supplier set`, for the message of a call that gives none. */
const SET_OPTIONS = [
  '--status',
  '--document-root',
  '--customer-emails',
  '--no-customer-emails',
  '--phone-region',
  ...RULE_SETTING_OPTIONS,
];

/**
 * Changes only the options given; the others keep their values. Rule settings are read and
 * written back in one write, serialised with every other such change, so that two changes of
 * different settings at once both take effect.
 */
export async function setSupplier(
  db: Db,
  code: string,
  options: SupplierOptions,
): Promise<Supplier> {
  const changes: Updateable<ImportSuppliersTable> = {};
  if (options.status !== undefined) changes.status = supplierStatus(options.status);
  if (options.documentRoot !== undefined) {
    changes.document_root = documentRoot(options.documentRoot);
  }
  if (options.customerEmails !== undefined)
    changes.customer_emails = options.customerEmails ? 1 : 0;
  if (options.phoneRegion !== undefined) changes.phone_region = phoneRegion(options.phoneRegion);
  const settings = givenRuleSettings(options);
  const changesSettings = Object.keys(settings).length > 0;
  if (Object.keys(changes).length === 0 && !changesSettings) {
    throw new OperatorError(
      `nothing to change: give ${SET_OPTIONS.slice(0, -1).join(', ')} or ${SET_OPTIONS.at(-1)}`,
    );
  }
  const trimmed = code.trim();
  const updated = await db.storage.exclusiveWrite(
    db.kysely,
    RULE_SETTINGS_LOCK_KEY,
    async (executor) => {
      if (changesSettings) {
        const stored = await repository.findRuleSettings(executor, trimmed);
        if (stored === undefined) throw unknownSupplier(code);
        await requireSettingTeams(executor, settings);
        changes.rule_settings = supplierSettingsText({
          ...readSupplierSettings(stored),
          ...settings,
        });
      }
      return repository.updateSupplier(executor, trimmed, changes);
    },
  );
  if (updated === undefined) throw unknownSupplier(code);
  return updated;
}

/** Every supplier, ordered by code. */
export function listSuppliers(db: Db): Promise<Supplier[]> {
  return repository.listSuppliers(db.kysely);
}

/** The error every operator command gives for a supplier code that does not exist. */
export function unknownSupplier(code: string): OperatorError {
  return new OperatorError(`import supplier ${quoted(code.trim())} does not exist`);
}

/** The id of the supplier with this code; OperatorError when there is none. */
export async function requireSupplierId(db: Kysely<Database>, code: string): Promise<number> {
  const id = await repository.findSupplierId(db, code.trim());
  if (id === undefined) throw unknownSupplier(code);
  return id;
}
