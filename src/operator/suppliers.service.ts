/** Import suppliers (docs/interface.md, Import supplier): the operator creates, configures and lists them. */
import type { Kysely, Updateable } from 'kysely';
import type { Database, Db, ImportSuppliersTable } from '../db/database.js';
import { quoted } from '../shared/quoted.js';
import { OperatorError } from '../shared/operator-error.js';
import { documentRoot, phoneRegion, supplierCode, supplierStatus } from './operator.rules.js';
import type { Supplier, SupplierOptions } from './operator.types.js';
import * as repository from './suppliers.repository.js';

/** Creates a supplier: Ongoing, document root '', customer e-mails off, region GB unless given. */
export async function addSupplier(
  db: Db,
  code: string,
  options: SupplierOptions = {},
): Promise<Supplier> {
  const row = {
    code: supplierCode(code),
    status: supplierStatus(options.status ?? 'Ongoing'),
    document_root: documentRoot(options.documentRoot ?? ''),
    customer_emails: options.customerEmails === true ? 1 : 0,
    phone_region: phoneRegion(options.phoneRegion ?? 'GB'),
    created_at: Date.now(),
  };
  const created = await repository.insertSupplier(db.kysely, row);
  if (created === undefined) {
    throw new OperatorError(`import supplier "${row.code}" already exists`);
  }
  return created;
}

/** Changes only the options given; the others keep their values. */
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
  if (Object.keys(changes).length === 0) {
    throw new OperatorError(
      'nothing to change: give --status, --document-root, --customer-emails, ' +
        '--no-customer-emails or --phone-region',
    );
  }
  const updated = await repository.updateSupplier(db.kysely, code.trim(), changes);
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
