import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../../src/loader/adaptive-limit.js';

describe('AdaptiveLimit', () => {
  it('halves on each 429 down to one, and grows back by one after a run of successes', () => {
    const gate = new AdaptiveLimit(8);
    expect(gate.current).toBe(8);
    for (const expected of [4, 2, 1, 1]) {
      void gate.acquire();
      gate.release('busy');
      expect(gate.current).toBe(expected);
    }
    for (let i = 0; i < 4; i++) {
      void gate.acquire();
      gate.release('ok');
    }
    expect(gate.current).toBe(2);
  });

  it('holds callers beyond the limit until a slot is free', async () => {
    const gate = new AdaptiveLimit(1);
    await gate.acquire();
    let second = false;
    const waiting = gate.acquire().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    gate.release('ok');
    await waiting;
    expect(second).toBe(true);
  });
});
