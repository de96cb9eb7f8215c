import { describe, expect, it } from 'vitest';
import { formatDuration, progressLine } from '../../src/loader/progress.js';
import { Tally } from '../../src/loader/tally.js';

function tally(): Tally {
  const t = new Tally();
  t.read = 300;
  t.staged = 260;
  t.created = 250;
  t.skippedCompleted = 40;
  t.failedByStep.stage = 10;
  return t;
}

describe('progress line', () => {
  it('shows counts, rate and ETA when the total is known', () => {
    expect(progressLine(tally(), 10_000, 1000)).toBe(
      '300/1000 30% | staged 260 | created 250 | failed 10 | skipped 40 | 30.0/s | ETA 0:23',
    );
    expect(progressLine(tally(), 10_000, 1000, true)).toMatch(/^\[######\.+\] 300\/1000 30%/);
  });

  it('shows no ETA without a total', () => {
    expect(progressLine(tally(), 10_000, undefined)).toBe(
      '300 done | staged 260 | created 250 | failed 10 | skipped 40 | 30.0/s',
    );
  });

  it('formats durations', () => {
    expect([5, 65, 3600 + 62].map(formatDuration)).toEqual(['0:05', '1:05', '1:01:02']);
  });
});
