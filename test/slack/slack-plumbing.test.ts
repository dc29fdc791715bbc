import { describe, expect, it } from 'vitest';
import { createInFlightWork } from '../../src/adapters/shared/in-flight-work.ts';
import { createEditBudget } from '../../src/adapters/slack/edit-budget.ts';

describe('in-flight work', () => {
  it('drains finished work, reports unfinished work after the bound, and never leaks a rejection', async () => {
    const work = createInFlightWork();
    const errors: unknown[] = [];
    let finish: () => void = () => {};
    work.run(
      () => new Promise<void>((resolve) => (finish = resolve)),
      (error) => errors.push(error),
    );
    work.run(
      () => Promise.reject(new Error('boom')),
      (error) => errors.push(error),
    );
    expect(await work.drain(5)).toBe(false);
    finish();
    expect(await work.drain(60_000)).toBe(true);
    expect(work.size).toBe(0);
    expect(errors).toEqual([new Error('boom')]);
  });
});

describe('progress edit budget', () => {
  it('allows a burst, then about `perMinute` edits a minute, skipping the rest', () => {
    let now = 0;
    const budget = createEditBudget(40, 10, () => now);
    const burst = Array.from({ length: 15 }, () => budget.tryTake());
    expect(burst.filter(Boolean)).toHaveLength(10);
    now += 1_500; // 40/min = one token per 1.5 s
    expect(budget.tryTake()).toBe(true);
    expect(budget.tryTake()).toBe(false);
    now += 60_000 * 10;
    expect(Array.from({ length: 12 }, () => budget.tryTake()).filter(Boolean)).toHaveLength(10);
  });
});
