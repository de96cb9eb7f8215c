import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/loader/pool.js';

/** A source of `count` numbers that records how many were taken from it. */
function countingSource(count: number) {
  const state = { taken: 0, closed: false };
  async function* source() {
    try {
      for (let i = 0; i < count; i++) {
        state.taken++;
        yield i;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: source() };
}

/** Work that waits until released by the test, so in-flight items can be observed. */
function gatedWork() {
  const waiting: (() => void)[] = [];
  const done: number[] = [];
  const work = (item: number) =>
    new Promise<void>((resolve) => waiting.push(resolve)).then(() => {
      done.push(item);
    });
  const releaseOne = async () => {
    waiting.shift()?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { work, waiting, done, releaseOne };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('runPool', () => {
  it('takes no more items than the workers in flight', async () => {
    const { state, source } = countingSource(1000);
    const gate = gatedWork();
    const run = runPool(source, 4, gate.work);
    await settle();
    expect(state.taken).toBe(4);
    expect(gate.waiting).toHaveLength(4);
    await gate.releaseOne();
    await settle();
    expect(state.taken).toBe(5);
    while (gate.waiting.length > 0) {
      await gate.releaseOne();
      await settle();
      expect(state.taken - gate.done.length).toBeLessThanOrEqual(4);
    }
    await run;
    expect(gate.done).toHaveLength(1000);
  });

  it('stops taking items once stopped, lets in-flight ones finish, and closes the source', async () => {
    const { state, source } = countingSource(1000);
    const gate = gatedWork();
    let stop = false;
    const run = runPool(source, 3, gate.work, () => stop);
    await settle();
    stop = true;
    while (gate.waiting.length > 0) await gate.releaseOne();
    await run;
    expect(gate.done.sort()).toEqual([0, 1, 2]);
    expect(state.taken).toBe(3);
    expect(state.closed).toBe(true);
  });

  it('waits for the other workers, then throws the first failure', async () => {
    const { state, source } = countingSource(100);
    const finished: number[] = [];
    const run = runPool(source, 2, async (item) => {
      if (item === 1) throw new Error('boom');
      await settle();
      finished.push(item);
    });
    await expect(run).rejects.toThrow('boom');
    expect(finished).toEqual([0]);
    expect(state.closed).toBe(true);
  });
});
