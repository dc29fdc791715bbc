import { describe, expect, it } from 'vitest';
import { joinWithin } from '../../src/turns/join-within.ts';

describe('joinWithin', () => {
  it('joins the pieces when the whole fits the limit, separator included', () => {
    expect(joinWithin(7, ['abc', 'de'], '\n\n')).toBe('abc\n\nde');
    expect(joinWithin(100, ['answer', '-# note'], '\n')).toBe('answer\n-# note');
  });

  it('says nothing when one character more than the limit', () => {
    expect(joinWithin(6, ['abc', 'de'], '\n\n')).toBeUndefined();
  });
});
