import { describe, expect, it } from 'vitest';
import { CreationSlots } from '../../../src/imports/creation/creation-slots.js';
import { gate } from '../../helpers/gate.js';

describe('creation slots', () => {
  it('refuses a creation beyond the limit at once and frees the slot when one ends', async () => {
    const slots = new CreationSlots(2);
    const first = gate();
    const second = gate();
    const running = [
      slots.run(async () => (await first.opened, 'first')),
      slots.run(async () => (await second.opened, 'second')),
    ];
    expect(slots.taken).toBe(2);
    let ran = false;
    expect(await slots.run(async () => (ran = true))).toBeUndefined();
    expect(ran).toBe(false);

    first.open();
    expect(await running[0]).toEqual({ value: 'first' });
    expect(slots.taken).toBe(1);
    expect(await slots.run(async () => 'third')).toEqual({ value: 'third' });
    second.open();
    expect(await running[1]).toEqual({ value: 'second' });
    expect(slots.taken).toBe(0);
  });

  it('frees the slot when the creation fails', async () => {
    const slots = new CreationSlots(1);
    await expect(
      slots.run(async () => {
        throw new Error('creation failed');
      }),
    ).rejects.toThrow('creation failed');
    expect(slots.taken).toBe(0);
    expect(await slots.run(async () => 1)).toEqual({ value: 1 });
  });

  it('never refuses when the limit is disabled (0)', async () => {
    const slots = new CreationSlots(0);
    const held = gate();
    const running = Array.from({ length: 50 }, () => slots.run(() => held.opened));
    expect(slots.taken).toBe(50);
    expect(await slots.run(async () => 'more')).toEqual({ value: 'more' });
    held.open();
    await Promise.all(running);
    expect(slots.taken).toBe(0);
  });
});
