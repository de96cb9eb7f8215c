/**
 * The registration lifecycle of a created account's meter points (docs/interface.md,
 * "Meter point registrations"): the published statuses, the one a meter point starts in, which
 * statuses a registration flow may be sent from, and every move the industry adapter may report.
 * The publication names the statuses only; the moves are this service's reading of them, all in
 * the one table MOVES, which both the send request and `registration record` consult.
 *
 * It lives beside the account store, not in src/post-import/registrations/, because the account's
 * creation writes each meter point's starting status, and the store may not depend on the
 * post-import features (which depend on it).
 */

/** The published meter point statuses (GbrMeterPointStatus), in the publication's order. */
export const METER_POINT_STATUSES = [
  'PRE_REGISTRATION',
  'UNABLE_TO_REGISTER',
  'AREGI_SENT',
  'NOMINATION_SENT',
  'NOMINATION_REJECTED',
  'OFFER_RECEIVED',
  'OFFER_REJECTED',
  'REGISTRATION_REQUESTED',
  'REGISTRATION_ACCEPTED',
  'REGISTRATION_REJECTED',
  'WITHDRAWAL_REQUESTED',
  'REGISTRATION_WITHDRAWN',
  'OBJECTION_RECEIVED',
  'REGISTRATION_OBJECTED',
  'MTD_RECEIVED',
  'ON_SUPPLY',
  'OPENING_READ_DISPUTED',
  'MTD_DISPUTED',
  'METER_EXCHANGE_REQUESTED',
  'ERRONEOUS_GAIN_PROPOSED',
  'ERRONEOUS_GAIN_ACCEPTED',
  'ERRONEOUS_GAIN_REJECTED',
  'ERRONEOUS_GAIN_CANCELLED',
  'LOSS_REQUESTED_ERRONEOUS_GAIN',
  'LOSS_PENDING_ERRONEOUS_GAIN',
  'LOST_ERRONEOUS_GAIN',
  'ERRONEOUS_LOSS_PROPOSED',
  'ERRONEOUS_LOSS_ACCEPTED',
  'ERRONEOUS_LOSS_REJECTED',
  'ERRONEOUS_LOSS_CANCELLED',
  'ET_REQUESTED',
  'ET_ACCEPTED',
  'ET_LOSS_PENDING',
  'ET_COMPLETED',
  'ET_CANCELLED',
  'LOSS_REQUESTED',
  'LOSS_PENDING',
  'LOST',
  'DISCONNECTED',
  'ERRONEOUS_LOSS',
  'LOSS_OBJECTION_REQUESTED',
  'LOSS_OBJECTION_REMOVAL_REQUESTED',
  'LOSS_OBJECTION_ACCEPTED',
  'CLOSING_READ_DISPUTE',
  'DE-ENERGISED',
  'UNDERGOING_REGISTRATION',
  'REGISTRATION_AT_RISK',
  'GAIN_PENDING_DAP',
  'LOSS_PENDING_DAP',
] as const;

export type MeterPointStatus = (typeof METER_POINT_STATUSES)[number];

export const isMeterPointStatus = (value: string): value is MeterPointStatus =>
  (METER_POINT_STATUSES as readonly string[]).includes(value);

/** Where a sent registration flow puts a meter point; only a send moves a meter point there. */
export const REQUESTED: MeterPointStatus = 'REGISTRATION_REQUESTED';

/**
 * A new meter point's status: PRE_REGISTRATION when its supplier sends registration flows (it
 * waits for a send request), ON_SUPPLY otherwise (the supplier registers nothing through the
 * platform: the meter point is supplied as migrated, and there is no registration to wait for).
 */
export function startingStatus(sendsRegistrationFlows: boolean): MeterPointStatus {
  return sendsRegistrationFlows ? 'PRE_REGISTRATION' : 'ON_SUPPLY';
}

/**
 * The statuses a registration flow may be sent from: nothing was requested yet, or the last
 * attempt ended without the meter point being gained (refused, withdrawn, objected to, or the
 * adapter could not register it), so a new attempt is the way on.
 */
export const SENDABLE: readonly MeterPointStatus[] = [
  'PRE_REGISTRATION',
  'UNABLE_TO_REGISTER',
  'NOMINATION_REJECTED',
  'OFFER_REJECTED',
  'REGISTRATION_REJECTED',
  'REGISTRATION_WITHDRAWN',
  'REGISTRATION_OBJECTED',
];

export const isSendable = (status: MeterPointStatus): boolean => SENDABLE.includes(status);

/** Until the gain completes: a registration is under way. */
const REGISTERING: readonly MeterPointStatus[] = [
  'REGISTRATION_REQUESTED',
  'AREGI_SENT',
  'NOMINATION_SENT',
  'OFFER_RECEIVED',
  'UNDERGOING_REGISTRATION',
  'REGISTRATION_ACCEPTED',
  'REGISTRATION_AT_RISK',
  'OBJECTION_RECEIVED',
  'WITHDRAWAL_REQUESTED',
  'GAIN_PENDING_DAP',
  'MTD_RECEIVED',
];

/** The meter point was lost to another supplier, or taken off supply for good. */
const GONE: readonly MeterPointStatus[] = [
  'LOST',
  'LOST_ERRONEOUS_GAIN',
  'ET_COMPLETED',
  'DISCONNECTED',
  'ERRONEOUS_LOSS',
  'ERRONEOUS_LOSS_PROPOSED',
  'ERRONEOUS_LOSS_REJECTED',
  'ERRONEOUS_LOSS_CANCELLED',
  'CLOSING_READ_DISPUTE',
];

/** Why no registration flow is sent from a status that is not SENDABLE, in the answer's words. */
export function notSendableReason(status: MeterPointStatus): string {
  if (status === REQUESTED) return 'A registration flow was already sent for this meter point.';
  if (REGISTERING.includes(status)) {
    return `A registration is already under way for this meter point (status ${status}).`;
  }
  if (GONE.includes(status)) {
    return `The meter point was lost or taken off supply (status ${status}); it is not registered again from here.`;
  }
  return `The meter point is already supplied (status ${status}); it needs no registration.`;
}

/**
 * Every move the adapter may report (`registration record`), from each status to the statuses
 * it may go to. A status absent as a key moves nowhere by a report (a SENDABLE one moves on by a
 * send). REGISTRATION_REQUESTED is never a destination: only a send, which also queues the flow,
 * moves a meter point there.
 */
export const MOVES: Readonly<Partial<Record<MeterPointStatus, readonly MeterPointStatus[]>>> = {
  // Before a send: the adapter may find up front that the meter point cannot be registered.
  PRE_REGISTRATION: ['UNABLE_TO_REGISTER'],
  // The gain: the flow is sent, then answered.
  REGISTRATION_REQUESTED: [
    'UNABLE_TO_REGISTER',
    'AREGI_SENT',
    'NOMINATION_SENT',
    'UNDERGOING_REGISTRATION',
    'REGISTRATION_ACCEPTED',
    'REGISTRATION_REJECTED',
    'WITHDRAWAL_REQUESTED',
  ],
  AREGI_SENT: [
    'UNDERGOING_REGISTRATION',
    'REGISTRATION_ACCEPTED',
    'REGISTRATION_REJECTED',
    'WITHDRAWAL_REQUESTED',
  ],
  NOMINATION_SENT: ['OFFER_RECEIVED', 'NOMINATION_REJECTED', 'WITHDRAWAL_REQUESTED'],
  OFFER_RECEIVED: ['AREGI_SENT', 'REGISTRATION_ACCEPTED', 'OFFER_REJECTED', 'WITHDRAWAL_REQUESTED'],
  UNDERGOING_REGISTRATION: [
    'REGISTRATION_ACCEPTED',
    'REGISTRATION_REJECTED',
    'REGISTRATION_AT_RISK',
    'OBJECTION_RECEIVED',
    'WITHDRAWAL_REQUESTED',
  ],
  REGISTRATION_ACCEPTED: [
    'REGISTRATION_AT_RISK',
    'OBJECTION_RECEIVED',
    'GAIN_PENDING_DAP',
    'MTD_RECEIVED',
    'ON_SUPPLY',
    'WITHDRAWAL_REQUESTED',
  ],
  REGISTRATION_AT_RISK: [
    'REGISTRATION_ACCEPTED',
    'OBJECTION_RECEIVED',
    'ON_SUPPLY',
    'WITHDRAWAL_REQUESTED',
  ],
  OBJECTION_RECEIVED: ['REGISTRATION_OBJECTED', 'REGISTRATION_ACCEPTED', 'WITHDRAWAL_REQUESTED'],
  WITHDRAWAL_REQUESTED: ['REGISTRATION_WITHDRAWN', 'REGISTRATION_ACCEPTED'],
  GAIN_PENDING_DAP: ['MTD_RECEIVED', 'ON_SUPPLY'],
  MTD_RECEIVED: ['ON_SUPPLY', 'MTD_DISPUTED'],
  // On supply: episodes that come back to ON_SUPPLY, or end in a loss.
  ON_SUPPLY: [
    'OPENING_READ_DISPUTED',
    'MTD_DISPUTED',
    'METER_EXCHANGE_REQUESTED',
    'DE-ENERGISED',
    'DISCONNECTED',
    'ERRONEOUS_GAIN_PROPOSED',
    'ET_REQUESTED',
    'LOSS_REQUESTED',
    'LOSS_PENDING',
  ],
  OPENING_READ_DISPUTED: ['ON_SUPPLY'],
  MTD_DISPUTED: ['ON_SUPPLY'],
  METER_EXCHANGE_REQUESTED: ['ON_SUPPLY'],
  'DE-ENERGISED': ['ON_SUPPLY', 'DISCONNECTED'],
  // Gained in error: handed back, or kept.
  ERRONEOUS_GAIN_PROPOSED: [
    'ERRONEOUS_GAIN_ACCEPTED',
    'ERRONEOUS_GAIN_REJECTED',
    'ERRONEOUS_GAIN_CANCELLED',
  ],
  ERRONEOUS_GAIN_ACCEPTED: ['LOSS_REQUESTED_ERRONEOUS_GAIN'],
  ERRONEOUS_GAIN_REJECTED: ['ON_SUPPLY'],
  ERRONEOUS_GAIN_CANCELLED: ['ON_SUPPLY'],
  LOSS_REQUESTED_ERRONEOUS_GAIN: ['LOSS_PENDING_ERRONEOUS_GAIN'],
  LOSS_PENDING_ERRONEOUS_GAIN: ['LOST_ERRONEOUS_GAIN'],
  // An erroneous transfer the customer disputes.
  ET_REQUESTED: ['ET_ACCEPTED', 'ET_CANCELLED'],
  ET_ACCEPTED: ['ET_LOSS_PENDING', 'ET_CANCELLED'],
  ET_LOSS_PENDING: ['ET_COMPLETED'],
  ET_CANCELLED: ['ON_SUPPLY'],
  // A loss to another supplier, which an objection may stop.
  LOSS_REQUESTED: ['LOSS_PENDING', 'ON_SUPPLY'],
  LOSS_PENDING: ['LOSS_OBJECTION_REQUESTED', 'LOSS_PENDING_DAP', 'LOST', 'ON_SUPPLY'],
  LOSS_OBJECTION_REQUESTED: ['LOSS_OBJECTION_ACCEPTED', 'LOSS_OBJECTION_REMOVAL_REQUESTED'],
  LOSS_OBJECTION_ACCEPTED: ['ON_SUPPLY'],
  LOSS_OBJECTION_REMOVAL_REQUESTED: ['LOSS_PENDING'],
  LOSS_PENDING_DAP: ['LOST'],
  LOST: ['CLOSING_READ_DISPUTE', 'ERRONEOUS_LOSS'],
  CLOSING_READ_DISPUTE: ['LOST'],
  // Lost in error: claimed back, or not.
  ERRONEOUS_LOSS: ['ERRONEOUS_LOSS_PROPOSED'],
  ERRONEOUS_LOSS_PROPOSED: [
    'ERRONEOUS_LOSS_ACCEPTED',
    'ERRONEOUS_LOSS_REJECTED',
    'ERRONEOUS_LOSS_CANCELLED',
  ],
  ERRONEOUS_LOSS_ACCEPTED: ['ON_SUPPLY'],
  ERRONEOUS_LOSS_REJECTED: ['LOST'],
  ERRONEOUS_LOSS_CANCELLED: ['LOST'],
};

/** Whether the adapter may report a move from `from` to `to`. */
export const mayMove = (from: MeterPointStatus, to: MeterPointStatus): boolean =>
  MOVES[from]?.includes(to) ?? false;
