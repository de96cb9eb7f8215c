/**
 * The sharing rule of SharedLookups, with a query function the test controls: which requests
 * share a query, and that none shares one sent before it asked. The same rule on the real
 * caller checks, on both databases, is in test/imports/caller-checks.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SharedLookups } from '../../src/db/shared-lookups.js';
import { gate } from '../helpers/gate.js';

/** A lookup whose queries record their arguments and finish when the test opens their gate. */
function controlledLookups() {
  const sent: { args: string[]; finish: () => void }[] = [];
  let answer = 'first';
  const lookups = new SharedLookups(async (...args: string[]) => {
    const { open, opened } = gate();
    sent.push({ args, finish: open });
    await opened;
    // The answer is read when the query finishes, as a database reads at execution.
    return `${answer}:${args.join(',')}`;
  });
  return { lookups, sent, setAnswer: (value: string) => (answer = value) };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('shared lookups', () => {
  it('answers the requests of one turn with one query per key', async () => {
    const { lookups, sent } = controlledLookups();
    const asked = [
      lookups.lookup('a', 'a'),
      lookups.lookup('a', 'a'),
      lookups.lookup('b', 'b'),
      lookups.lookup('a', 'a'),
    ];
    expect(sent).toHaveLength(0);
    await nextTurn();
    expect(sent.map((query) => query.args)).toEqual([['a'], ['b']]);
    sent.forEach((query) => query.finish());
    expect(await Promise.all(asked)).toEqual(['first:a', 'first:a', 'first:b', 'first:a']);
    expect(lookups.queriesSent).toBe(2);
  });

  it('never lets a request share a query sent before it asked', async () => {
    const { lookups, sent, setAnswer } = controlledLookups();
    const early = lookups.lookup('k', 'k');
    await nextTurn();
    expect(sent).toHaveLength(1);

    // Asked while the first query runs: it waits for a query of its own.
    const late = lookups.lookup('k', 'k');
    const later = lookups.lookup('k', 'k');
    await nextTurn();
    expect(sent).toHaveLength(1);

    setAnswer('second');
    sent[0]?.finish();
    expect(await early).toBe('second:k');
    await nextTurn();
    // The waiting batch went out when the first query ended, and both late requests share it.
    expect(sent).toHaveLength(2);
    setAnswer('third');
    sent[1]?.finish();
    expect(await Promise.all([late, later])).toEqual(['third:k', 'third:k']);
  });

  it('keeps a key waiting while its query runs, even when another key flushes', async () => {
    const { lookups, sent } = controlledLookups();
    const first = lookups.lookup('k', 'k');
    await nextTurn();
    const late = lookups.lookup('k', 'k');
    const other = lookups.lookup('o', 'o');
    await nextTurn();
    // o went out at the end of the turn; k's second query waits for its first to end.
    expect(sent.map((query) => query.args)).toEqual([['k'], ['o']]);
    sent[0]?.finish();
    await first;
    await nextTurn();
    expect(sent.map((query) => query.args)).toEqual([['k'], ['o'], ['k']]);
    sent[1]?.finish();
    sent[2]?.finish();
    expect(await Promise.all([late, other])).toEqual(['first:k', 'first:o']);
  });

  it('gives every request of a failed query the error, and later requests a new query', async () => {
    let calls = 0;
    const lookups = new SharedLookups(async (key: string) => {
      calls++;
      if (calls === 1) throw new Error('database unavailable');
      return key;
    });
    const failed = await Promise.allSettled([lookups.lookup('k', 'k'), lookups.lookup('k', 'k')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toContain('database unavailable');
    expect(await lookups.lookup('k', 'k')).toBe('k');
    expect(calls).toBe(2);
  });

  it('turns a query function that throws synchronously into a refusal', async () => {
    const lookups = new SharedLookups((): Promise<string> => {
      throw new Error('bad arguments');
    });
    await expect(lookups.lookup('k')).rejects.toThrow('bad arguments');
    // The key is free again afterwards.
    await expect(lookups.lookup('k')).rejects.toThrow('bad arguments');
  });

  it('runs the queries of different keys side by side', async () => {
    const { lookups, sent } = controlledLookups();
    const a = lookups.lookup('a', 'a');
    await nextTurn();
    const b = lookups.lookup('b', 'b');
    await nextTurn();
    // b did not wait for a's query, which is still running.
    expect(sent.map((query) => query.args)).toEqual([['a'], ['b']]);
    sent[1]?.finish();
    expect(await b).toBe('first:b');
    sent[0]?.finish();
    expect(await a).toBe('first:a');
  });
});
