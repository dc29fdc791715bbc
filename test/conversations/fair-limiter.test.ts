import { describe, expect, it } from 'vitest';
import { createFairLimiter } from '../../src/conversations/fair-limiter.ts';
import { createThreadQueue } from '../../src/conversations/thread-queue.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the fair LLM limiter', () => {
  it('never exceeds its capacity and reports waiting once per waiting call', async () => {
    const limiter = createFairLimiter(2);
    let active = 0;
    let highest = 0;
    let waits = 0;
    const work = ['a', 'a', 'b', 'b', 'c', 'c'].map((key) =>
      limiter.acquire(key, { onWait: () => waits++ }).then(async (release) => {
        active++;
        highest = Math.max(highest, active);
        await tick();
        active--;
        release();
      }),
    );
    await Promise.all(work);
    expect(highest).toBe(2);
    expect(waits).toBe(4);
    expect(limiter.active()).toBe(0);
    expect(limiter.waiting()).toBe(0);
  });

  it('round-robins between threads instead of draining one thread first', async () => {
    const limiter = createFairLimiter(1);
    const hold = await limiter.acquire('x');
    const order: string[] = [];
    const names = ['a1', 'a2', 'a3', 'b1', 'c1'];
    const done = names.map((name) =>
      limiter.acquire(name[0]!).then(async (release) => {
        order.push(name);
        await tick();
        release();
      }),
    );
    hold();
    await Promise.all(done);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    expect(limiter.active()).toBe(0);
  });

  it('drops a waiter whose signal aborts', async () => {
    const limiter = createFairLimiter(1);
    const hold = await limiter.acquire('a');
    const controller = new AbortController();
    const waiting = limiter.acquire('b', { signal: controller.signal });
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    expect(limiter.waiting()).toBe(0);
    hold();
    expect(limiter.active()).toBe(0);
  });
});

describe('the per-thread queue', () => {
  it('runs one task per thread at a time, in arrival order, and never drops one', async () => {
    const queue = createThreadQueue();
    const log: string[] = [];
    const positions: number[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const one = queue.run('t', task('one', true));
    const two = queue.run('t', task('two'), (position) => positions.push(position));
    const other = queue.run('u', task('other'));
    await expect(one).rejects.toThrow('one');
    await expect(two).resolves.toBe('two');
    await expect(other).resolves.toBe('other');
    expect(positions).toEqual([1]);
    expect(log.indexOf('end one')).toBeLessThan(log.indexOf('start two'));
    expect(log.indexOf('start other')).toBeLessThan(log.indexOf('end one'));
    await queue.idle();
    expect(queue.size()).toBe(0);
  });
});
