/**
 * The platform budgets under many answers at once: the first text of every answer goes out before
 * later edits of the others, and text appended to a native stream draws from its own budget.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReplySurface } from '../../src/core/chat-platform.ts';
import { streamAnswer } from '../../src/turns/streamed-answer.ts';
import { createRateBudget } from '../../src/turns/throttled-status.ts';

/** A surface that records what it showed, in order, under `name`. */
function recordingSurface(name: string, shown: string[], nextTextIsEdit = true): ReplySurface {
  return {
    location: { name },
    nextTextIsEdit,
    showStatus: async (status) => {
      shown.push(`${name} status ${status.kind === 'working' ? status.line : ''}`);
    },
    showText: async (text) => {
      shown.push(`${name} text ${text}`);
    },
    finish: async () => {},
  };
}

const answerOptions = { statusIntervalMs: 0, textIntervalMs: 0, onError: () => {}, onMoved: async () => {} };

describe('first text first', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a streaming answer's later edits never take the tokens the first texts of waiting answers need", async () => {
    const shown: string[] = [];
    // Four tokens, then one a second.
    const budget = createRateBudget(60, 4);
    const streaming = streamAnswer(recordingSurface('a', shown), { ...answerOptions, budget });
    const waiting = ['b', 'c'].map((name) =>
      streamAnswer(recordingSurface(name, shown), { ...answerOptions, budget }),
    );
    streaming.write('a1');
    for (let piece = 2; piece <= 6; piece++) {
      await vi.advanceTimersByTimeAsync(10);
      streaming.write(`a${piece}`);
    }
    await vi.advanceTimersByTimeAsync(10);
    // a's first text and one later edit; the other two tokens stay for b and c.
    expect(shown).toEqual(['a text a1', 'a text a2']);
    for (const [index, answer] of waiting.entries()) answer.write(`${'bc'[index]}1`);
    await vi.advanceTimersByTimeAsync(10);
    expect(shown).toEqual(['a text a1', 'a text a2', 'b text b1', 'c text c1']);
    // Nobody waits any more: a's latest text follows when the bucket refills.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(shown.at(-1)).toBe('a text a6');
    for (const answer of [streaming, ...waiting]) await answer.settle();
  });

  it('an answer that never shows text gives its claim back when it settles', async () => {
    const shown: string[] = [];
    const budget = createRateBudget(60, 3);
    const clarifying = streamAnswer(recordingSurface('a', shown), { ...answerOptions, budget });
    // One held of three: a status takes two at most.
    expect([budget.tryTake(), budget.tryTake(), budget.tryTake()]).toEqual([true, true, false]);
    await clarifying.settle();
    expect(budget.tryTake()).toBe(true);
  });

  it('text sent without an edit (a stream append) draws from the stream budget while the edit budget is spent', async () => {
    const shown: string[] = [];
    const budget = createRateBudget(60, 1);
    const streamBudget = createRateBudget(6_000, 20);
    const answer = streamAnswer(recordingSurface('a', shown, false), {
      ...answerOptions,
      budget,
      streamBudget,
    });
    answer.status({ kind: 'working', line: 'searching' });
    await vi.advanceTimersByTimeAsync(10);
    expect(shown).toEqual(['a status searching']);
    answer.status({ kind: 'working', line: 'reading' });
    await vi.advanceTimersByTimeAsync(10);
    // The edit budget is spent: the status is skipped, the text is not.
    answer.write('one');
    await vi.advanceTimersByTimeAsync(10);
    answer.write('one two');
    await vi.advanceTimersByTimeAsync(10);
    expect(shown).toEqual(['a status searching', 'a text one', 'a text one two']);
    expect(budget.tryTake()).toBe(false);
    await answer.settle();
  });
});
