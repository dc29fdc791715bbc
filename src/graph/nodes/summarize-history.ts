/**
 * summarizeHistory: keeps the last few plain messages and folds older ones into the running summary,
 * so the prompts stay the same size however long the thread gets.
 */
import { HumanMessage, RemoveMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { formatHistory, isChatMessage } from '../chat-history.ts';
import { defaultHistoryWindow, type GraphDependencies, turnContext } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { summarizePrompt } from '../prompts.ts';
import type { MainStateUpdate, MainStateValue } from '../state.ts';

export function createSummarizeHistory(dependencies: GraphDependencies) {
  const window = dependencies.history ?? defaultHistoryWindow;
  return async (state: MainStateValue, config: LangGraphRunnableConfig): Promise<MainStateUpdate> => {
    // The last message is the one this turn answers; everything before it is history.
    const history = state.messages.slice(0, -1).filter(isChatMessage);
    if (history.length < window.keepRecent + window.foldBatch) return {};
    const older = history.slice(0, history.length - window.keepRecent);
    emitProgress(config, { type: 'summarizing' });
    const reply = await turnContext(config).model.chat({
      purpose: 'summarize',
      signal: config.signal,
      messages: [
        new SystemMessage(summarizePrompt),
        new HumanMessage(
          `Existing summary:\n${state.conversationSummary || '(none)'}\n\nOlder messages to fold in:\n${formatHistory(older)}`,
        ),
      ],
    });
    const summary = messageText(reply).trim();
    return {
      conversationSummary: summary || state.conversationSummary,
      messages: older
        .filter((message) => message.id)
        .map((message) => new RemoveMessage({ id: message.id! })),
    };
  };
}
