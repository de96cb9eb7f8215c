/** Status of one account (docs/interface.md, States). */
import { confirmWith, type Caller, type ConfirmedCaller } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import { holdsLiveClaim } from '../creation/creation.repository.js';
import {
  findCallerProcessAndMark,
  type ProcessTarget,
  type SkipMark,
} from '../creation/process-lookup.repository.js';
import { supplierNotFound } from '../imports.errors.js';
import { formatDatetime } from './datetime.js';

export type TransferStatus = 'UNKNOWN' | 'IN_PROGRESS' | 'COMPLETED';

export interface StatusResult {
  import_supplier: string;
  external_account_number: string;
  status: TransferStatus;
  service_account_number: string;
  last_attempt?: { code: string; detail: string; at: string };
  /** The operator's mark, when the account carries one (DESIGN.md: it still reads UNKNOWN). */
  skip_mark?: { reason: string | null; marked_at: string };
}

/** A status request's caller, confirmed in the statement that reads the process. */
export type StatusAccess = { readonly caller: ConfirmedCaller } & Pick<
  ProcessTarget,
  'supplier' | 'process'
> & { readonly skipMark: SkipMark | undefined };

/** The first step of a status request: the caller confirmed as its process is read. */
export async function confirmStatus(
  ctx: AppContext,
  caller: Caller,
  supplierCode: string,
  externalAccountNumber: string,
): Promise<StatusAccess> {
  const { caller: confirmed, found } = await confirmWith(caller, (unconfirmed) =>
    findCallerProcessAndMark(ctx.db.kysely, unconfirmed, supplierCode, externalAccountNumber),
  );
  return { caller: confirmed, ...found };
}

export function getTransferStatus(
  access: StatusAccess,
  supplierCode: string,
  externalAccountNumber: string,
): StatusResult {
  const { supplier, process, skipMark } = access;
  if (!supplier) throw supplierNotFound(supplierCode);
  const mark = skipMark && {
    skip_mark: { reason: skipMark.reason, marked_at: formatDatetime(skipMark.markedAt) },
  };
  // A skipped account reads UNKNOWN (DESIGN.md) whether or not anything was staged for it; an
  // account neither staged nor marked is no resource.
  if (!process && !mark) {
    throw new ServiceError({
      code: 'import_process_does_not_exist',
      endpoint: 'account_status',
      detail: `Nothing was staged for account ${externalAccountNumber} of ${supplier.code}.`,
    });
  }
  const now = Date.now();
  let status: TransferStatus = 'UNKNOWN';
  if (process?.state === 'completed') status = 'COMPLETED';
  else if (process && holdsLiveClaim(process, now)) status = 'IN_PROGRESS';
  const result: StatusResult = {
    import_supplier: supplier.code,
    external_account_number: externalAccountNumber,
    status,
    service_account_number: process?.service_account_number ?? '',
  };
  if (status === 'UNKNOWN' && process?.last_failure_code && process.last_failure_at !== null) {
    result.last_attempt = {
      code: process.last_failure_code,
      detail: process.last_failure_detail ?? '',
      at: formatDatetime(process.last_failure_at),
    };
  }
  return mark ? { ...result, ...mark } : result;
}
