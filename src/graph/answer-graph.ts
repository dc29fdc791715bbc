/**
 * The answer graph as one facade, compiled once at start. A turn brings what changes per turn — the
 * thread, the scopes (→ the retrieval tools), the abort signal, the progress listener, the LLM-limit
 * slot (→ the model client with this turn's usage counter) — through LangGraph's runtime context and
 * config; the checkpointed state holds only the conversation.
 */
import { randomUUID } from 'node:crypto';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { type BaseCheckpointSaver, Command, isNodeTimeoutError } from '@langchain/langgraph';
import type { Config } from '../config.ts';
import type {
  Answer,
  ModelCallRecord,
  ProgressEvent,
  Scope,
  StreamedTextKind,
  ThreadId,
  TurnResult,
} from '../core/types.ts';
import { errorMessageOpenings, errorMessages } from '../error-messages-en.ts';
import { isRagentError, RagentError, toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { createChatModel } from '../models/create-models.ts';
import type { Retriever } from '../retrieval/chunk-index.ts';
import type { HistoryWindow, TurnContext } from './graph-dependencies.ts';
import { buildMainGraph, recursionLimitFor } from './main-graph.ts';
import {
  type AcquireSlot,
  createModelClient,
  emptyUsage,
  type RetryPolicy,
  type Usage,
} from './model-client.ts';
import { traceModelCalls } from './model-trace.ts';
import type { ClarificationInterrupt } from './nodes/request-clarification.ts';
import { isProgressEvent } from './progress.ts';
import { createRetrievalTools } from './retrieval-tools.ts';
import { type MainStateUpdate, type MainStateValue, resetList } from './state.ts';
import { warmUpTokenCounter } from './token-counter.ts';

export interface AnswerGraphOptions {
  config: Config;
  logger: Logger;
  retriever: Retriever;
  checkpointer: BaseCheckpointSaver;
  /** Retries of failed model calls (default: 3 attempts, 500 ms doubling backoff). */
  retry?: RetryPolicy;
  /** How much chat history stays verbatim before it is folded into the summary. */
  history?: HistoryWindow;
}

export interface AnswerTurn {
  threadId: ThreadId;
  /** Fixed by the adapter; the model never sees or chooses them. */
  scopes: readonly Scope[];
  text: string;
  /** The thread's earlier messages, formatted, when this turn joins a thread (thread-context.ts). */
  thread?: string;
  /** Ends the turn (the deadline); its reason is what the turn fails with. */
  signal: AbortSignal;
  /** Waits for a slot of the shared LLM limit. */
  acquire: AcquireSlot;
  onProgress(event: ProgressEvent): void;
  onModelCall?: (call: ModelCallRecord) => void;
  /** Told the final answer's text so far as the model writes it ('' takes it back). */
  onText?: (textSoFar: string, kind: StreamedTextKind) => void;
}

export interface AnswerTurnOutcome {
  result: TurnResult;
  usage: Usage;
}

export interface AnswerGraph {
  /** Runs one turn: a new question, or the reply to the thread's pending clarification. Throws RagentError. */
  run(turn: AnswerTurn): Promise<AnswerTurnOutcome>;
  /** Whether the thread has any state. */
  hasThread(threadId: ThreadId): Promise<boolean>;
  /** Whether the thread waits for the reply to a clarification question. */
  awaitsClarification(threadId: ThreadId): Promise<boolean>;
  /** Deletes the thread's state (the caller checks `hasThread` first where the saver needs it). */
  forget(threadId: ThreadId): Promise<void>;
  /**
   * Adds a question and the answer it got without the graph (a verified answer) to the thread's
   * history, so a follow-up in the thread reads it as the previous answer. No model call.
   */
  remember(threadId: ThreadId, question: string, answer: string): Promise<void>;
}

export function createAnswerGraph(options: AnswerGraphOptions): AnswerGraph {
  const { config, logger, retriever, checkpointer } = options;
  warmUpTokenCounter();
  const graph = buildMainGraph(
    {
      limits: config.limits,
      contextWindow: config.ollama.numCtx,
      ...(options.history ? { history: options.history } : {}),
    },
    { checkpointer },
  );
  const recursionLimit = recursionLimitFor(config.limits);
  // One chat model for every turn; each turn gets its own client (usage, LLM slot) around it.
  const chatModel = createChatModel(config);
  const sampling = {
    model: chatModel.model,
    temperature: config.ollama.temperature,
    seed: config.ollama.seed,
    numCtx: config.ollama.numCtx,
  };

  const threadConfig = (threadId: ThreadId) => ({ configurable: { thread_id: threadId } });

  return {
    async run(turn) {
      const usage = emptyUsage();
      const client = createModelClient({
        config,
        logger,
        usage,
        chatModel,
        acquire: turn.acquire,
        ...(options.retry ? { retry: options.retry } : {}),
      });
      const context: TurnContext = {
        model: turn.onModelCall ? traceModelCalls(client, turn.onModelCall, sampling) : client,
        tools: createRetrievalTools({
          retriever,
          scopes: turn.scopes,
          timeoutMs: config.limits.nodeTimeoutMs,
          minRelevance: config.limits.minRelevance,
        }),
        ...(turn.onText ? { onText: turn.onText } : {}),
      };
      const thread = threadConfig(turn.threadId);
      try {
        const before = await graph.getState(thread);
        const stream = await graph.stream(
          turnInput(turn.text, before, turn.thread) as never,
          {
            ...thread,
            context,
            streamMode: 'custom',
            subgraphs: true,
            signal: turn.signal,
            recursionLimit,
          } as never,
        );
        for await (const chunk of stream as AsyncIterable<unknown>) {
          const data = Array.isArray(chunk) && chunk.length === 2 ? chunk[1] : chunk;
          if (isProgressEvent(data)) turn.onProgress(data);
        }
        if (turn.signal.aborted) throw turn.signal.reason;
        const after = await graph.getState(thread);
        return { result: resultOf(after, usage), usage };
      } catch (error) {
        throw toTurnError(error, turn.signal, config);
      }
    },
    async awaitsClarification(threadId) {
      const state = (await graph.getState(threadConfig(threadId))) as Snapshot;
      return state.tasks.some((task) => task.interrupts.length > 0);
    },
    async hasThread(threadId) {
      const tuple = await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
      return tuple !== undefined;
    },
    forget(threadId) {
      return checkpointer.deleteThread(threadId);
    },
    async remember(threadId, question, answer) {
      // As the last node of a turn wrote them: the thread then has nothing pending, like after an answer.
      await graph.updateState(
        threadConfig(threadId),
        { messages: [new HumanMessage(question), new AIMessage(answer)] },
        'aggregateAnswers',
      );
    },
  };
}

type Snapshot = {
  next: readonly string[];
  tasks: ReadonlyArray<{ interrupts: ReadonlyArray<{ value?: unknown }> }>;
  values: unknown;
};

function resultOf(after: Snapshot, usage: Usage): TurnResult {
  const pending = after.tasks.flatMap((task) => task.interrupts)[0];
  if (pending) return { kind: 'clarification', question: (pending.value as ClarificationInterrupt).question };
  const outcome = (after.values as Partial<MainStateValue>).outcome;
  if (!outcome) throw new RagentError('INTERNAL', errorMessages.INTERNAL.answerWithoutResult());
  if (outcome.kind === 'stopped') return { kind: 'stopped', message: outcome.message };
  const answer: Answer = {
    id: randomUUID(),
    outcome: outcome.outcome ?? 'answered',
    markdown: outcome.markdown,
    body: outcome.body,
    sources: outcome.sources,
    ...(outcome.citesByNumber ? { citesByNumber: true } : {}),
    subQuestions: outcome.subQuestions,
    contexts: outcome.contexts,
    counts: {
      toolCalls: outcome.toolCalls,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      llmCalls: usage.llmCalls,
    },
  };
  return { kind: 'answer', answer };
}

/**
 * What a message does to its thread: resume the pending clarification; carry on a turn that failed
 * after the user had already answered a clarification (its question and replies are kept, this message
 * counts as one more reply); or start a new turn.
 */
function turnInput(text: string, before: Snapshot, thread?: string): MainStateUpdate | Command {
  if (before.tasks.some((task) => task.interrupts.length > 0)) return new Command({ resume: text });
  const values = before.values as Partial<MainStateValue>;
  const failedMidTurn = before.next.length > 0 && !values.outcome;
  const turn = {
    messages: [new HumanMessage(text)],
    pendingQuery: text,
    agentAnswers: resetList,
    rewrittenQuestions: [],
    questionIsClear: false,
    answerFromThread: false,
    outcome: null,
    ...(thread ? { threadContext: thread } : {}),
  } satisfies MainStateUpdate;
  if (failedMidTurn && values.pendingClarifications?.length) {
    return {
      ...turn,
      pendingClarifications: [{ question: values.clarificationQuestion ?? '', reply: text }],
    };
  }
  return { ...turn, originalQuery: text, pendingClarifications: resetList, clarificationQuestion: '' };
}

function toTurnError(error: unknown, signal: AbortSignal, config: Config): RagentError {
  if (signal.aborted && isRagentError(signal.reason)) return signal.reason;
  if (isRagentError(error)) return error;
  if (isNodeTimeoutError(error)) {
    return new RagentError(
      'ANSWER_TIMEOUT',
      errorMessages.ANSWER_TIMEOUT.step({ seconds: Math.round(config.limits.nodeTimeoutMs / 1000) }),
      { cause: error },
    );
  }
  const cause = (error as { cause?: unknown })?.cause;
  if (isRagentError(cause)) return cause;
  return toRagentError(error, errorMessageOpenings.answeringFailed());
}

export type { HistoryWindow } from './graph-dependencies.ts';
export type { RetryPolicy } from './model-client.ts';
