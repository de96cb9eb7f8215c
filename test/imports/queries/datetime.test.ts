import { describe, expect, it } from 'vitest';
import { formatDatetime } from '../../../src/imports/queries/datetime.js';

describe('formatDatetime', () => {
  it('formats to the second in UTC, the same way for every time within a second', () => {
    expect(formatDatetime(Date.UTC(2026, 10, 23, 1, 2, 3, 0))).toBe('2026-11-23T01:02:03Z');
    expect(formatDatetime(Date.UTC(2026, 10, 23, 1, 2, 3, 999))).toBe('2026-11-23T01:02:03Z');
    expect(formatDatetime(Date.UTC(2026, 10, 23, 1, 2, 4, 0))).toBe('2026-11-23T01:02:04Z');
  });

  it('gives each time its own second when they alternate', () => {
    const times = [0, 86_400_000, 999, 1_000, 86_399_999, -1];
    expect(times.map(formatDatetime)).toEqual([
      '1970-01-01T00:00:00Z',
      '1970-01-02T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '1970-01-01T00:00:01Z',
      '1970-01-01T23:59:59Z',
      '1969-12-31T23:59:59Z',
    ]);
  });
});
