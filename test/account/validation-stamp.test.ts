import { describe, expect, it } from 'vitest';
import {
  dayBetween,
  rulesRevision,
  utcDay,
  validationStamp,
  type ValidationInputs,
} from '../../src/account/validation-stamp.js';

const INPUTS: ValidationInputs = {
  platformVersion: '4.2',
  rule: { phoneRegion: 'GB', settings: '{}' },
  day: '2026-11-27',
};

describe('validation stamps', () => {
  it('are the same for the same inputs, and differ when any input does', () => {
    const stamp = validationStamp(INPUTS);
    expect(validationStamp({ ...INPUTS, rule: { ...INPUTS.rule } })).toBe(stamp);
    const others = [
      { ...INPUTS, platformVersion: '5.2' },
      { ...INPUTS, platformVersion: '4.3' },
      { ...INPUTS, day: '2026-11-28' },
      { ...INPUTS, rule: { phoneRegion: 'IE', settings: '{}' } },
      { ...INPUTS, rule: { phoneRegion: 'GB', settings: '{"enforce_business_contracts":true}' } },
    ].map(validationStamp);
    expect(new Set([stamp, ...others]).size).toBe(others.length + 1);
  });

  it('do not run fields together: each input is kept apart from the next', () => {
    const a = validationStamp({ ...INPUTS, platformVersion: '4.2', day: '12026-11-27' });
    const b = validationStamp({ ...INPUTS, platformVersion: '4.21', day: '2026-11-27' });
    expect(a).not.toBe(b);
  });

  it('carry the revision of the rules code, read once per process', () => {
    expect(rulesRevision()).toMatch(/^[\w-]{43}$/);
    expect(rulesRevision()).toBe(rulesRevision());
  });

  it('know the day of a validation unless a UTC midnight fell during it', () => {
    const lastMoment = Date.parse('2026-11-27T23:59:59.999Z');
    expect(utcDay(lastMoment)).toBe('2026-11-27');
    expect(dayBetween(lastMoment - 5, lastMoment)).toBe('2026-11-27');
    expect(dayBetween(lastMoment, lastMoment + 1)).toBeUndefined();
  });
});
