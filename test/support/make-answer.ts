/** An `Answer` as the graph returns it, for rendering tests: only the text and the sources vary. */
import type { Answer } from '../../src/core/types.ts';

export function makeAnswer(markdown: string, sources: Answer['sources'] = [], body = markdown): Answer {
  return {
    id: 'answer-1',
    outcome: 'answered',
    markdown,
    body,
    sources,
    subQuestions: [],
    contexts: [],
    counts: { toolCalls: 1, promptTokens: 1, completionTokens: 1, llmCalls: 1 },
  };
}
