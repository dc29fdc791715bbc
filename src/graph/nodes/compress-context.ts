/**
 * shouldCompressContext and compressContext: when the orchestrator's next prompt (system prompt,
 * question, notes, the agent's exchange with the tools and the tool definitions) would take more than
 * `compressionContextShare` of the model's context window, fold the research into structured notes
 * that keep the key sentences word for word. The rest of the window stays free for the reply.
 */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { type GraphDependencies, turnContext } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { compressPrompt, orchestratorPrompt } from '../prompts.ts';
import { toolDefinitions } from '../retrieval-tools.ts';
import type { AgentStateUpdate, AgentStateValue } from '../state.ts';
import { countTokens } from '../token-counter.ts';
import { buildOrchestratorMessages } from './orchestrator.ts';

// The system prompt and the tool definitions never change: count them once (about 1 ms per 1,000 characters).
let fixedTokens: number | undefined;
const countFixed = () => {
  fixedTokens ??= countTokens(JSON.stringify(toolDefinitions)) + countTokens(orchestratorPrompt);
  return fixedTokens;
};

// A message is counted once, however many steps it stays in the agent's exchange.
const messageTokens = new WeakMap<BaseMessage, number>();
function tokensOf(message: BaseMessage): number {
  let count = messageTokens.get(message);
  if (count === undefined) {
    count = countTokens(messageText(message));
    if (AIMessage.isInstance(message))
      for (const call of message.tool_calls ?? [])
        count += countTokens(`${call.name} ${JSON.stringify(call.args)}`);
    messageTokens.set(message, count);
  }
  return count;
}

/** Tokens of the prompt the orchestrator would be sent next (cl100k count; an estimate for any model). */
export function orchestratorPromptTokens(state: AgentStateValue): number {
  const messages = buildOrchestratorMessages(state);
  let total = countFixed();
  // The first message is the fixed system prompt, already counted.
  for (const [position, message] of messages.entries()) total += 4 + (position > 0 ? tokensOf(message) : 0);
  return total;
}

/** The prompt size past which the research is compressed. */
export function compressionThreshold(
  dependencies: Pick<GraphDependencies, 'limits' | 'contextWindow'>,
): number {
  return Math.floor(dependencies.limits.compressionContextShare * dependencies.contextWindow);
}

export function createShouldCompressContext(dependencies: GraphDependencies) {
  const threshold = compressionThreshold(dependencies);
  return (state: AgentStateValue): 'compressContext' | 'orchestrator' =>
    orchestratorPromptTokens(state) > threshold ? 'compressContext' : 'orchestrator';
}

export function formatResearch(messages: readonly BaseMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (ToolMessage.isInstance(message))
      lines.push(`Result of ${message.name ?? 'tool'}:\n${messageText(message)}`);
    else if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? [])
        lines.push(`Call: ${call.name} ${JSON.stringify(call.args)}`);
      const text = messageText(message).trim();
      if (text) lines.push(`Agent: ${text}`);
    }
  }
  return lines.join('\n\n');
}

export function createCompressContext() {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    emitProgress(config, { type: 'compressing', index: state.questionIndex });
    const reply = await turnContext(config).model.chat({
      purpose: 'compress',
      signal: config.signal,
      messages: [
        new SystemMessage(compressPrompt),
        new HumanMessage(
          `Question: ${state.question}\n\nEarlier notes:\n${state.contextSummary || '(none)'}\n\nNew research:\n${formatResearch(state.messages)}`,
        ),
      ],
    });
    const summary = messageText(reply).trim();
    return {
      contextSummary: summary || state.contextSummary || formatResearch(state.messages).slice(0, 6_000),
      messages: state.messages
        .filter((message) => message.id)
        .map((message) => new RemoveMessage({ id: message.id! })),
    };
  };
}
