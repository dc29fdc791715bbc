/**
 * orchestrator: the agent's LLM call with the two retrieval tools bound. The first call must search:
 * if the model answers straight away, a search for the question itself is made for it.
 */
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { streamAnswerText } from '../answer-text.ts';
import { citationNumbers } from '../citations.ts';
import { turnContext } from '../graph-dependencies.ts';
import { orchestratorPrompt } from '../prompts.ts';
import { defaultSearchLimit, searchToolName, toolDefinitions } from '../retrieval-tools.ts';
import type { AgentStateUpdate, AgentStateValue } from '../state.ts';

export const alreadyExecutedHeading = 'Already executed — do not repeat:';

export function buildOrchestratorMessages(state: AgentStateValue): BaseMessage[] {
  const messages: BaseMessage[] = [new SystemMessage(orchestratorPrompt), new HumanMessage(state.question)];
  if (state.contextSummary) {
    const done = state.retrievalKeys.map((key) =>
      key.startsWith('search:')
        ? `- search_child_chunks: "${key.slice(7)}"`
        : `- retrieve_parent_chunks: ${key.slice(7)}`,
    );
    messages.push(
      new HumanMessage(
        `Research notes so far (compressed):\n${state.contextSummary}\n\n${alreadyExecutedHeading}\n${done.join('\n') || '- (nothing)'}`,
      ),
    );
  }
  return messages.concat(state.messages);
}

export function createOrchestrator() {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    // With one sub-question a reply without tool calls is the answer the user reads: stream it. The
    // first call must search, so its text is never final.
    const text =
      state.questionTotal === 1 && state.iterationCount > 0
        ? streamAnswerText(config, citationNumbers(state.contexts))
        : undefined;
    let reply = await turnContext(config).model.chat({
      purpose: 'orchestrator',
      signal: config.signal,
      tools: toolDefinitions,
      messages: buildOrchestratorMessages(state),
      ...(text?.onToken ? { onToken: text.onToken } : {}),
    });
    if (reply.tool_calls?.length) text?.retract();
    if (state.iterationCount === 0 && !reply.tool_calls?.length) {
      reply = new AIMessage({
        content: '',
        tool_calls: [
          {
            id: `forced-search-${state.questionIndex}`,
            name: searchToolName,
            args: { query: state.question, limit: defaultSearchLimit },
            type: 'tool_call',
          },
        ],
      });
    }
    return { messages: [reply], iterationCount: state.iterationCount + 1 };
  };
}
