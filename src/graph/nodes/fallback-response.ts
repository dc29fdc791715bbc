/** fallbackResponse: the budget is spent; answer from whatever was retrieved, saying what is missing. */
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { streamAnswerText } from '../answer-text.ts';
import { citationNumbers } from '../citations.ts';
import { turnContext } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { fallbackPrompt } from '../prompts.ts';
import type { AgentStateUpdate, AgentStateValue } from '../state.ts';
import { formatResearch } from './compress-context.ts';

export function createFallbackResponse() {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    emitProgress(config, { type: 'falling-back', index: state.questionIndex });
    const text =
      state.questionTotal === 1 ? streamAnswerText(config, citationNumbers(state.contexts)) : undefined;
    const reply = await turnContext(config).model.chat({
      purpose: 'fallback',
      signal: config.signal,
      ...(text?.onToken ? { onToken: text.onToken } : {}),
      messages: [
        new SystemMessage(fallbackPrompt),
        new HumanMessage(
          `Question: ${state.question}\n\nResearch notes:\n${state.contextSummary || '(none)'}\n\nRetrieved text:\n${formatResearch(state.messages) || '(none)'}`,
        ),
      ],
    });
    return { messages: [new AIMessage(messageText(reply))], fellBack: true };
  };
}
