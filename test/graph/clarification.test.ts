import { afterEach, describe, expect, it } from 'vitest';
import { fallbackClarification } from '../../src/graph/prompts.ts';
import { createHarness, type Harness, requestText } from './graph-harness.ts';

const unclear = (question: string) => ({
  content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: question }),
});
const clear = (question: string) => ({
  content: JSON.stringify({ isClear: true, questions: [question], clarificationNeeded: '' }),
});

describe('clarification rounds', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('interrupts with a question, then resumes with the reply and answers', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) =>
      requestText(request).includes('Clarification 1')
        ? clear('How does the bash while loop work?')
        : unclear('Which loop do you mean: while or until?');
    const first = await harness.ask('How does it loop?');
    expect(first).toEqual({ kind: 'clarification', question: 'Which loop do you mean: while or until?' });
    expect(harness.events.map((event) => event.type)).toContain('clarifying');

    const second = await harness.ask('the while loop');
    expect(second.kind).toBe('answer');
    if (second.kind === 'answer')
      expect(second.answer.subQuestions).toEqual(['How does the bash while loop work?']);
    const resumedPrompt = requestText(harness.requestsOf('rewrite').at(-1)!);
    expect(resumedPrompt).toContain('User message:\nHow does it loop?');
    expect(resumedPrompt).toContain('replied "the while loop"');
    // The summary step ran once: the resume continues at the interrupt, it does not start a new turn.
    expect(harness.requestsOf('rewrite')).toHaveLength(2);
  });

  it('keeps the clarification when answering the reply fails, so the next message carries on', async () => {
    harness = await createHarness();
    let failRewrite = false;
    harness.scripts.rewrite = (request) => {
      if (failRewrite) return { fail: 'http-500' };
      return requestText(request).includes('Clarification 1')
        ? clear('How does the bash while loop work?')
        : unclear('Which loop do you mean: while or until?');
    };
    expect((await harness.ask('How does it loop?')).kind).toBe('clarification');
    failRewrite = true;
    await expect(harness.ask('the while loop')).rejects.toMatchObject({ code: 'OLLAMA_FAILED' });
    failRewrite = false;
    const retried = await harness.ask('the while loop, please');
    expect(retried.kind).toBe('answer');
    const prompt = requestText(harness.requestsOf('rewrite').at(-1)!);
    expect(prompt).toContain('User message:\nHow does it loop?');
    expect(prompt).toContain('replied "the while loop"');
    expect(prompt).toContain('replied "the while loop, please"');

    // Once answered, the next message is a fresh turn again.
    harness.scripts.rewrite = () => clear('How does the bash until loop work?');
    expect((await harness.ask('What about until?')).kind).toBe('answer');
    expect(requestText(harness.requestsOf('rewrite').at(-1)!)).not.toContain('Clarification 1');
  });

  it('takes the message itself as the question when the model says clear but lists none', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = () => ({ content: JSON.stringify({ isClear: true, questions: ['  '] }) });
    const result = await harness.ask('How does a while loop work?');
    expect(result.kind).toBe('answer');
    if (result.kind === 'answer') expect(result.answer.subQuestions).toEqual(['How does a while loop work?']);
  });

  it('resumes a pending clarification after a restart on the same database', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = (request) =>
      requestText(request).includes('Clarification 1')
        ? clear('How does the bash while loop work?')
        : unclear('Which loop do you mean: while or until?');
    expect((await harness.ask('How does it loop?')).kind).toBe('clarification');
    await harness.restart();
    expect(await harness.conversations.hasThread('cli:test')).toBe(true);
    const resumed = await harness.ask('the while loop');
    expect(resumed.kind).toBe('answer');
    expect(requestText(harness.requestsOf('rewrite').at(-1)!)).toContain('replied "the while loop"');
  });

  it('accumulates rounds, uses a fixed question when the model gives none, and stops politely after the limit', async () => {
    harness = await createHarness({ environment: { RAGENT_MAX_CLARIFICATIONS: '2' } });
    harness.scripts.rewrite = () => unclear('?');
    const first = await harness.ask('hm');
    expect(first).toEqual({ kind: 'clarification', question: fallbackClarification });
    expect((await harness.ask('not sure')).kind).toBe('clarification');
    const stop = await harness.ask('still not sure');
    expect(stop.kind).toBe('stopped');
    if (stop.kind === 'stopped') expect(stop.message).toMatch(/2 clarifications/);
    const lastPrompt = requestText(harness.requestsOf('rewrite').at(-1)!);
    expect(lastPrompt).toContain('replied "not sure"');
    expect(lastPrompt).toContain('replied "still not sure"');

    // The next message starts a fresh turn with no leftover rounds.
    harness.scripts.rewrite = () => clear('How does the while loop work?');
    expect((await harness.ask('How does the while loop work?')).kind).toBe('answer');
    expect(requestText(harness.requestsOf('rewrite').at(-1)!)).not.toContain('Clarification 1');
  });
});
