/**
 * The fake model's behaviour for the Slack tests, routed by request shape like the real graph's
 * calls: the rewrite step (`format` present) decides whether a question is clear, the research agent
 * (`tools` present) searches once and then answers by quoting what the search returned, with its
 * sources; anything else gets a short text.
 */
import type { ChatScript, FakeChatRequest } from '../fakes/fake-ollama.ts';
import { roleOf } from '../support/model-roles.ts';

/** Questions containing this word are "unclear": the rewrite step asks back. */
export const unclearMarker = 'thingy';
export const clarifyingQuestion = 'Which thingy do you mean — the loop or the deploy freeze?';

export function userMessageOf(request: FakeChatRequest): string {
  const text = request.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
  return /User message:\n([\s\S]*?)(\n\n|$)/.exec(text)?.[1] ?? text;
}

export const slackModel: ChatScript = (request) => {
  switch (roleOf(request)) {
    case 'rewrite': {
      const message = userMessageOf(request);
      const prompt = request.messages.map((entry) => entry.content).join('\n');
      const reply = /the user replied "([^"]*)"/.exec(prompt)?.[1];
      // Unclear until the user's clarification names what they mean.
      if (message.includes(unclearMarker) && !/\b(loop|freeze)\b/i.test(reply ?? '')) {
        return {
          content: JSON.stringify({ isClear: false, questions: [], clarificationNeeded: clarifyingQuestion }),
        };
      }
      // In a thread it joined, "summarise this thread" is answered from the thread.
      if (/\bthis thread\b/i.test(message) && prompt.includes('Earlier messages in this thread'))
        return {
          content: JSON.stringify({
            isClear: true,
            questions: [],
            clarificationNeeded: '',
            fromThread: true,
          }),
        };
      const question = reply ? `${message} (${reply})` : message;
      return { content: JSON.stringify({ isClear: true, questions: [question], clarificationNeeded: '' }) };
    }
    case 'orchestrator': {
      const results = request.messages.filter((message) => message.role === 'tool');
      if (results.length === 0) {
        const question = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
        return {
          toolCalls: [
            { name: 'search_child_chunks', arguments: { query: question.slice(0, 200), limit: 3 } },
          ],
        };
      }
      const found = results.map((message) => message.content).join('\n');
      const file = /([\w.-]+\.pdf)/.exec(found)?.[1];
      if (!file || found.includes('NO_RELEVANT_CHUNKS')) {
        return { content: 'The documents do not say.' };
      }
      const quote = /(?:Content|Text):\s*([\s\S]*?)(?:\n\n|$)/i.exec(found)?.[1] ?? found.slice(0, 300);
      return { content: `**From the documents:** ${quote.trim()}\n\nSources:\n- ${file} (p. 1)` };
    }
    case 'aggregate':
    case 'fallback':
      return { content: 'Combined answer.' };
    // A question about the thread itself, answered from it: repeats what the thread said, as read.
    case 'thread': {
      const thread = /Thread:\n([\s\S]*?)\n\n/.exec(request.messages.at(-1)?.content ?? '')?.[1] ?? '';
      return { content: `From the thread:\n${thread}` };
    }
    default:
      return { content: 'Summary.' };
  }
};
