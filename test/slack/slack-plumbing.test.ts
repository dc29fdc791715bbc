import { describe, expect, it } from 'vitest';
import { createInFlightWork } from '../../src/adapters/shared/in-flight-work.ts';
import { createStatusFirstGate } from '../../src/adapters/slack/status-first-gate.ts';

describe('status-first gate', () => {
  it('holds turns while statuses are being posted and releases them when the last one is', async () => {
    const gate = createStatusFirstGate();
    const first = gate.posting();
    const second = gate.posting();
    let released = false;
    const waiting = gate.clear(60_000).then(() => {
      released = true;
    });
    first();
    first(); // idempotent
    await Promise.resolve();
    expect(released).toBe(false);
    second();
    await waiting;
    expect(released).toBe(true);
    await gate.clear(60_000); // nothing pending: immediate
  });

  it('never holds a turn longer than the bound', async () => {
    const gate = createStatusFirstGate();
    gate.posting();
    await gate.clear(5);
  });
});

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
