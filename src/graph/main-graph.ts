/**
 * The main graph: summarizeHistory → rewriteQuery → requestClarification (interrupt, loops back to
 * rewriteQuery) | stopClarifying | one agent run per question in parallel (Send) → aggregateAnswers.
 * Compiled once; each turn brings its model client and tools in the runtime context (`TurnContext`).
 */
import type { BaseCheckpointSaver, LangGraphRunnableConfig } from '@langchain/langgraph';
import { END, Send, START, StateGraph } from '@langchain/langgraph';
import { buildAgentGraph } from './agent-graph.ts';
import { documentsRead } from './documents-read.ts';
import type { GraphDependencies } from './graph-dependencies.ts';
import { createAggregateAnswers } from './nodes/aggregate-answers.ts';
import { createAnswerFromThread } from './nodes/answer-from-thread.ts';
import { requestClarification } from './nodes/request-clarification.ts';
import { createRewriteQuery } from './nodes/rewrite-query.ts';
import { createStopClarifying } from './nodes/stop-clarifying.ts';
import { createSummarizeHistory } from './nodes/summarize-history.ts';
import { emitProgress } from './progress.ts';
import { type AgentTask, MainState, type MainStateUpdate, type MainStateValue } from './state.ts';

/** Enough for the longest agent run the limits allow (4 steps per iteration) with room to spare. */
export function recursionLimitFor(limits: GraphDependencies['limits']): number {
  return 8 * limits.maxIterations + 4 * limits.maxToolCalls + 25;
}

export function routeAfterRewrite(limits: GraphDependencies['limits']) {
  return (state: MainStateValue): 'requestClarification' | 'stopClarifying' | 'answerThread' | Send[] => {
    if (state.questionIsClear && state.answerFromThread) return 'answerThread';
    if (!state.questionIsClear) {
      return state.pendingClarifications.length >= limits.maxClarificationRounds
        ? 'stopClarifying'
        : 'requestClarification';
    }
    const total = state.rewrittenQuestions.length;
    return state.rewrittenQuestions.map(
      (question, questionIndex) =>
        new Send('agent', { question, questionIndex, questionTotal: total } satisfies AgentTask),
    );
  };
}

export interface MainGraphOptions {
  checkpointer: BaseCheckpointSaver;
}

export function buildMainGraph(dependencies: GraphDependencies, options: MainGraphOptions) {
  const agentGraph = buildAgentGraph(dependencies);
  const recursionLimit = recursionLimitFor(dependencies.limits);

  // The Send target: runs the agent subgraph and hands back only `agentAnswers`, a key with a reducer,
  // so parallel runs never collide and no internal message reaches the chat history.
  const runAgent = async (task: AgentTask, config: LangGraphRunnableConfig): Promise<MainStateUpdate> => {
    emitProgress(config, {
      type: 'sub-question-started',
      index: task.questionIndex,
      total: task.questionTotal,
      question: task.question,
    });
    const result = await agentGraph.invoke(
      { question: task.question, questionIndex: task.questionIndex, questionTotal: task.questionTotal },
      { ...config, recursionLimit },
    );
    emitProgress(config, {
      type: 'sub-question-done',
      index: task.questionIndex,
      total: task.questionTotal,
      documents: await documentsRead(result.contexts, config, { links: task.questionTotal > 1 }),
    });
    return {
      agentAnswers: [
        {
          index: task.questionIndex,
          question: task.question,
          answer: result.answer,
          contexts: result.contexts,
          toolCalls: result.toolCallCount,
          fellBack: result.fellBack,
          searches: result.retrievalKeys.flatMap((key) => (key.startsWith('search:') ? [key.slice(7)] : [])),
        },
      ],
    };
  };

  return new StateGraph(MainState)
    .addNode('summarizeHistory', createSummarizeHistory(dependencies))
    .addNode('rewriteQuery', createRewriteQuery(dependencies))
    .addNode('requestClarification', requestClarification)
    .addNode('stopClarifying', createStopClarifying(dependencies))
    .addNode('agent', runAgent as never, { timeout: dependencies.limits.answerTimeoutMs })
    .addNode('aggregateAnswers', createAggregateAnswers())
    .addNode('answerThread', createAnswerFromThread())
    .addEdge(START, 'summarizeHistory')
    .addEdge('summarizeHistory', 'rewriteQuery')
    .addConditionalEdges('rewriteQuery', routeAfterRewrite(dependencies.limits), [
      'requestClarification',
      'stopClarifying',
      'agent',
      'answerThread',
    ])
    .addEdge('requestClarification', 'rewriteQuery')
    .addEdge('stopClarifying', END)
    .addEdge('agent', 'aggregateAnswers')
    .addEdge('aggregateAnswers', END)
    .addEdge('answerThread', END)
    .setNodeDefaults({ timeout: dependencies.limits.nodeTimeoutMs })
    .compile({ checkpointer: options.checkpointer, name: 'ragent' });
}

export type MainGraph = ReturnType<typeof buildMainGraph>;
