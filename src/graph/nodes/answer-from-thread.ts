/**
 * answerFromThread: a question about the thread the bot joined ("summarise this thread", "what did we
 * decide above", "who asked what") is answered from the thread's messages, without searching the
 * documents, and cites the thread as its one source.
 */
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Source } from '../../core/types.ts';
import { streamAnswerText } from '../answer-text.ts';
import { turnContext } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { threadAnswerPrompt } from '../prompts.ts';
import { appendSources, stripSourcesBlock } from '../sources.ts';
import { type MainStateUpdate, type MainStateValue, resetList } from '../state.ts';
import { userMessageWithClarifications } from './aggregate-answers.ts';
import { noAnswerText } from './collect-answer.ts';

/** How the answer's source line names the thread (like `notCoveredText`, the graph's own words). */
export const threadSourceName = 'this thread';

/** The thread as a source: no file, no pages; renderers show its name. */
export const threadSource: Source = {
  file: threadSourceName,
  docId: 'thread',
  pages: [1, 1],
  location: {},
};

export function createAnswerFromThread() {
  return async (state: MainStateValue, config: LangGraphRunnableConfig): Promise<MainStateUpdate> => {
    emitProgress(config, { type: 'aggregating' });
    const stream = streamAnswerText(config, new Set());
    const reply = await turnContext(config).model.chat({
      purpose: 'thread',
      signal: config.signal,
      ...(stream.onToken ? { onToken: stream.onToken } : {}),
      messages: [
        new SystemMessage(threadAnswerPrompt),
        new HumanMessage(
          [
            `Thread:\n${state.threadContext}`,
            ...(state.conversationSummary ? [`Conversation summary:\n${state.conversationSummary}`] : []),
            `User message:\n${userMessageWithClarifications(state)}`,
          ].join('\n\n'),
        ),
      ],
    });
    const body = stripSourcesBlock(messageText(reply)).trim() || noAnswerText;
    const sources = [threadSource];
    return {
      outcome: {
        kind: 'answer',
        outcome: 'answered',
        markdown: appendSources(body, sources),
        body,
        sources,
        contexts: [],
        subQuestions: [],
        toolCalls: 0,
      },
      messages: [new AIMessage(body)],
      pendingClarifications: resetList,
    };
  };
}
