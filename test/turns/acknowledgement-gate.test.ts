import { describe, expect, it } from 'vitest';
import { createAcknowledgementGate } from '../../src/turns/acknowledgement-gate.ts';

describe('acknowledgement gate (statuses and threads before graph work)', () => {
  it('holds turns while acknowledgements are being sent and releases them when the last one is', async () => {
    const gate = createAcknowledgementGate();
    await gate.clear(60_000); // nothing pending: immediate
    const first = gate.begin();
    const second = gate.begin();
    expect(gate.busy()).toBe(true);
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
    expect(gate.busy()).toBe(false);
    await gate.clear(60_000);
  });

  it('never holds a turn longer than the bound', async () => {
    const gate = createAcknowledgementGate();
    // An acknowledgement that never finishes holds turns back only until the bound.
    gate.begin();
    await expect(gate.clear(20)).resolves.toBeUndefined();
  });
});
