/**
 * `registration record MPXN STATUS`: the industry adapter reports a meter point's new status.
 * Only a move MOVES allows is recorded (src/accounts/registration-lifecycle.ts); a report of the
 * status the meter point already has is accepted and changes nothing, so that an adapter
 * delivering a report twice does no harm. A move is recorded in the account's event log
 * (REGISTRATION_STATUS_CHANGED) in the write that makes it; a report that changes nothing is not.
 *
 * An MPXN can be on several accounts (an account imported again after the meter point was
 * lost): without `account`, the report is for the newest account that has it, the one a
 * registration is under way for; `account` names another.
 */
import type { Db } from '../db/database.js';
import { atomicWrite } from '../db/storage.js';
import { recordEvents } from '../events/events.repository.js';
import {
  isMeterPointStatus,
  mayMove,
  MOVES,
  REQUESTED,
  type MeterPointStatus,
} from '../accounts/registration-lifecycle.js';
import { accountNumber } from './operator.rules.js';
import { OperatorError } from '../shared/operator-error.js';
import { quoted } from '../shared/quoted.js';
import {
  moveRegistration,
  registrationsOfMpxn,
  type RecordedRegistration,
} from '../post-import/registrations/registrations.repository.js';

/** The longest detail kept with a status. */
export const MAX_DETAIL_LENGTH = 1000;

export interface RecordOptions {
  detail?: string;
  /** The account number (`A-…`) whose meter point it is, when the MPXN is on several. */
  account?: string;
}

export interface RecordedMove {
  mpxn: string;
  accountNumber: string;
  supplierCode: string;
  externalAccountNumber: string;
  from: MeterPointStatus;
  status: MeterPointStatus;
  detail: string | null;
  /** False when the meter point already had the status: nothing was changed. */
  changed: boolean;
}

function statusOf(raw: string): MeterPointStatus {
  const status = raw.trim().toUpperCase();
  if (!isMeterPointStatus(status)) {
    throw new OperatorError(
      `${quoted(raw)} is not a meter point status: use one of the published statuses, such as REGISTRATION_ACCEPTED`,
    );
  }
  if (status === REQUESTED) {
    throw new OperatorError(
      `${REQUESTED} is not reported: a send-registration-flows request moves a meter point there, and queues its flow`,
    );
  }
  return status;
}

function detailOf(raw: string | undefined): string | null {
  const detail = raw?.trim() ?? '';
  if (detail.length > MAX_DETAIL_LENGTH) {
    throw new OperatorError(`--detail is longer than ${MAX_DETAIL_LENGTH} characters`);
  }
  return detail === '' ? null : detail;
}

/** The registration the report is for: the named account's, or the newest account's. */
function chosen(
  registrations: RecordedRegistration[],
  mpxn: string,
  account: string | undefined,
): RecordedRegistration {
  if (registrations.length === 0) {
    throw new OperatorError(`no created account has meter point ${quoted(mpxn)}`);
  }
  if (account === undefined) return registrations[0] as RecordedRegistration;
  const number = accountNumber(account);
  const found = registrations.find((registration) => registration.accountNumber === number);
  if (found === undefined) {
    throw new OperatorError(`account ${quoted(number)} has no meter point ${quoted(mpxn)}`);
  }
  return found;
}

function refusedMove(from: MeterPointStatus, to: MeterPointStatus, mpxn: string): OperatorError {
  const onward = MOVES[from] ?? [];
  const allowed =
    onward.length === 0
      ? 'no report moves it on from there'
      : `from there it may go to ${onward.join(', ')}`;
  return new OperatorError(
    `meter point ${quoted(mpxn)} is ${from}, and the registration lifecycle does not move it to ${to}: ${allowed}`,
  );
}

/** Records the reported status of the meter point, or throws OperatorError and changes nothing. */
export async function recordRegistration(
  db: Db,
  rawMpxn: string,
  rawStatus: string,
  options: RecordOptions = {},
): Promise<RecordedMove> {
  const mpxn = rawMpxn.trim();
  const status = statusOf(rawStatus);
  const detail = detailOf(options.detail);
  return atomicWrite(db, async (executor) => {
    const registration = chosen(await registrationsOfMpxn(executor, mpxn), mpxn, options.account);
    const move = {
      mpxn,
      accountNumber: registration.accountNumber,
      supplierCode: registration.supplierCode,
      externalAccountNumber: registration.externalAccountNumber,
      from: registration.status,
      status,
    };
    if (registration.status === status) {
      return { ...move, detail: registration.detail, changed: false };
    }
    if (!mayMove(registration.status, status)) throw refusedMove(registration.status, status, mpxn);
    const now = Date.now();
    const moved = await moveRegistration(
      executor,
      registration.id,
      registration.status,
      status,
      detail,
      now,
    );
    if (!moved) {
      throw new OperatorError(
        `meter point ${quoted(mpxn)} changed status while this report was recorded; report it again`,
      );
    }
    const data = {
      mpxn,
      from: registration.status,
      to: status,
      ...(detail === null ? {} : { detail }),
    };
    await recordEvents(executor, [
      {
        supplierId: registration.supplierId,
        externalAccountNumber: registration.externalAccountNumber,
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_REGISTRATION_STATUS_CHANGED',
        occurredAt: now,
        data,
        requestId: null,
      },
    ]);
    return { ...move, detail, changed: true };
  });
}
