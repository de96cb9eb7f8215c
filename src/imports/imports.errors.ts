/** The refusals shared by the import use cases, with their codes and extra fields. */
import type { ImportProcess, ImportSupplier } from '../db/database.js';
import { ServiceError } from '../errors.js';

/** The refusal of a supplier that accepts no accounts now, if it is not Ongoing. */
export function notOngoing(supplier: ImportSupplier): ServiceError | undefined {
  if (supplier.status === 'Ongoing') return undefined;
  return new ServiceError({
    code: 'import_supplier_migration_not_ongoing',
    detail: `The migration of import supplier ${supplier.code} is ${supplier.status}; it accepts no accounts now.`,
  });
}

export function requireOngoing(supplier: ImportSupplier): void {
  const refusal = notOngoing(supplier);
  if (refusal) throw refusal;
}

export function alreadyImported(
  process: Pick<ImportProcess, 'external_account_number' | 'service_account_number'>,
): ServiceError {
  return new ServiceError({
    code: 'account_import_process_already_imported',
    detail: `Account ${process.external_account_number} was already imported as ${process.service_account_number}.`,
    extra: {
      external_account_number: process.external_account_number,
      service_account_number: process.service_account_number ?? '',
    },
  });
}

export function skipped(externalAccountNumber: string): ServiceError {
  return new ServiceError({
    code: 'account_import_process_skipped',
    detail: `Account ${externalAccountNumber} is marked to be skipped.`,
  });
}

export function inProgress(externalAccountNumber: string): ServiceError {
  return new ServiceError({
    code: 'account_import_in_progress',
    detail: `Account ${externalAccountNumber} is being created right now, by a process request or a scheduled creation's worker; try again once it is done.`,
  });
}

export function scheduledForCreation(externalAccountNumber: string): ServiceError {
  return new ServiceError({
    code: 'account_import_scheduled',
    detail: `Account ${externalAccountNumber} is scheduled for creation; cancel the schedule or let it run.`,
  });
}

export function tooManyInProgress(limit: number): ServiceError {
  return new ServiceError({
    code: 'too_many_accounts_in_progress',
    detail: `At most ${limit} accounts are created at once; retry shortly.`,
    headers: { 'Retry-After': '1' },
  });
}

export { supplierNotFound } from '../errors.js';
