/**
 * The account a post-import request adds to: a created account of a supplier granted to the
 * caller, found in the statement that confirms the caller (as the status of an account is).
 * Every post-import endpoint starts here, so they refuse in the same order and with the same
 * codes: an unknown or ungranted supplier (404 `import_supplier_not_found`), a supplier that is
 * not Ongoing (400 `import_supplier_migration_not_ongoing`), nothing staged (404
 * `import_process_does_not_exist`), staged but not created (404 `account_not_found`).
 */
import { confirmWith, type Caller, type ConfirmedCaller } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportProcess, ImportSupplier } from '../db/database.js';
import { ServiceError } from '../errors.js';
import { findCallerProcess } from '../imports/creation/process-lookup.repository.js';
import { requireOngoing, supplierNotFound } from '../imports/imports.errors.js';
import type { EventName } from '../events/event-names.js';
import type { NewAccountEvent } from '../events/events.repository.js';

/** A created account, confirmed for its caller. */
export interface CreatedAccount {
  readonly caller: ConfirmedCaller;
  readonly supplier: ImportSupplier;
  readonly process: ImportProcess;
  /** The accounts row's id. */
  readonly accountId: number;
  readonly serviceAccountNumber: string;
}

/** What a post-import request names: the supplier's code and the external account number. */
export interface AccountName {
  readonly supplierCode: string;
  readonly externalAccountNumber: string;
}

/**
 * Confirms the caller and finds the created account `name` names, or throws the refusal the
 * module header lists. `ongoing: false` skips the supplier's status (for reads, which a Paused
 * or Complete supplier still answers).
 */
export async function confirmCreatedAccount(
  ctx: AppContext,
  caller: Caller,
  name: AccountName,
  { ongoing = true }: { ongoing?: boolean } = {},
): Promise<CreatedAccount> {
  const { supplierCode, externalAccountNumber } = name;
  const { caller: confirmed, found } = await confirmWith(caller, (unconfirmed) =>
    findCallerProcess(ctx.db.kysely, unconfirmed, supplierCode, externalAccountNumber),
  );
  const { supplier, process } = found;
  if (!supplier) throw supplierNotFound(supplierCode);
  if (ongoing) requireOngoing(supplier);
  if (!process) {
    throw new ServiceError({
      code: 'import_process_does_not_exist',
      endpoint: 'post_import',
      detail: `Nothing was staged for account ${externalAccountNumber} of ${supplier.code}.`,
    });
  }
  if (process.state !== 'completed' || process.account_id === null) {
    throw new ServiceError({
      code: 'account_not_found',
      detail: `Account ${externalAccountNumber} of ${supplier.code} was staged but not created yet.`,
    });
  }
  return {
    caller: confirmed,
    supplier,
    process,
    accountId: Number(process.account_id),
    serviceAccountNumber: process.service_account_number ?? '',
  };
}

/** Whose event a post-import action writes: the account's, caused by the caller's request. */
export function eventSource(account: CreatedAccount) {
  return {
    supplierId: Number(account.supplier.id),
    externalAccountNumber: account.process.external_account_number,
    requestId: account.caller.requestId ?? null,
  };
}

/**
 * The event a post-import action appends to the account's log (src/events/), in the write of
 * its effect, carrying the request's id.
 */
export function accountEvent(
  account: CreatedAccount,
  event: EventName,
  data: Record<string, unknown>,
  occurredAt = Date.now(),
): NewAccountEvent {
  return { ...eventSource(account), event, occurredAt, data };
}
