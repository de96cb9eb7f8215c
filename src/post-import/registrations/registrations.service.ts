/**
 * The meter point registrations of a created account (docs/interface.md, "Meter point
 * registrations"): their statuses, and the send request that queues a registration flow for each
 * meter point the lifecycle lets one be sent for.
 */
import type { Caller } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { ServiceError } from '../../errors.js';
import { atomicWrite } from '../../db/storage.js';
import { isObject } from '../../payload/validators.js';
import {
  isSendable,
  notSendableReason,
  type MeterPointStatus,
} from '../../accounts/registration-lifecycle.js';
import { recordEvents } from '../../events/events.repository.js';
import {
  accountEvent,
  confirmCreatedAccount,
  type AccountName,
  type CreatedAccount,
} from '../created-account.js';
import { listRegistrations, requestRegistration } from './registrations.repository.js';

export interface MeterPointStatusItem {
  mpxn: string;
  status: MeterPointStatus;
}

export type FlowOutcome = 'REGISTRATION_FLOW_SUCCESS' | 'REGISTRATION_FLOW_ERROR';

export interface FlowResult {
  mpxn: string;
  status: FlowOutcome;
  error_detail?: string;
}

export interface SendResult {
  external_account_number: string;
  import_supplier_code: string;
  meter_points: FlowResult[];
}

/** The fields the published 404 bodies of these endpoints carry, added to our error body. */
function withPublishedFields(error: unknown, name: AccountName): unknown {
  if (error instanceof ServiceError && error.status === 404) {
    Object.assign(error.extra, {
      external_account_number: name.externalAccountNumber,
      import_supplier_code: name.supplierCode,
      error_detail: error.message,
    });
  }
  return error;
}

/**
 * The send request has no body: none (undefined: no bytes were sent), or an empty object (which
 * some clients always send). `null` is a body, refused as any other.
 */
const noBody = (body: unknown) =>
  body === undefined || (isObject(body) && Object.keys(body).length === 0);

const bodyRefused = () =>
  new ServiceError({
    code: 'malformed_request',
    detail: 'A send of registration flows takes no body: send none, or {}.',
  });

function noMeterPoints(name: AccountName): ServiceError {
  return new ServiceError({
    code: 'account_has_no_meter_points',
    detail: `Account ${name.externalAccountNumber} of ${name.supplierCode} has no meter points.`,
  });
}

/**
 * The created account's registrations; refuses with its 404s carrying the published fields.
 * `ongoing: false` for the status read, which a Paused or Complete supplier still answers.
 */
async function accountWithMeterPoints<T>(
  ctx: AppContext,
  caller: Caller,
  name: AccountName,
  ongoing: boolean,
  work: (account: CreatedAccount) => Promise<T[]>,
): Promise<{ account: CreatedAccount; found: T[] }> {
  try {
    const account = await confirmCreatedAccount(ctx, caller, name, { ongoing });
    const found = await work(account);
    if (found.length === 0) throw noMeterPoints(name);
    return { account, found };
  } catch (error) {
    throw withPublishedFields(error, name);
  }
}

/** GET meterpoint-statuses-for-account: each meter point's status, in the account's order. */
export async function meterPointStatuses(
  ctx: AppContext,
  caller: Caller,
  name: AccountName,
): Promise<MeterPointStatusItem[]> {
  const { found } = await accountWithMeterPoints(ctx, caller, name, false, ({ accountId }) =>
    listRegistrations(ctx.db.kysely, accountId),
  );
  return found.map(({ mpxn, status }) => ({ mpxn, status }));
}

/**
 * POST send-registration-flows: in one atomic write, each sendable meter point moves to
 * REGISTRATION_REQUESTED with its flow queued in the outbox; every other one is reported with
 * the reason no flow was sent; the meter points moved are recorded in one REGISTRATION_REQUESTED
 * event of the same write. A meter point already requested is never queued again, whatever
 * the number of sends and their timing (registrations.repository.ts, requestRegistration).
 */
export async function sendRegistrationFlows(
  ctx: AppContext,
  caller: Caller,
  name: AccountName,
  body: unknown,
): Promise<SendResult> {
  const { account, found } = await accountWithMeterPoints(ctx, caller, name, true, (created) => {
    // Refused once the caller is confirmed, as every request's own refusals are.
    if (!noBody(body)) throw bodyRefused();
    return atomicWrite(ctx.db, async (db) => {
      const now = Date.now();
      const outcomes: FlowResult[] = [];
      const { accountId } = created;
      for (const registration of await listRegistrations(db, accountId)) {
        // Read as sendable but moved since by a concurrent send: the lifecycle moves a sendable
        // status to no other status that is not sendable.
        const sent =
          isSendable(registration.status) &&
          (await requestRegistration(db, accountId, registration, now));
        outcomes.push(
          sent
            ? { mpxn: registration.mpxn, status: 'REGISTRATION_FLOW_SUCCESS' }
            : {
                mpxn: registration.mpxn,
                status: 'REGISTRATION_FLOW_ERROR',
                error_detail: notSendableReason(
                  isSendable(registration.status) ? 'REGISTRATION_REQUESTED' : registration.status,
                ),
              },
        );
      }
      const mpxns = outcomes.flatMap((outcome) =>
        outcome.status === 'REGISTRATION_FLOW_SUCCESS' ? [outcome.mpxn] : [],
      );
      if (mpxns.length > 0) {
        const requested = 'EVENT_ACCOUNT_IMPORT_PROCESS_REGISTRATION_REQUESTED';
        await recordEvents(db, [accountEvent(created, requested, { mpxns }, now)]);
      }
      return outcomes;
    });
  });
  return {
    external_account_number: account.process.external_account_number,
    import_supplier_code: account.supplier.code,
    meter_points: found,
  };
}
