/**
 * shouldCompressContext and compressContext: when the agent's messages plus its notes outgrow
 * `compressionBaseTokens + compressionSummaryRatio × summary tokens`, fold them into a compact brief.
 * The orchestrator's next prompt then carries the brief and the "already executed" list.
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
import type { GraphDependencies } from '../graph-dependencies.ts';
import { messageText } from '../message-text.ts';
import { emitProgress } from '../progress.ts';
import { compressPrompt } from '../prompts.ts';
import type { AgentStateUpdate, AgentStateValue } from '../state.ts';
import { countTokens } from '../token-counter.ts';

export function contextTokens(state: Pick<AgentStateValue, 'messages' | 'contextSummary'>): number {
  return countTokens(formatResearch(state.messages)) + countTokens(state.contextSummary);
}

export function compressionThreshold(limits: GraphDependencies['limits'], summary: string): number {
  return limits.compressionBaseTokens + limits.compressionSummaryRatio * countTokens(summary);
}

export function createShouldCompressContext(dependencies: GraphDependencies) {
  return (state: AgentStateValue): 'compressContext' | 'orchestrator' =>
    contextTokens(state) > compressionThreshold(dependencies.limits, state.contextSummary)
      ? 'compressContext'
      : 'orchestrator';
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

export function createCompressContext(dependencies: GraphDependencies) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    emitProgress(config, { type: 'compressing', index: state.questionIndex });
    const reply = await dependencies.model.chat({
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
      contextSummary: summary || state.contextSummary || formatResearch(state.messages).slice(0, 4_000),
      messages: state.messages
        .filter((message) => message.id)
        .map((message) => new RemoveMessage({ id: message.id! })),
    };
  };
}
