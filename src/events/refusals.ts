/**
 * The events of refused requests: what a refusal's event keeps (its codes, never the payload),
 * and its append, which runs on its own since a refusal has no effect to share a transaction
 * with.
 */
import type { Db } from '../db/database.js';
import type { ServiceError } from '../errors.js';
import { externalAccountNumberProblem } from '../payload/codes.js';
import { recordEvents, type NewAccountEvent } from './events.repository.js';

/** A refusal's codes: the top-level one, and each field error's code and place. */
export function refusalCodes(error: ServiceError): {
  code: string;
  errors: { code: string; attr: string | null }[];
} {
  return { code: error.code, errors: error.errors.map(({ code, attr }) => ({ code, attr })) };
}

/**
 * The external account number a refused body names, as a stage would keep it (trimmed), or
 * undefined when it names none that could be an account's.
 */
export function namedAccount(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const number = value.trim();
  return externalAccountNumberProblem(number) ? undefined : number;
}

/**
 * Whether a refusal concerns an import supplier the caller may not use: such a refusal has no
 * account the caller may see to record it on.
 */
export const supplierRefused = (error: ServiceError): boolean =>
  error.code === 'import_supplier_not_found' ||
  error.errors.some(({ code }) => code === 'import_supplier_not_found');

/**
 * Appends a refusal's event. A log that cannot be written (the database unreachable) must not
 * change the answer the refusal gives, so a failure here is dropped.
 */
export async function recordRefusal(db: Db, event: NewAccountEvent): Promise<void> {
  try {
    await db.storage.statementWrite(db.kysely, (executor) => recordEvents(executor, [event]));
  } catch {
    // The refusal is answered as it is; only its trace is lost.
  }
}

/**
 * Records a refused stage (STAGE_REFUSED, with its codes) on the account it names, whether or
 * not the account was ever staged, so that why a stage failed can be read from its timeline.
 * A refusal of the supplier itself records nothing (supplierRefused).
 */
export async function recordRefusedStage(
  db: Db,
  account: { supplierId: number; externalAccountNumber: string },
  error: ServiceError,
  requestId: string | undefined,
): Promise<void> {
  if (supplierRefused(error)) return;
  await recordRefusal(db, {
    ...account,
    event: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGE_REFUSED',
    occurredAt: Date.now(),
    data: refusalCodes(error),
    requestId: requestId ?? null,
  });
}
