import { describe, expect, it } from 'vitest';
import { threadTitle } from '../../src/turns/thread-title.ts';

describe('the title of a thread started for a question', () => {
  it('is the first line without formatting marks, or says whose question it is', () => {
    expect(threadTitle('\n  \n# **Where** is `x`?\nsecond line', 'ana', 50)).toBe('Where is x?');
    expect(threadTitle('**__**', 'ana', 50)).toBe('Question from ana');
  });

  it('is cut to the limit by code point, never half an emoji', () => {
    const title = threadTitle(`${'a'.repeat(8)}👍👍👍`, 'ana', 10);
    expect(Array.from(title)).toHaveLength(10);
    expect(title).toBe(`${'a'.repeat(8)}👍…`);
    expect(threadTitle('a'.repeat(10), 'ana', 10)).toBe('a'.repeat(10));
  });
});
