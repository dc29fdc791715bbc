/**
 * A delivery's receipt held until the turn is safe: sent when the listeners are done, or when the
 * listener that held it releases it, or at the latest after the platform's deadline — exactly once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdReceipt, withHeldReceipt } from '../../src/turns/held-receipts.ts';

describe('held delivery receipts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the receipt once the listeners are done when none held it', async () => {
    const sent: string[] = [];
    await withHeldReceipt(
      () => sent.push('receipt'),
      2_500,
      async () => {
        expect(sent).toEqual([]);
      },
    );
    expect(sent).toEqual(['receipt']);
  });

  it('waits for the listener that held it, then sends it once', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    await withHeldReceipt(
      () => sent.push('receipt'),
      2_500,
      async () => {
        release = holdReceipt();
      },
    );
    expect(sent).toEqual([]);
    release();
    release();
    expect(sent).toEqual(['receipt']);
  });

  it('sends it anyway at the deadline, and not again on release', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    let release: () => void = () => {};
    await withHeldReceipt(
      () => sent.push('receipt'),
      2_500,
      async () => {
        release = holdReceipt();
      },
    );
    vi.advanceTimersByTime(2_499);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['receipt']);
    release();
    expect(sent).toEqual(['receipt']);
  });

  it('holds nothing outside a delivery', () => {
    expect(() => holdReceipt()()).not.toThrow();
  });
});
