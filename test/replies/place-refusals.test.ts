import { describe, expect, it } from 'vitest';
import { PlaceRefusals } from '../../src/replies/place-refusals.ts';

describe('what a platform refused where, learnt once', () => {
  it('remembers each refusal for its feature and place alone', () => {
    const refusals = new PlaceRefusals();
    refusals.learn('stream', 'C1');
    expect(refusals.refuses('stream', 'C1')).toBe(true);
    expect(refusals.refuses('stream', 'C2')).toBe(false);
    expect(refusals.refuses('plan', 'C1')).toBe(false);
    refusals.learn('richer-form', 'C2');
    expect(refusals.refuses('richer-form', 'C2')).toBe(true);
    expect(refusals.refuses('stream', 'C2')).toBe(false);
  });

  it("keeps a place's first status line try: later tries wait for it rather than replace it", async () => {
    const refusals = new PlaceRefusals();
    expect(refusals.statusLineTry('C1')).toBeUndefined();
    refusals.tryingStatusLine('C1', Promise.resolve(false));
    refusals.tryingStatusLine('C1', Promise.resolve(true));
    expect(await refusals.statusLineTry('C1')).toBe(false);
    expect(refusals.statusLineTry('C2')).toBeUndefined();
  });
});
