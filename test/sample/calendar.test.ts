import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysBetween } from '../../src/sample/calendar.js';

describe('sample calendar', () => {
  it('counts days as the Date object does, across leap years and centuries', () => {
    const start = '1899-12-25';
    const startMs = Date.parse(`${start}T00:00:00Z`);
    for (let days = -400; days < 80_000; days += 7) {
      const expected = new Date(startMs + days * 86_400_000).toISOString().slice(0, 10);
      expect(addDays(start, days)).toBe(expected);
      expect(daysBetween(start, expected)).toBe(days);
    }
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2100-03-01', -1)).toBe('2100-02-28');
  });

  it('moves by months, keeping the day up to the 28th', () => {
    expect(addMonths('2024-01-15', 1)).toBe('2024-02-15');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-28');
    expect(addMonths('2024-11-10', 3)).toBe('2025-02-10');
    expect(addMonths('2024-02-10', -14)).toBe('2022-12-10');
  });
});
