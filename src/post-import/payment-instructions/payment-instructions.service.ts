/**
 * A payment instruction added to a created account. An account has at most one active
 * instruction of a type: one of that type is active when its `valid_from` is absent or not
 * later than today (UTC), whether the account was created with it (`payment_instructions`) or
 * it was added since. While one is, another of that type is refused (400
 * `payment_instruction_already_active`), and so is one of the same type and reference as one
 * added before (a repeated request). Requests on one account are serialised, so two at once
 * cannot both find none active.
 */
import type { Caller } from '../../auth/access.js';
import { readAccountDocument } from '../../accounts/account-store.js';
import type { AppContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import type { NulPath } from '../../http/json-body.js';
import {
  LegacyPaymentInstruction,
  type PaymentInstruction,
} from '../../account/schema/generated.js';
import { addedItems, addItems, storedKey } from '../additions.repository.js';
import { confirmPostImport } from '../post-import.request.js';
import { accountEvent, type CreatedAccount } from '../created-account.js';
import { recordEvents } from '../../events/events.repository.js';

type Body = LegacyPaymentInstruction;

/** What an added instruction answers. */
export interface CreatedInstruction {
  /** The account's number on the platform: the same as service_account_number. */
  account_number: string;
  service_account_number: string;
  reference: string;
}

/**
 * The advisory locks that serialise the requests on one account (PostgreSQL; on SQLite every
 * write holds the one write lock): this base plus the account's id, clear of the service's
 * other lock keys and within a safe integer.
 */
const ACCOUNT_LOCKS = 7_201_500_000_000_000;

const nameOf = (body: Body) => ({
  supplierCode: body.import_supplier,
  externalAccountNumber: body.external_account_number,
});

/** What an instruction is compared by: its type and when it starts. */
type Dated = Pick<PaymentInstruction, 'type' | 'valid_from'>;

const activeOfType = (type: Body['type'], today: string) => (instruction: Dated) =>
  instruction.type === type &&
  (instruction.valid_from === null ||
    instruction.valid_from === undefined ||
    instruction.valid_from <= today);

/** Validates the body, finds the account, adds the instruction unless one of its type is active. */
export async function createPaymentInstruction(
  ctx: AppContext,
  caller: Caller,
  input: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<CreatedInstruction> {
  const { body, account } = await confirmPostImport(
    ctx,
    caller,
    input,
    nulPaths,
    LegacyPaymentInstruction,
    nameOf,
  );
  // The object rule on LegacyPaymentInstruction makes sure exactly one of the two is given.
  const reference = body.reference ?? body.instruction_reference ?? '';
  const isActive = activeOfType(body.type, new Date().toISOString().slice(0, 10));
  // A created account's document never changes: it is read outside the write.
  const document = await readAccountDocument(ctx.db.kysely, account.accountId);
  const created = (JSON.parse(document) as { payment_instructions?: Dated[] }).payment_instructions;
  if ((created ?? []).some(isActive)) throw alreadyActive(body, reference);
  await addInstruction(ctx, account, body, reference, isActive);
  const number = account.serviceAccountNumber;
  return { account_number: number, service_account_number: number, reference };
}

/**
 * Adds the instruction unless one of its type added before is active, or one of its type and
 * reference was added before, with its PAYMENT_INSTRUCTION_ADDED event; serialised with the
 * other requests on the account.
 */
function addInstruction(
  ctx: AppContext,
  account: CreatedAccount,
  body: Body,
  reference: string,
  isActive: (instruction: Dated) => boolean,
): Promise<void> {
  const { storage, kysely } = ctx.db;
  const { accountId } = account;
  return storage.exclusiveWrite(kysely, ACCOUNT_LOCKS + accountId, async (executor) => {
    const added = await addedItems(executor, accountId, 'payment_instruction');
    if (added.some((data) => isActive(JSON.parse(data) as Dated))) {
      throw alreadyActive(body, reference);
    }
    const item = {
      key: storedKey(JSON.stringify([body.type, reference])),
      data: JSON.stringify(body),
    };
    const kind = 'payment_instruction';
    const inserted = await addItems(executor, accountId, kind, [item], Date.now());
    if (inserted.size === 0) throw alreadyActive(body, reference);
    const data = { type: body.type, reference };
    const event = accountEvent(
      account,
      'EVENT_ACCOUNT_IMPORT_PROCESS_PAYMENT_INSTRUCTION_ADDED',
      data,
    );
    await recordEvents(executor, [event]);
  });
}

/** The refusal of an instruction while one of its type is active, with the published fields. */
function alreadyActive(body: Body, reference: string): ServiceError {
  return new ServiceError({
    code: 'payment_instruction_already_active',
    detail: `Account ${body.external_account_number} already has an active ${body.type} payment instruction.`,
    extra: {
      external_account_number: body.external_account_number,
      import_supplier: body.import_supplier,
      reference,
    },
  });
}
