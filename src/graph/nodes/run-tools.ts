/**
 * tools: runs the orchestrator's tool calls (in parallel) within the tool-call budget. Unknown tools,
 * bad arguments and repeats come back as text the model can act on, and count against the budget.
 */
import { type AIMessage, ToolMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { type GraphDependencies, turnContext } from '../graph-dependencies.ts';
import { emitProgress } from '../progress.ts';
import type { ToolOutcome } from '../retrieval-tools.ts';
import type { AgentContext, AgentStateUpdate, AgentStateValue } from '../state.ts';

export function createRunTools(dependencies: GraphDependencies) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const { tools } = turnContext(config);
    const last = state.messages.at(-1) as AIMessage | undefined;
    const calls = last?.tool_calls ?? [];
    const budget = Math.max(0, dependencies.limits.maxToolCalls - state.toolCallCount);
    const done = new Set(state.retrievalKeys);
    const inThisBatch = new Set<string>();
    const outcomes = await Promise.all(
      calls.map(async (call, position): Promise<ToolOutcome> => {
        if (position >= budget) {
          return { content: 'SKIPPED: the tool-call budget is spent; write the answer now.', contexts: [] };
        }
        const request = { name: call.name, args: (call.args ?? {}) as Record<string, unknown> };
        const key = tools.keyOf(request);
        const seen = key !== undefined && inThisBatch.has(key) ? new Set([...done, key]) : done;
        if (key) inThisBatch.add(key);
        const about = seen.has(key ?? '') ? undefined : tools.describe(request);
        if (about?.type === 'searching')
          emitProgress(config, { type: 'searching', index: state.questionIndex, query: about.query });
        const outcome = await tools.run(request, seen, config.signal);
        if (outcome.progress?.type === 'reading') {
          emitProgress(config, {
            type: 'reading',
            index: state.questionIndex,
            parentId: outcome.progress.parentId,
            ...(outcome.progress.section ? { section: outcome.progress.section } : {}),
          });
        }
        return outcome;
      }),
    );
    const contexts: AgentContext[] = outcomes.flatMap((outcome) => outcome.contexts);
    const keys = outcomes.flatMap((outcome) => (outcome.key ? [outcome.key] : []));
    return {
      messages: calls.map(
        (call, position) =>
          new ToolMessage({
            content: outcomes[position]?.content ?? '',
            tool_call_id: call.id ?? `call-${state.iterationCount}-${position}`,
            name: call.name,
          }),
      ),
      toolCallCount: state.toolCallCount + calls.length,
      retrievalKeys: keys,
      contexts,
    };
  };
}
