import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReplySurface, Status } from '../../src/core/chat-platform.ts';
import { createRateBudget, shareOf, throttleStatus } from '../../src/turns/throttled-status.ts';

const working = (line: string): Status => ({ kind: 'working', line });

/** A surface whose status edits take `editMs` each and are recorded with whether they overlapped. */
function recordingSurface(editMs: number) {
  const shown: string[] = [];
  let running = 0;
  let overlapped = false;
  const surface: ReplySurface = {
    location: {},
    showStatus: async (status) => {
      running++;
      overlapped ||= running > 1;
      await new Promise((resolve) => setTimeout(resolve, editMs));
      shown.push(status.kind === 'working' ? status.line : 'ingest');
      running--;
    },
    finish: async () => {},
  };
  return { surface, shown, overlapped: () => overlapped };
}

describe('throttled status edits', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the latest status at most once per interval, never overlapping, nothing after settling', async () => {
    const { surface, shown, overlapped } = recordingSurface(5);
    const status = throttleStatus(surface, {
      intervalMs: 30,
      budget: createRateBudget(6_000, 100),
      onError: () => {},
    });
    // Opened just now: the first edit waits its interval, and newer statuses replace the pending one.
    status.show(working('one'));
    status.show(working('two'));
    await vi.advanceTimersByTimeAsync(10);
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(30);
    expect(shown).toEqual(['two']);
    status.show(working('three'));
    status.show(working('three'));
    await vi.advanceTimersByTimeAsync(40);
    status.show(working('three'));
    status.show(working('four'));
    const settled = status.settle();
    await vi.advanceTimersByTimeAsync(100);
    await settled;
    status.show(working('five'));
    await vi.advanceTimersByTimeAsync(100);
    expect(shown).toEqual(['two', 'three']);
    expect(overlapped()).toBe(false);
  });

  it('skips progress while the shared budget is spent, and while acknowledgements go first', async () => {
    const { surface, shown } = recordingSurface(0);
    const budget = createRateBudget(60, 1);
    let yielding = true;
    const first = throttleStatus(surface, {
      intervalMs: 0,
      budget,
      onError: () => {},
      yielding: () => yielding,
    });
    first.show(working('yielded'));
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toEqual([]);
    yielding = false;
    first.show(working('a'));
    await vi.advanceTimersByTimeAsync(1);
    // The one token is spent: another surface of the same platform is skipped.
    const second = throttleStatus(surface, { intervalMs: 0, budget, onError: () => {} });
    second.show(working('b'));
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toEqual(['a']);
    // A token a second (60 a minute): later progress gets through again.
    await vi.advanceTimersByTimeAsync(1_000);
    second.show(working('c'));
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toEqual(['a', 'c']);
  });

  it('reports a failed edit and goes on', async () => {
    const errors: unknown[] = [];
    const surface: ReplySurface = {
      location: {},
      showStatus: () => Promise.reject(new Error('message deleted')),
      finish: async () => {},
    };
    const status = throttleStatus(surface, {
      intervalMs: 0,
      budget: createRateBudget(6_000, 10),
      onError: (error) => errors.push(error),
    });
    status.show(working('x'));
    await vi.advanceTimersByTimeAsync(1);
    await status.settle();
    expect(errors).toEqual([new Error('message deleted')]);
  });
});

describe('rate budget', () => {
  it('allows a burst, then about `perMinute` edits a minute, skipping the rest', () => {
    let now = 0;
    const budget = createRateBudget(40, 10, () => now);
    const burst = Array.from({ length: 15 }, () => budget.tryTake());
    expect(burst.filter(Boolean)).toHaveLength(10);
    now += 1_500; // 40/min = one token per 1.5 s
    expect(budget.tryTake()).toBe(true);
    expect(budget.tryTake()).toBe(false);
    now += 60_000 * 10;
    expect(Array.from({ length: 12 }, () => budget.tryTake()).filter(Boolean)).toHaveLength(10);
  });

  it('counts replies that go out regardless, so progress leaves room for them (at most a burst of debt)', () => {
    let now = 0;
    const budget = createRateBudget(40, 10, () => now);
    for (let i = 0; i < 25; i++) budget.charge();
    // 10 in debt (not 15): it takes 11 tokens' time (16.5 s) before the next progress edit.
    now += 15_000;
    expect(budget.tryTake()).toBe(false);
    now += 1_500;
    expect(budget.tryTake()).toBe(true);
    expect(budget.tryTake()).toBe(false);
  });

  it('keeps tokens for answers waiting for their first text: later edits leave them, at most all but two', () => {
    let now = 0;
    const budget = createRateBudget(60, 5, () => now);
    const first = [budget.holdForFirst(), budget.holdForFirst()];
    // Two held: of five tokens, later edits take three and leave two.
    expect(Array.from({ length: 5 }, () => budget.tryTake()).filter(Boolean)).toHaveLength(3);
    expect(budget.tryTakeFirst()).toBe(true);
    first[0]?.release();
    expect(budget.tryTakeFirst()).toBe(true);
    first[1]?.release();
    expect(budget.tryTakeFirst()).toBe(false);
    now += 1_000;
    expect(budget.tryTake()).toBe(true);
    // More holders than the burst: later edits still get two tokens of a full bucket.
    now += 60_000;
    const many = Array.from({ length: 10 }, () => budget.holdForFirst());
    expect(Array.from({ length: 5 }, () => budget.tryTake()).filter(Boolean)).toHaveLength(2);
    for (const hold of many) {
      hold.release();
      hold.release();
    }
    expect(budget.tryTake()).toBe(true);
  });

  it('takes this replica’s share of the budget: half of it with two live replicas, all again alone', () => {
    let now = 0;
    let share = 1 / 2;
    const budget = createRateBudget(
      40,
      10,
      () => now,
      () => share,
    );
    // Half the burst …
    expect(Array.from({ length: 10 }, () => budget.tryTake()).filter(Boolean)).toHaveLength(5);
    // … and half the rate: 20/min = one token per 3 s, not per 1.5 s.
    now += 1_500;
    expect(budget.tryTake()).toBe(false);
    now += 1_500;
    expect(budget.tryTake()).toBe(true);
    expect(budget.tryTake()).toBe(false);
    // The other replica went: the whole budget again.
    share = 1;
    now += 60_000;
    expect(Array.from({ length: 12 }, () => budget.tryTake()).filter(Boolean)).toHaveLength(10);
  });
});

describe('shareOf', () => {
  it('divides a platform limit among replicas, never below the floor', () => {
    expect(shareOf(50, 1 / 2)).toBe(25);
    expect(shareOf(50, 1 / 3)).toBeCloseTo(16.67, 2);
    expect(shareOf(50, 1 / 100)).toBe(1);
    expect(shareOf(600, 1 / 1000, 0)).toBeCloseTo(0.6, 5);
  });
});
