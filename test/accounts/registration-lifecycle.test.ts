/**
 * The registration lifecycle's table holds together: it names published statuses only, never
 * lets a report reach REGISTRATION_REQUESTED, and gives every status a send refuses a reason.
 */
import { describe, expect, it } from 'vitest';
import {
  isSendable,
  mayMove,
  METER_POINT_STATUSES,
  MOVES,
  notSendableReason,
  REQUESTED,
  SENDABLE,
  startingStatus,
  type MeterPointStatus,
} from '../../src/accounts/registration-lifecycle.js';

const moves = Object.entries(MOVES) as [MeterPointStatus, readonly MeterPointStatus[]][];

describe('the registration lifecycle', () => {
  it('has the 49 published statuses, each once', () => {
    expect(METER_POINT_STATUSES).toHaveLength(49);
    expect(new Set(METER_POINT_STATUSES).size).toBe(49);
  });

  it('names only published statuses, and no move to the same status', () => {
    for (const [from, targets] of moves) {
      expect(METER_POINT_STATUSES).toContain(from);
      for (const to of targets) {
        expect(METER_POINT_STATUSES).toContain(to);
        expect(to).not.toBe(from);
      }
      expect(new Set(targets).size).toBe(targets.length);
    }
  });

  it('lets no report move a meter point to REGISTRATION_REQUESTED', () => {
    for (const from of METER_POINT_STATUSES) expect(mayMove(from, REQUESTED)).toBe(false);
  });

  it('moves a sendable status by a report only to another sendable one', () => {
    // What lets a send that lost a race report "already sent" (registrations.service.ts).
    for (const from of SENDABLE) {
      for (const to of MOVES[from] ?? []) expect(isSendable(to), `${from} -> ${to}`).toBe(true);
    }
  });

  it('reaches every status from a starting status', () => {
    const reached = new Set<MeterPointStatus>([startingStatus(true), startingStatus(false)]);
    const next = (status: MeterPointStatus) => [
      ...(MOVES[status] ?? []),
      ...(isSendable(status) ? [REQUESTED] : []),
    ];
    for (let grew = true; grew;) {
      grew = false;
      for (const status of [...reached]) {
        for (const to of next(status)) {
          if (!reached.has(to)) {
            reached.add(to);
            grew = true;
          }
        }
      }
    }
    expect([...reached].sort()).toEqual([...METER_POINT_STATUSES].sort());
  });

  it('starts PRE_REGISTRATION when flows are sent, ON_SUPPLY otherwise', () => {
    expect(startingStatus(true)).toBe('PRE_REGISTRATION');
    expect(startingStatus(false)).toBe('ON_SUPPLY');
    expect(isSendable('PRE_REGISTRATION')).toBe(true);
    expect(isSendable('ON_SUPPLY')).toBe(false);
  });

  it.each([
    ['REGISTRATION_REQUESTED', /already sent/],
    ['UNDERGOING_REGISTRATION', /under way/],
    ['MTD_RECEIVED', /under way/],
    ['LOST', /lost or taken off supply/],
    ['DISCONNECTED', /lost or taken off supply/],
    ['ON_SUPPLY', /already supplied/],
    ['DE-ENERGISED', /already supplied/],
  ] as const)('says why no flow is sent from %s', (status, reason) => {
    expect(isSendable(status)).toBe(false);
    expect(notSendableReason(status)).toMatch(reason);
  });
});
