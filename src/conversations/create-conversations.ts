/**
 * The one entry point every adapter uses: `handle()` starts a turn or resumes the thread's pending
 * clarification. It owns the queue per thread, the shared LLM limit, the answer deadline, the SQLite
 * checkpoints, the mapping of the graph's custom stream to ProgressEvents, and of failures to RagentErrors.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { type BaseCheckpointSaver, Command, isNodeTimeoutError } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { Config } from '../config.ts';
import type {
  Answer,
  Conversations,
  ProgressEvent,
  ProgressListener,
  TurnRequest,
  TurnResult,
} from '../core/types.ts';
import { describeError, isRagentError, RagentError, toRagentError } from '../errors.ts';
import type { HistoryWindow } from '../graph/graph-dependencies.ts';
import { buildMainGraph, recursionLimitFor } from '../graph/main-graph.ts';
import { createOllamaModelClient, emptyUsage, type RetryPolicy } from '../graph/model-client.ts';
import type { ClarificationInterrupt } from '../graph/nodes/request-clarification.ts';
import { isProgressEvent } from '../graph/progress.ts';
import { createRetrievalTools } from '../graph/retrieval-tools.ts';
import { type MainStateUpdate, type MainStateValue, resetList } from '../graph/state.ts';
import { warmUpTokenCounter } from '../graph/token-counter.ts';
import type { Logger } from '../logger.ts';
import type { Retriever } from '../retrieval/chunk-index.ts';
import { createFairLimiter } from './fair-limiter.ts';
import { createCheckpointPruner } from './prune-checkpoints.ts';
import { createThreadQueue } from './thread-queue.ts';

export interface ConversationsDependencies {
  config: Config;
  logger: Logger;
  retriever: Retriever;
  /** Retries of failed Ollama calls (default: 3 attempts, 500 ms doubling backoff). */
  retry?: RetryPolicy;
  /** How much chat history stays verbatim before it is folded into the summary. */
  history?: HistoryWindow;
  /** Checkpoint database (default `<dataDir>/checkpoints.sqlite`). */
  checkpointPath?: string;
  /** Checkpoints elsewhere (Postgres for replicas, see src/stores/open-checkpointer.ts) instead of SQLite. */
  checkpoints?: CheckpointStore;
}

/** A checkpoint saver with its pruning (keep a thread's latest checkpoint only) and its closing. */
export interface CheckpointStore {
  saver: BaseCheckpointSaver;
  prune(threadId: string): Promise<void>;
  close(): Promise<void>;
}

export const maxMessageLength = 8_000;

export async function createConversations(dependencies: ConversationsDependencies): Promise<Conversations> {
  const { config, logger, retriever } = dependencies;
  warmUpTokenCounter();
  const {
    saver: checkpointer,
    prune,
    close: closeCheckpoints,
  } = dependencies.checkpoints ?? openSqliteCheckpoints();
  const limiter = createFairLimiter(config.limits.llmConcurrency);
  const queue = createThreadQueue();
  let closing = false;
  let closed: Promise<void> | undefined;

  const hasThread = async (threadId: string): Promise<boolean> => {
    const tuple = await checkpointer.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } });
    return tuple !== undefined;
  };

  const runTurn = async (request: TurnRequest, emit: (event: ProgressEvent) => void): Promise<TurnResult> => {
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(answerTimeout(config.limits.answerTimeoutMs)),
      config.limits.answerTimeoutMs,
    );
    const usage = emptyUsage();
    const model = createOllamaModelClient({
      config,
      logger,
      usage,
      ...(dependencies.retry ? { retry: dependencies.retry } : {}),
      acquire: (signal) =>
        limiter.acquire(request.threadId, {
          ...(signal ? { signal } : {}),
          onWait: () => emit({ type: 'queued', reason: 'llm-busy' }),
        }),
    });
    const tools = createRetrievalTools({
      retriever,
      scopes: request.scopes,
      timeoutMs: config.limits.nodeTimeoutMs,
    });
    const graph = buildMainGraph(
      {
        model,
        tools,
        limits: config.limits,
        ...(dependencies.history ? { history: dependencies.history } : {}),
      },
      { checkpointer },
    );
    const thread = { configurable: { thread_id: request.threadId } };
    try {
      const before = await graph.getState(thread);
      const input = turnInput(request.text, before);
      const stream = await graph.stream(input as never, {
        ...thread,
        streamMode: 'custom',
        subgraphs: true,
        signal: deadline.signal,
        recursionLimit: recursionLimitFor(config.limits),
      });
      for await (const chunk of stream as AsyncIterable<unknown>) {
        const data = Array.isArray(chunk) && chunk.length === 2 ? chunk[1] : chunk;
        if (isProgressEvent(data)) emit(data);
      }
      if (deadline.signal.aborted) throw deadline.signal.reason;
      const after = await graph.getState(thread);
      const pending = after.tasks.flatMap((task) => task.interrupts)[0];
      let result: TurnResult;
      if (pending) {
        result = { kind: 'clarification', question: (pending.value as ClarificationInterrupt).question };
      } else {
        const outcome = after.values.outcome;
        if (!outcome)
          throw new RagentError('INTERNAL', 'The answer ended without a result. Please ask again.');
        if (outcome.kind === 'stopped') result = { kind: 'stopped', message: outcome.message };
        else {
          const answer: Answer = {
            id: randomUUID(),
            markdown: outcome.markdown,
            body: outcome.body,
            sources: outcome.sources,
            subQuestions: outcome.subQuestions,
            contexts: outcome.contexts,
            counts: {
              toolCalls: outcome.toolCalls,
              promptTokens: usage.promptTokens,
              completionTokens: usage.completionTokens,
              llmCalls: usage.llmCalls,
            },
          };
          result = { kind: 'answer', answer };
        }
      }
      emit({ type: 'done' });
      logger.info(
        {
          threadId: request.threadId,
          user: request.user,
          result: result.kind,
          milliseconds: Math.round(performance.now() - started),
          ...usage,
        },
        'turn finished',
      );
      return result;
    } catch (error) {
      const failure = toTurnError(error, deadline.signal, config);
      const fields = { threadId: request.threadId, code: failure.code, error: describeError(error) };
      // Operational failures (Ollama down, timeouts) are warnings; anything unexpected is an error with its cause.
      if (failure.code === 'INTERNAL') logger.error({ ...fields, cause: error }, 'turn failed');
      else logger.warn(fields, 'turn failed');
      throw failure;
    } finally {
      clearTimeout(timer);
      try {
        await prune(request.threadId);
      } catch (error) {
        logger.warn(
          { threadId: request.threadId, error: describeError(error) },
          'pruning old checkpoints failed',
        );
      }
    }
  };

  function openSqliteCheckpoints(): CheckpointStore {
    const file = dependencies.checkpointPath ?? path.join(config.dataDir, 'checkpoints.sqlite');
    mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = SqliteSaver.fromConnString(file);
    sqlite.db.pragma('journal_mode = WAL');
    sqlite.db.pragma('synchronous = NORMAL');
    sqlite.db.pragma('busy_timeout = 5000');
    const pruneSqlite = createCheckpointPruner(sqlite);
    return {
      saver: sqlite,
      prune: async (threadId) => pruneSqlite(threadId),
      close: async () => {
        sqlite.db.close();
      },
    };
  }

  return {
    handle(request: TurnRequest, onProgress?: ProgressListener): Promise<TurnResult> {
      const emit = (event: ProgressEvent) => {
        try {
          onProgress?.(event);
        } catch (error) {
          logger.warn({ error: describeError(error) }, 'progress listener failed');
        }
      };
      if (closing) {
        return Promise.reject(
          new RagentError(
            'SHUTTING_DOWN',
            'ragent is shutting down and takes no new questions. Ask again in a moment.',
          ),
        );
      }
      const invalid = validate(request);
      if (invalid) return Promise.reject(invalid);
      return queue.run(
        request.threadId,
        () => runTurn(request, emit),
        (position) => emit({ type: 'queued', reason: 'thread-busy', position }),
      );
    },
    hasThread,
    forgetThread(threadId) {
      // SqliteSaver.deleteThread fails on a database where nothing was written yet: check first.
      return queue.run(threadId, async () => {
        if (await hasThread(threadId)) await checkpointer.deleteThread(threadId);
      });
    },
    close() {
      closing = true;
      closed ??= queue.idle().then(closeCheckpoints);
      return closed;
    },
  };
}

/**
 * What a message does to its thread: resume the pending clarification; carry on a turn that failed
 * after the user had already answered a clarification (its question and replies are kept, this message
 * counts as one more reply); or start a new turn.
 */
function turnInput(
  text: string,
  before: {
    next: readonly string[];
    tasks: ReadonlyArray<{ interrupts: readonly unknown[] }>;
    values: unknown;
  },
): MainStateUpdate | Command {
  if (before.tasks.some((task) => task.interrupts.length > 0)) return new Command({ resume: text });
  const values = before.values as Partial<MainStateValue>;
  const failedMidTurn = before.next.length > 0 && !values.outcome;
  const turn = {
    messages: [new HumanMessage(text)],
    pendingQuery: text,
    agentAnswers: resetList,
    rewrittenQuestions: [],
    questionIsClear: false,
    outcome: null,
  } satisfies MainStateUpdate;
  if (failedMidTurn && values.pendingClarifications?.length) {
    return {
      ...turn,
      pendingClarifications: [{ question: values.clarificationQuestion ?? '', reply: text }],
    };
  }
  return { ...turn, originalQuery: text, pendingClarifications: resetList, clarificationQuestion: '' };
}

function validate(request: TurnRequest): RagentError | undefined {
  if (typeof request.threadId !== 'string' || request.threadId.trim() === '') {
    return new RagentError('INVALID_INPUT', 'A conversation needs a thread id.');
  }
  if (!Array.isArray(request.scopes) || request.scopes.length === 0) {
    return new RagentError('INVALID_INPUT', 'A conversation needs at least one document scope to search.');
  }
  if (typeof request.text !== 'string' || request.text.trim() === '') {
    return new RagentError('INVALID_INPUT', 'The message is empty: please write a question.');
  }
  if (request.text.length > maxMessageLength) {
    return new RagentError(
      'INVALID_INPUT',
      `The message is too long (${request.text.length} characters; at most ${maxMessageLength}). Please shorten it.`,
    );
  }
  return undefined;
}

function answerTimeout(milliseconds: number): RagentError {
  return new RagentError(
    'ANSWER_TIMEOUT',
    `The answer took longer than ${Math.round(milliseconds / 1000)} s, so I stopped. Try a narrower question, or raise RAGENT_ANSWER_TIMEOUT_S.`,
  );
}

function toTurnError(error: unknown, deadline: AbortSignal, config: Config): RagentError {
  if (deadline.aborted && isRagentError(deadline.reason)) return deadline.reason;
  if (isRagentError(error)) return error;
  if (isNodeTimeoutError(error)) {
    return new RagentError(
      'ANSWER_TIMEOUT',
      `A step of the answer took longer than ${Math.round(config.limits.nodeTimeoutMs / 1000)} s (Ollama may be overloaded), so I stopped. Try again, or raise RAGENT_NODE_TIMEOUT_S.`,
      { cause: error },
    );
  }
  const cause = (error as { cause?: unknown })?.cause;
  if (isRagentError(cause)) return cause;
  return toRagentError(error, 'Answering failed unexpectedly.');
}
