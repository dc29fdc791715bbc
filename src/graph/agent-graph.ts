/**
 * The agent subgraph: orchestrator ⇄ tools → shouldCompressContext → (compressContext →) orchestrator,
 * fallbackResponse when the budget is spent or the model's final reply is empty, collectAnswer at the
 * end. One run per sub-question; compiled once (the model and tools come with each run's context).
 */
import type { AIMessage } from '@langchain/core/messages';
import { END, START, StateGraph } from '@langchain/langgraph';
import type { GraphDependencies } from './graph-dependencies.ts';
import { collectAnswer, endsWithEmptyReply } from './nodes/collect-answer.ts';
import { createCompressContext, createShouldCompressContext } from './nodes/compress-context.ts';
import { createFallbackResponse } from './nodes/fallback-response.ts';
import { createOrchestrator } from './nodes/orchestrator.ts';
import { createRunTools } from './nodes/run-tools.ts';
import { AgentState, type AgentStateValue } from './state.ts';

export function routeAfterOrchestrator(
  limits: GraphDependencies['limits'],
): (state: AgentStateValue) => 'tools' | 'fallbackResponse' | 'collectAnswer' {
  return (state) => {
    const last = state.messages.at(-1) as AIMessage | undefined;
    if (!last?.tool_calls?.length) return endsWithEmptyReply(state) ? 'fallbackResponse' : 'collectAnswer';
    if (state.iterationCount >= limits.maxIterations || state.toolCallCount >= limits.maxToolCalls) {
      return 'fallbackResponse';
    }
    return 'tools';
  };
}

export function buildAgentGraph(dependencies: GraphDependencies) {
  return new StateGraph(AgentState)
    .addNode('orchestrator', createOrchestrator())
    .addNode('tools', createRunTools(dependencies))
    .addNode('compressContext', createCompressContext())
    .addNode('fallbackResponse', createFallbackResponse())
    .addNode('collectAnswer', collectAnswer)
    .addEdge(START, 'orchestrator')
    .addConditionalEdges('orchestrator', routeAfterOrchestrator(dependencies.limits), [
      'tools',
      'fallbackResponse',
      'collectAnswer',
    ])
    .addConditionalEdges('tools', createShouldCompressContext(dependencies), [
      'compressContext',
      'orchestrator',
    ])
    .addEdge('compressContext', 'orchestrator')
    .addEdge('fallbackResponse', 'collectAnswer')
    .addEdge('collectAnswer', END)
    .setNodeDefaults({ timeout: dependencies.limits.nodeTimeoutMs })
    .compile({ checkpointer: false, name: 'agent' });
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
