/** A forum post as one question: title, tags (at most five), then the first message unless it repeats the title. */
import { describe, expect, it } from 'vitest';
import { forumPostQuestion } from '../../src/turns/forum-post-question.ts';

describe('a forum post as a question', () => {
  it('joins the title, the tags and the first message', () => {
    expect(
      forumPostQuestion({ title: ' Build fails ', tags: ['ci', 'bash'], firstMessage: 'exit code 2' }),
    ).toBe('Build fails\nTags: ci, bash\nexit code 2');
  });

  it('leaves out a first message that repeats the title, no tags, and tags past the fifth', () => {
    expect(forumPostQuestion({ title: 'Loops?', tags: [], firstMessage: 'Loops?' })).toBe('Loops?');
    expect(forumPostQuestion({ title: 'T', tags: ['a', 'b', 'c', 'd', 'e', 'f'], firstMessage: '' })).toBe(
      'T\nTags: a, b, c, d, e',
    );
  });
});
