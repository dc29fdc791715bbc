import { afterEach, describe, expect, it } from 'vitest';
import { lastUserMessage } from '../fakes/fake-ollama.ts';
import { createHarness, type Harness } from './graph-harness.ts';

describe('what the agent searches', () => {
  let harness: Harness;
  afterEach(async () => {
    await harness?.close();
  });

  it('searches with the rewritten question, not the user’s raw words', async () => {
    harness = await createHarness();
    const raw = 'how do i keep doing a thing again and again in my script?';
    const rewritten = 'Which while loop construct runs commands while a test succeeds?';
    harness.scripts.rewrite = () => ({
      content: JSON.stringify({ isClear: true, questions: [rewritten], clarificationNeeded: '' }),
    });
    // The orchestrator searches with exactly the question it was handed.
    harness.scripts.orchestrator = (request) => {
      const toolResult = request.messages.find((message) => message.role === 'tool');
      if (!toolResult) {
        const handed = lastUserMessage(request).includes(rewritten) ? rewritten : lastUserMessage(request);
        return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: handed } }] };
      }
      return { content: 'A while loop runs commands while a test succeeds.\n\nSources: bash.pdf (p. 12–13)' };
    };
    const result = await harness.ask(raw);
    expect(result.kind).toBe('answer');
    const searched = harness.retriever.searches.map((search) => search.text);
    expect(searched).toEqual([rewritten]);
    const handedToAgent = lastUserMessage(harness.requestsOf('orchestrator')[0]!);
    expect(handedToAgent).toContain(rewritten);
    expect(handedToAgent).not.toContain(raw);
    if (result.kind === 'answer') expect(result.answer.contexts[0]).toMatchObject({ parentId: 'bash-loops' });
    // The user's own words find nothing in this index: only the rewritten question reaches the passage.
    expect(await harness.retriever.search(raw, { scopes: ['shared'], k: 5 })).toEqual([]);
  });
});
