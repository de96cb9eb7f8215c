import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../src/payload/dates.js';

describe('isCalendarDate', () => {
  it('knows a real date from a date-shaped string', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00:00Z', '']) {
      expect(isCalendarDate(bad)).toBe(false);
    }
  });
});
