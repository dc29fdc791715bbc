import { afterEach, describe, expect, it } from 'vitest';
import type { TurnResult } from '../../src/core/types.ts';
import { partialStringField } from '../../src/graph/clarification-text.ts';
import { createHarness, type Harness } from './graph-harness.ts';

describe('the answer graph streams the text the user will read', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  const ask = async (text: string): Promise<{ result: TurnResult; texts: string[] }> => {
    const texts: string[] = [];
    const result = await harness.conversations.handle(
      { threadId: 'cli:stream', scopes: ['shared'], user: 'tester', text },
      undefined,
      { onText: (soFar) => texts.push(soFar) },
    );
    return { result, texts };
  };

  it('streams the final reply of one sub-question piece by piece, never the rewrite or a tool call', async () => {
    harness = await createHarness();
    const { result, texts } = await ask('How does a while loop work?');
    expect(result.kind).toBe('answer');
    expect(texts.length).toBeGreaterThan(1);
    // Each text grows the one before.
    for (const [position, text] of texts.entries())
      if (position > 0) expect(text.startsWith(texts[position - 1] ?? '')).toBe(true);
    expect(texts.at(-1)).toBe(
      'A while loop runs commands while a test succeeds.\n\nSources: bash.pdf (p. 12–13)',
    );
    expect(texts.some((text) => text.includes('isClear'))).toBe(false);
  });

  it('streams only the aggregated answer when there are several sub-questions', async () => {
    harness = await createHarness();
    harness.scripts.rewrite = () => ({
      content: JSON.stringify({
        isClear: true,
        questions: ['What is a loop?', 'What is a test?'],
        clarificationNeeded: '',
      }),
    });
    const { result, texts } = await ask('Loops and tests?');
    expect(result.kind).toBe('answer');
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((text) => text.startsWith('Combined:'))).toBe(true);
  });

  it('takes back text that turned out to come with a tool call', async () => {
    harness = await createHarness();
    harness.scripts.orchestrator = (request) => {
      const results = request.messages.filter((message) => message.role === 'tool').length;
      if (results === 0)
        return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'while loop', limit: 3 } }] };
      if (results === 1)
        return {
          content: 'Let me look further.',
          toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'until loop', limit: 3 } }],
        };
      return { content: 'Loops repeat commands.' };
    };
    const { result, texts } = await ask('How do loops work?');
    expect(result.kind).toBe('answer');
    const retraction = texts.indexOf('');
    expect(retraction).toBeGreaterThan(0);
    expect(texts[retraction - 1]).toContain('Let me look');
    expect(texts.at(-1)).toBe('Loops repeat commands.');
  });

  it('streams a clarification question as the rewrite writes it, never its JSON', async () => {
    harness = await createHarness();
    const question = 'Which loop do you mean: "while" or until?';
    harness.scripts.rewrite = () => ({
      content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: question }),
      tokenDelayMs: 1,
    });
    const { result, texts } = await ask('That loop thing?');
    expect(result).toEqual({ kind: 'clarification', question });
    expect(texts.length).toBeGreaterThan(1);
    for (const [position, text] of texts.entries())
      if (position > 0) expect(text.startsWith(texts[position - 1] ?? '')).toBe(true);
    expect(texts.at(-1)).toBe(question);
    expect(texts.some((text) => /isClear|[{}]/.test(text))).toBe(false);
  });

  it('takes back a question whose reply was invalid, and streams the corrected reply instead', async () => {
    harness = await createHarness();
    let round = 0;
    harness.scripts.rewrite = () => {
      round++;
      // The first reply breaks off inside the JSON; the correction says the message is clear.
      return round === 1
        ? {
            content: '{"isClear": false, "questions": [], "clarificationNeeded": "Which loop do you',
            tokenDelayMs: 1,
          }
        : {
            content: JSON.stringify({
              isClear: true,
              questions: ['How do loops work?'],
              clarificationNeeded: '',
            }),
          };
    };
    const { result, texts } = await ask('How do loops work?');
    expect(result.kind).toBe('answer');
    const retraction = texts.indexOf('');
    expect(retraction).toBeGreaterThan(0);
    expect(texts[retraction - 1]).toBe('Which loop do you');
    expect(texts.at(-1)).toContain('A while loop runs commands');
  });
});

describe('partial JSON strings', () => {
  it('reads a string field as far as it is written, escapes included, and waits on a cut escape', () => {
    expect(partialStringField('{"a": 1, "field": "Wh', 'field')).toBe('Wh');
    expect(partialStringField('{"field": "say \\"hi\\"\\nnow\\u00e9", "b": 2}', 'field')).toBe(
      'say "hi"\nnowé',
    );
    expect(partialStringField('{"field": "cut \\', 'field')).toBe('cut ');
    expect(partialStringField('{"field": "cut \\u00', 'field')).toBe('cut ');
    expect(partialStringField('{"other": "x"}', 'field')).toBeUndefined();
  });
});
